import Foundation
import Testing
@testable import PhotoDaemon

/// The fallback group is apart from any description (issue 15), and a client's group name picks
/// a group by one rule everywhere (`GroupNaming`).
@Suite struct FallbackGroupRulesTests {
    let rules = GroupingRules()

    @Test func aDescriptionThatIsLiterallyTheFallbacksNameIsAGroupOfItsOwn() {
        let literal = rules.assign(text: "Other")
        #expect(literal == GroupAssignment(key: "Other", spelling: "Other"))
        #expect(literal.key != rules.fallback.key, "v1 filed both under \"Other\"")
        #expect(rules.fallback.spelling == literal.spelling, "both are called Other")
        let folding = GroupingRules(caseInsensitive: true)
        #expect(folding.assign(text: "OTHER").key == "other")
        #expect(folding.assign(text: "OTHER").key != folding.fallbackKey)
        let custom = GroupingRules(fallbackName: "Unsorted")
        #expect(custom.assign(text: "Unsorted").key == "Unsorted")
        #expect(custom.assign(text: nil).key == custom.fallbackKey)
    }

    @Test func noDescriptionIsFiledUnderTheFallbackKey() {
        // Whatever a photo says, its normalized text is never empty, so never the fallback's key.
        for text in ["", " ", "\t\n", "\u{A0}\u{2003}", "Other", "other", " Other "] {
            let assignment = rules.assign(text: text)
            #expect((assignment.key == rules.fallbackKey) == DescriptionText.normalize(text).isEmpty, "\(text.debugDescription)")
        }
    }

    @Test func aNameMeansItsDescriptionGroupAndTheFallbackOnlyByFlagOrAsALastResort() {
        #expect(rules.candidateKeys(forName: "Beach", fallback: nil) == ["Beach"])
        #expect(rules.candidateKeys(forName: "Other", fallback: nil) == ["Other", rules.fallbackKey])
        #expect(rules.candidateKeys(forName: " Other ", fallback: nil) == ["Other", rules.fallbackKey])
        #expect(rules.candidateKeys(forName: "Other", fallback: false) == ["Other"])
        #expect(rules.candidateKeys(forName: "Other", fallback: true) == [rules.fallbackKey])
        #expect(rules.candidateKeys(forName: "Beach", fallback: true) == [], "true needs the fallback's name")
        #expect(rules.candidateKeys(forName: "other", fallback: nil) == ["other"], "case counts when the rules say so")
        #expect(rules.candidateKeys(forName: "   ", fallback: nil) == [], "a blank name is no group, not the fallback")
        #expect(rules.candidateKeys(forName: "", fallback: false) == [])
        let folding = GroupingRules(caseInsensitive: true)
        #expect(folding.candidateKeys(forName: "OTHER", fallback: nil) == ["other", folding.fallbackKey])
        #expect(folding.namesFallback("oTHer"))
        #expect(!rules.namesFallback("other"))
        #expect(!rules.namesFallback(""))
    }

    @Test func theCameraDefaultsOfOtherListsAreBoilerplate() {
        let cameraDefaults = [
            "KONICA MINOLTA DIGITAL CAMERA", "SONY DSC", "DIGITAL CAMERA", "OLYMPUS DIGITAL CAMERA",
            "MINOLTA DIGITAL CAMERA", "SAMSUNG CAMERA PICTURES", "Samsung Digital Camera", "LEICA DIGITAL CAMERA",
            "PENTAX Image", "Digital image", "Picasa", "EASYSHARE", "<KENOX S630  / Samsung S630>", "DCIM",
            "Exif_JPEG_PICTURE", "JENOPTIK DIGITAL CAMERA", "KODAK Digital Still Camera", "SANYO DIGITAL CAMERA",
            "NIKON DIGITAL CAMERA", "PENTAX DIGITAL CAMERA", "FUJIFILM DIGITAL CAMERA", "GE DIGITAL CAMERA",
            "CASIO DIGITAL CAMERA",
        ]
        for text in cameraDefaults {
            #expect(!rules.isUsable(text), "\(text)")
            #expect(rules.assign(text: text) == rules.fallback, "\(text)")
        }
        #expect(GroupingRules.defaultBoilerplate.allSatisfy { !rules.isUsable($0) })
        #expect(Set(GroupingRules.firstDefaultBoilerplate).isSubset(of: GroupingRules.defaultBoilerplate))
    }

