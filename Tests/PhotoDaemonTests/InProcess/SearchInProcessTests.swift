import Foundation
import PhotoAPI
import PhotoClient
import PhotoTestSupport
import Testing
import Varlink
@testable import PhotoDaemon

/// A JPEG with a description, a taken time and a camera.
private func jpeg(_ description: String?, taken: String = "2021:07:04 10:30:00", offset: String? = nil,
                  make: String? = nil, model: String? = nil) -> [UInt8] {
    JPEGFixture.make(exif: ExifFixture(description: description, dateTimeOriginal: taken, offsetTimeOriginal: offset,
                                       make: make, model: model))
}

/// The varlink error a call failed with.
private func refusal(_ call: () async throws -> some Any) async -> VarlinkError? {
    do {
        _ = try await call()
        return nil
    } catch PhotoClientError.daemon(let error) {
        return error
    } catch {
        return nil
    }
}

/// `Search`, `ListAssets`' time filters and `GetAssets` by path, served in process, as the owner
/// and as a limited app.
@Suite struct SearchInProcessTests {
    private static let viewer = "exe:/usr/bin/viewer"

    private static func prepare(_ daemon: TestDaemon) throws {
        try daemon.add("2019/cafe1.jpg", jpeg("Café Crème", taken: "2019:05:01 08:00:00", make: "Canon"))
        try daemon.add("2019/cafe2.jpg", jpeg("café crème", taken: "2019:05:02 08:00:00", model: "X-T3"))
        try daemon.add("2020/beach.jpg", jpeg("Beach", taken: "2020:08:01 12:00:00"))
        try daemon.add("2020/été.jpg", jpeg("Été à la plage", taken: "2020:08:02 12:00:00"))
        try daemon.add("2021/hike.jpg", jpeg("Hike", taken: "2021:06:05 23:30:00", offset: "-07:00"))
        try daemon.add("2021/late.jpg", jpeg("Hike", taken: "2021:06:06 00:30:00"))
    }

    private func names(_ assets: [Asset]) -> [String] {
        assets.map { URL(fileURLWithPath: $0.path).lastPathComponent }
    }

