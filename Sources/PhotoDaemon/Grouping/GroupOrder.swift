import Store
import Synchronization
import TextFolding

/// The order groups are listed in: as people read names, not by code point, so "Été" sits
/// beside "ete" and before "Zoo" rather than after every ASCII name.
///
/// The primary key is the name folded (`TextFolding`: case and accents dropped, as search
/// compares), compared by its UTF-8 bytes (code point order), so digits come before letters
/// and an accented letter falls beside its base letter. Names that fold alike are ordered by
/// their exact UTF-8 bytes, then by key, so the order is total and the same on every call. The
/// fallback group comes last: it is what is left over, not a topic.
///
/// A fold costs a few microseconds for a name past ASCII, many times a comparison: each name is
/// folded once per sort, not per comparison, and the folds are kept between sorts (`Keys`), so a
/// `ListGroups` of a few hundred groups sorts them in tens of microseconds.
enum GroupOrder {
    /// `groups` in reading order, the fallback group (`fallbackKey`) last; folds from `keys`.
    static func sorted(_ groups: [StoredGroup], fallbackKey: String, keys: Keys) -> [StoredGroup] {
        sorted(groups, name: \.name, key: \.key, fallbackKey: fallbackKey, keys: keys)
    }

    /// `items` in reading order of their `name`, the one whose `key` is `fallbackKey` last.
    static func sorted<Item>(_ items: [Item], name: KeyPath<Item, String>, key: KeyPath<Item, String>,
                             fallbackKey: String, keys: Keys = Keys()) -> [Item] {
        let names = items.map { $0[keyPath: name] }
        let itemKeys = items.map { $0[keyPath: key] }
        let folded = keys.folded(names)
        let fallback = itemKeys.map { $0 == fallbackKey }
        // Positions are sorted, not the items: moving those would retain and release their
        // strings at every swap. The exact bytes are compared only between names that fold alike.
        let order = items.indices.sorted { left, right in
            if fallback[left] != fallback[right] { return fallback[right] }
            if folded[left] != folded[right] { return folded[left].lexicographicallyPrecedes(folded[right]) }
            let (leftName, rightName) = (names[left].utf8, names[right].utf8)
            if !leftName.elementsEqual(rightName) { return leftName.lexicographicallyPrecedes(rightName) }
            return itemKeys[left].utf8.lexicographicallyPrecedes(itemKeys[right].utf8)
        }
        return order.map { items[$0] }
    }

    /// Folded names past ASCII kept between sorts (an ASCII name folds faster than it is looked
    /// up): a library's group names change seldom. Bounded: past `limit` names it starts afresh,
    /// so names that come and go cannot grow it without end.
    final class Keys: Sendable {
        private let folds = Mutex<[ExactName: [UInt8]]>([:])
        /// The most names kept.
        static let limit = 20_000

        /// Creates an empty store of folds.
        init() {}

        /// Each of `names` folded (`TextFolding.foldedUTF8`); the lock is taken at most twice a
        /// call, not once a name, and no fold runs under it.
        func folded(_ names: [String]) -> [[UInt8]] {
            let ascii = names.map { $0.utf8.allSatisfy { $0 < 0x80 } }
            var result = names.map { _ in [UInt8]() }
            if ascii.contains(false) {
                folds.withLock { folds in
                    for index in names.indices where !ascii[index] { result[index] = folds[ExactName(text: names[index])] ?? [] }
                }
            }
            var made: [(String, [UInt8])] = []
            for index in names.indices where result[index].isEmpty {
                result[index] = TextFolding.foldedUTF8(names[index])
                if !ascii[index] { made.append((names[index], result[index])) }
            }
            guard !made.isEmpty else { return result }
            folds.withLock { folds in
                if folds.count + made.count > Self.limit { folds.removeAll(keepingCapacity: true) }
                for (name, folded) in made { folds[ExactName(text: name)] = folded }
            }
            return result
        }
    }

    /// A name hashed and compared by its UTF-8 bytes: a `String` key hashes its text normalized,
    /// which for a name past ASCII costs more than the fold it would save.
    struct ExactName: Hashable, Sendable {
        let text: String

        func hash(into hasher: inout Hasher) {
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }

        static func == (lhs: ExactName, rhs: ExactName) -> Bool { lhs.text.utf8.elementsEqual(rhs.text.utf8) }
    }
}
