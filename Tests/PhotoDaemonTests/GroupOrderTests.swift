import Testing
@testable import PhotoDaemon

/// Groups listed as people read them (issue 30): case and accents folded first, digits before
/// letters, exact bytes breaking ties, the fallback group last.
struct GroupOrderTests {
    /// A group as the order sees it: a name and a key.
    private struct Named {
        var name: String
        var key: String
    }

    private func order(_ names: [String], fallback: String? = nil) -> [String] {
        var items = names.map { Named(name: $0, key: $0.lowercased() + "|" + $0) }
        if let fallback { items.append(Named(name: fallback, key: "")) }
        return GroupOrder.sorted(items, name: \.name, key: \.key, fallbackKey: "").map(\.name)
    }

    @Test func accentsSitBesideTheirLettersAndBeforeLaterLetters() {
        #expect(order(["Zoo", "Été", "ete", "École", "ecole", "apple", "Banana"])
            == ["apple", "Banana", "ecole", "École", "ete", "Été", "Zoo"])
    }

    @Test func digitsComeBeforeLettersAndCaseDoesNotSplitTheAlphabet() {
        #expect(order(["beach", "2021 Trip", "Alps", "10 years", "alpine"]) == ["10 years", "2021 Trip", "alpine", "Alps", "beach"])
    }

    @Test func namesThatFoldAlikeAreOrderedByTheirBytesWhateverTheInputOrder() {
        let names = ["école", "Ecole", "ECOLE", "ecole", "École"]
        let expected = ["ECOLE", "Ecole", "ecole", "École", "école"]
        #expect(order(names) == expected)
        #expect(order(names.reversed()) == expected)
    }

    @Test func theFallbackGroupStaysLastEvenWhenItsNameSortsFirst() {
        #expect(order(["Zoo", "Beach", "Other"], fallback: "Aaa") == ["Beach", "Other", "Zoo", "Aaa"])
    }

    @Test func foldsKeptBetweenSortsGiveTheSameOrderAsFreshOnes() {
        let names = ["Zoo", "Été", "ete", "École", "ecole", "apple", "Øresund", "oslo"]
        let items = names.map { Named(name: $0, key: $0) }
        let keys = GroupOrder.Keys()
        let fresh = GroupOrder.sorted(items, name: \.name, key: \.key, fallbackKey: "").map(\.name)
        #expect(GroupOrder.sorted(items, name: \.name, key: \.key, fallbackKey: "", keys: keys).map(\.name) == fresh)
        #expect(GroupOrder.sorted(items.reversed(), name: \.name, key: \.key, fallbackKey: "", keys: keys).map(\.name) == fresh)
        #expect(fresh == ["apple", "ecole", "École", "ete", "Été", "Øresund", "oslo", "Zoo"], "Ø reads as o")
    }
}