    @Test func theOwnerFindsByAnyFieldIgnoringCaseAndAccentsNewestFirst() async throws {
        try await TestDaemon.withDaemon(prepare: Self.prepare) { daemon in
            let client = try await daemon.client()
            #expect(names(try await client.searchAll("CAFE")) == ["cafe2.jpg", "cafe1.jpg"])
            #expect(names(try await client.searchAll("ete")) == ["été.jpg"])
            #expect(names(try await client.searchAll("ÉTÉ plage")) == ["été.jpg"])
            #expect(names(try await client.searchAll("canon crème")) == ["cafe1.jpg"])
            #expect(names(try await client.searchAll("t3")) == ["cafe2.jpg"])
            // hike.jpg's taken time records its offset (-07:00): it is the later instant of the two.
            #expect(names(try await client.searchAll("jpg", group: "Hike")) == ["hike.jpg", "late.jpg"])
            #expect(try await client.searchAll(#""hike" OR NEAR(x)"#).isEmpty, "syntax is text, and no photo has it")
            // Pages of two follow the cursor to the end, each photo once, in order.
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await client.search(SearchParameters(text: "jpg", limit: 2, cursor: cursor))
                #expect(page.assets.count <= 2)
                seen += names(page.assets)
                cursor = page.cursor
            } while cursor != nil
            #expect(seen == ["hike.jpg", "late.jpg", "été.jpg", "beach.jpg", "cafe2.jpg", "cafe1.jpg"])
            await client.close()
        }
    }

    @Test func theFallbackGroupIsNamedByItsFlagApartFromADescribedOther() async throws {
        try await TestDaemon.withDaemon(prepare: { daemon in
            try daemon.add("none.jpg", jpeg(nil))
            try daemon.add("other.jpg", jpeg("Other"))
        }) { daemon in
            let client = try await daemon.client()
            let fallback = try await client.search(SearchParameters(text: "jpg", group: "Other", fallback: true))
            #expect(names(fallback.assets) == ["none.jpg"])
            let described = try await client.search(SearchParameters(text: "jpg", group: "Other", fallback: false))
            #expect(names(described.assets) == ["other.jpg"])
            await client.close()
        }
    }

    @Test func badSearchesAreRefusedNamingWhatIsWrong() async throws {
        try await TestDaemon.withDaemon(prepare: Self.prepare) { daemon in
            let client = try await daemon.client()
            for text in ["", "   \t", String(repeating: "a", count: 1001),
                         (1...17).map { "w\($0)x" }.joined(separator: " ")] {
                let error = await refusal { try await client.search(SearchParameters(text: text)) }
                #expect(error?.name == "org.varlink.service.InvalidParameter")
                #expect(error?.parameters(InvalidParameterError.self)?.parameter == "text")
            }
            let cursor = await refusal { try await client.search(SearchParameters(text: "jpg", cursor: "bm90IGEgY3Vyc29y")) }
            #expect(cursor?.name == LibraryInterface.Error.invalidCursor)
            // A cursor of an oldest-first listing does not continue a search, which is newest first.
            let forward = try await client.listAssets(ListAssetsParameters(limit: 1)).cursor
            let replayed = await refusal { try await client.search(SearchParameters(text: "jpg", cursor: forward)) }
            #expect(replayed?.name == LibraryInterface.Error.invalidCursor)
            let group = await refusal { try await client.search(SearchParameters(text: "jpg", group: "Nope")) }
            #expect(group?.name == LibraryInterface.Error.groupNotFound)
            let limit = await refusal { try await client.search(SearchParameters(text: "jpg", limit: 0)) }
            #expect(limit?.parameters(InvalidParameterError.self)?.parameter == "limit")
            await client.close()
        }
    }

    @Test func aLimitedAppFindsOnlyItsSelectionAndAHiddenGroupIsNotFound() async throws {
        try await TestDaemon.withDaemon(prepare: Self.prepare) { daemon in
            let owner = try await daemon.client()
            let beach = try #require(try await owner.searchAll("beach").first)
            _ = try await owner.decide(app: Self.viewer, status: .limited, assets: [beach.id], groups: ["Hike"])
            let app = try await daemon.client(as: TestDaemon.app(Self.viewer))
            #expect(names(try await app.searchAll("jpg")) == ["hike.jpg", "late.jpg", "beach.jpg"])
            #expect(try await app.searchAll("cafe").isEmpty, "its photos exist, hidden from the app")
            #expect(names(try await app.searchAll("h")) == ["hike.jpg", "late.jpg", "beach.jpg"])
            let page = try await app.search(SearchParameters(text: "jpg", limit: 2))
            #expect(page.assets.count == 2)
            let rest = try await app.search(SearchParameters(text: "jpg", limit: 2, cursor: page.cursor))
            #expect(names(rest.assets) == ["beach.jpg"])
            #expect(rest.cursor == nil)
            let hidden = await refusal { try await app.search(SearchParameters(text: "cafe", group: "Café Crème")) }
            let unknown = await refusal { try await app.search(SearchParameters(text: "cafe", group: "Café Crèmf")) }
            #expect(hidden?.name == LibraryInterface.Error.groupNotFound)
            #expect(unknown?.name == hidden?.name)
            for client in [owner, app] { await client.close() }
        }
    }

    @Test func listingsKeepTheDaysTheCameraWroteInEitherOrderPageByPage() async throws {
        try await TestDaemon.withDaemon(prepare: Self.prepare) { daemon in
            let client = try await daemon.client()
            // hike.jpg was taken at 23:30 on 5 June where it was (-07:00): that is its day.
            let june5 = try await client.allAssets(group: nil, since: "2021-06-05", until: "2021-06-05")
            #expect(names(june5) == ["hike.jpg"])
            let since = try await client.allAssets(group: nil, since: "2020-08-02")
            #expect(names(since) == ["été.jpg", "late.jpg", "hike.jpg"], "in taken order: hike.jpg is the later instant")
            let until = try await client.allAssets(group: nil, until: "2019-05-02T07:59")
            #expect(names(until) == ["cafe1.jpg"])
            let minute = try await client.allAssets(group: nil, since: "2019-05-02T08:00", until: "2019-05-02T08:00")
            #expect(names(minute) == ["cafe2.jpg"], "until names a minute: all of it")
            let newest = try await client.allAssets(group: nil, reverse: true)
            #expect(names(newest) == ["hike.jpg", "late.jpg", "été.jpg", "beach.jpg", "cafe2.jpg", "cafe1.jpg"])
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await client.listAssets(ListAssetsParameters(
                    limit: 2, cursor: cursor, since: "2019-05-02", until: "2021-06-05", reverse: true))
                seen += names(page.assets)
                cursor = page.cursor
            } while cursor != nil
            #expect(seen == ["hike.jpg", "été.jpg", "beach.jpg", "cafe2.jpg"])
            let byPath = try await client.allAssets(group: nil, sort: .path, since: "2020-01-01", reverse: true)
            #expect(names(byPath) == ["late.jpg", "hike.jpg", "été.jpg", "beach.jpg"])
            await client.close()
        }
    }

    @Test func badDatesAndCursorsOfTheOtherDirectionAreRefused() async throws {
        try await TestDaemon.withDaemon(prepare: Self.prepare) { daemon in
            let client = try await daemon.client()
            for (since, until, parameter) in [("2021-13-01", nil, "since"), ("yesterday", nil, "since"),
                                              (nil, "2021-02-29", "until"), (nil, "2021-06-05T24:00", "until"),
                                              ("2021-06-05", String(repeating: "9", count: 65), "until")] as [(String?, String?, String)] {
                let error = await refusal {
                    try await client.listAssets(ListAssetsParameters(since: since, until: until))
                }
                #expect(error?.name == "org.varlink.service.InvalidParameter")
                #expect(error?.parameters(InvalidParameterError.self)?.parameter == parameter)
            }
            let reversed = try await client.listAssets(ListAssetsParameters(limit: 1, reverse: true)).cursor
            let forward = await refusal { try await client.listAssets(ListAssetsParameters(cursor: reversed)) }
            #expect(forward?.name == LibraryInterface.Error.invalidCursor)
            // A search's cursor is that of the newest-first taken order.
            let searched = try await client.search(SearchParameters(text: "jpg", limit: 1)).cursor
            let next = try await client.listAssets(ListAssetsParameters(limit: 1, cursor: searched, reverse: true))
            #expect(names(next.assets) == ["late.jpg"])
            await client.close()
        }
    }

    @Test func aLimitedAppsListingIsFilteredToo() async throws {
        try await TestDaemon.withDaemon(prepare: Self.prepare) { daemon in
            let owner = try await daemon.client()
            _ = try await owner.decide(app: Self.viewer, status: .limited, groups: ["Café Crème", "café crème"])
            let app = try await daemon.client(as: TestDaemon.app(Self.viewer))
            #expect(names(try await app.allAssets(group: nil, since: "2019-05-02", reverse: true)) == ["cafe2.jpg"])
            #expect(try await app.allAssets(group: nil, since: "2020-01-01").isEmpty)
            for client in [owner, app] { await client.close() }
        }
    }

    @Test func assetsAreFoundByPathAndAHiddenPathIsMissingLikeAnUnknownOne() async throws {
        try await TestDaemon.withDaemon(prepare: Self.prepare) { daemon in
            let owner = try await daemon.client()
            let library = daemon.library
            let beach = library + "/2020/beach.jpg", cafe = library + "/2019/cafe1.jpg"
            let unknown = library + "/2020/nothing.jpg"
            let reply = try await owner.getAssets(ids: ["0000000000000000"], paths: [cafe, unknown, beach])
            #expect(names(reply.assets) == ["cafe1.jpg", "beach.jpg"])
            #expect(reply.missing == ["0000000000000000", unknown])
            let beachID = try #require(reply.assets.last?.id)
            _ = try await owner.decide(app: Self.viewer, status: .limited, assets: [beachID])
            let app = try await daemon.client(as: TestDaemon.app(Self.viewer))
            let limited = try await app.getAssets(ids: [], paths: [cafe, beach, unknown, "relative/beach.jpg"])
            #expect(names(limited.assets) == ["beach.jpg"])
            #expect(limited.missing == [cafe, unknown, "relative/beach.jpg"], "hidden and unknown alike")
            let tooMany = await refusal { try await owner.getAssets(ids: [], paths: Array(repeating: beach, count: 10_001)) }
            #expect(tooMany?.parameters(InvalidParameterError.self)?.parameter == "paths")
            let tooLong = await refusal { try await owner.getAssets(ids: [], paths: ["/" + String(repeating: "a", count: 4096)]) }
            #expect(tooLong?.parameters(InvalidParameterError.self)?.parameter == "paths")
            for client in [owner, app] { await client.close() }
        }
    }
}
