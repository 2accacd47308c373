import Store
import TextFolding

/// The order groups are listed in: as people read names, not by code point, so "Été" sits
/// beside "ete" and before "Zoo" rather than after every ASCII name.
///
/// The primary key is the name folded (`TextFolding`: case and accents dropped, as search
/// compares), compared by its scalars, so digits come before letters and an accented letter
/// falls beside its base letter. Names that fold alike are ordered by their exact UTF-8 bytes,
/// then by key, so the order is total and the same on every call. The fallback group comes last:
/// it is what is left over, not a topic.
enum GroupOrder {
    /// `groups` in reading order, the fallback group (`fallbackKey`) last.
    static func sorted(_ groups: [StoredGroup], fallbackKey: String) -> [StoredGroup] {
        sorted(groups, name: \.name, key: \.key, fallbackKey: fallbackKey)
    }

    /// `items` in reading order of their `name`, the one whose `key` is `fallbackKey` last. Each
    /// name is folded once, not once per comparison: a few hundred groups cost a few hundred folds.
    static func sorted<Item>(_ items: [Item], name: KeyPath<Item, String>, key: KeyPath<Item, String>,
                             fallbackKey: String) -> [Item] {
        let keyed = items.map { item in
            (item: item, name: item[keyPath: name], key: item[keyPath: key],
             folded: Array(TextFolding.fold(item[keyPath: name]).unicodeScalars))
        }
        return keyed.sorted { left, right in
            let (leftFallback, rightFallback) = (left.key == fallbackKey, right.key == fallbackKey)
            if leftFallback != rightFallback { return rightFallback }
            if left.folded != right.folded { return left.folded.lexicographicallyPrecedes(right.folded) }
            if left.name != right.name { return left.name.utf8.lexicographicallyPrecedes(right.name.utf8) }
            return left.key.utf8.lexicographicallyPrecedes(right.key.utf8)
        }.map(\.item)
    }
}