    /// Cameras pad and cut their strings: matching happens after normalization and ignoring case.
    @Test func boilerplateIsMatchedAfterNormalization() {
        let written: [[UInt8]] = [
            Array("SONY DSC                       ".utf8),           // padded to the field's length
            Array("<KENOX S630 / Samsung S630>".utf8),               // one space where the camera wrote two
            Array("  <KENOX S630  /  Samsung S630>\n".utf8),
            Array("samsung DIGITAL camera".utf8),
            Array("PENTAX Image".utf8) + [0] + Array("garbage after the NUL".utf8),
            Array("Exif_JPEG_PICTURE".utf8) + [0, 0, 0, 0],
        ]
        for bytes in written {
            #expect(rules.assign(description: bytes) == rules.fallback, "\(bytes)")
        }
        #expect(rules.assign(text: "PENTAX Image of a fox").key == "PENTAX Image of a fox", "only the whole text counts")
        #expect(rules.assign(text: "DCIM 2019").key == "DCIM 2019")
    }

    /// Descriptions made of blanks and NULs only were already no description: they stay so.
    @Test func blankOrNulOnlyDescriptionsAreNoDescription() {
        let blanks: [[UInt8]] = [
            [0x20, 0x20, 0x20], [0, 0x41, 0x42], [0x20, 0, 0x20], [0x09, 0x0A, 0x0D, 0x20], [0xA0, 0xA0],  // Latin-1 NBSP
            Array("\u{3000}\u{2002}".utf8),
        ]
        for bytes in blanks {
            #expect(rules.assign(description: bytes) == rules.fallback, "\(bytes)")
        }
    }

    @Test func theFingerprintSaysTheFallbackHasItsOwnKey() {
        #expect(rules.fingerprint.hasPrefix("v2|"))
        #expect(!GroupingRules.fallbackSharedItsName(fingerprint: rules.fingerprint))
        #expect(GroupingRules.fallbackSharedItsName(fingerprint: "v1|fallback=Other|ci=false|boilerplate=sony dsc"))
        #expect(GroupingRules(boilerplate: GroupingRules.firstDefaultBoilerplate).fingerprint != rules.fingerprint,
                "the longer built-in list regroups an index built with the first one")
    }

    @Test func aSelectionThatNamedTheSharedGroupKeepsBothGroups() throws {
        let old = AppAuthorization(app: "exe:/usr/bin/viewer", uid: 1000, status: .limited, groups: ["Beach", "Other"])
        let upgraded = try #require(FallbackSelectionUpgrade.upgraded(old, rules: rules))
        #expect(upgraded.groups == ["Beach", "Other"], "the name now means the photos described Other")
        #expect(upgraded.fallback == true, "and the fallback group is kept by its flag")
        #expect(FallbackSelectionUpgrade.upgraded(upgraded, rules: rules) == nil, "running it twice changes nothing")
        let unrelated = AppAuthorization(app: "exe:/usr/bin/viewer", uid: 1000, status: .limited, groups: ["Beach"])
        #expect(FallbackSelectionUpgrade.upgraded(unrelated, rules: rules) == nil)
        let folding = GroupingRules(caseInsensitive: true)
        let lower = AppAuthorization(app: "exe:/usr/bin/viewer", uid: 1000, status: .limited, groups: ["other"])
        #expect(FallbackSelectionUpgrade.upgraded(lower, rules: folding)?.fallback == true)
        #expect(FallbackSelectionUpgrade.upgraded(lower, rules: rules) == nil, "case-sensitive rules never filed it there")
    }

    @Test func aLimitedRecordOnlyOfTheFallbackGroupIsAValidDecisionAndShowsOnTheWire() {
        var machine = AuthorizationMachine(
            record: AppAuthorization(app: "exe:/usr/bin/viewer", uid: 1000), policy: AuthorizationPolicy())
        let actions = machine.decide(.limited, assets: [], groups: [], fallback: true, now: Date(timeIntervalSince1970: 0))
        #expect(!actions.contains { if case .fail = $0 { true } else { false } })
        #expect(machine.record.visibility == .selection(assets: [], groups: [], fallback: true))
        #expect(machine.record.wire.fallback == true)
        #expect(machine.record.wire.groups == [])
        let refused = machine.decide(.authorized, assets: [], groups: [], fallback: true, now: Date(timeIntervalSince1970: 1))
        #expect(refused == [.fail(.invalidDecision(reason: "assets and groups go with limited only, not with authorized"))])
        _ = machine.reset(now: Date(timeIntervalSince1970: 2))
        #expect(machine.record.fallback == nil)
        #expect(machine.record.wire.fallback == nil, "absent for statuses other than limited")
    }
}
