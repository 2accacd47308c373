import PhotoAPI
import SafeText

/// A committed change as one line of `photoctl watch`, naming what changed:
/// "[42] added 2019/Trip/IMG_0001.jpg", "[43] 3 added: a.jpg, b.jpg and 1 more; groups
/// changed: Beach". Photos are named by their paths under their root (looked up by id, at most
/// `named` of each kind), removed ones by id as they are gone; the line fits the width given.
struct ChangeLine {
    /// Photos of each kind (added, updated, moved, removed) and groups named at most.
    static let named = 3

    /// Paths of the photos the change names, by id, as looked up (absolute).
    var paths: [String: String] = [:]
    /// The library's roots, whose prefix is left out of a path.
    var roots: [String] = []

    /// The ids whose paths the line names: the first few added and updated.
    static func idsToLookUp(_ change: Change) -> [String] {
        Array(change.inserted.prefix(named)) + Array(change.updated.prefix(named))
    }

    /// The line, already escaped, within `width` columns (nil: no limit; names are bounded anyway).
    func text(_ change: Change, width: Int?) -> String {
        let token = "[\(change.token)] "
        if change.resync {
            return SafeText.escaped(token + "resync: photod cannot say what changed; list everything again")
        }
        return BoundedList.fitted(width: width, most: Self.named) { shown in
            var parts = [
                photos(change.inserted.map(pathOrID), verb: "added", shown: shown),
                photos(change.updated.map(pathOrID), verb: "updated", shown: shown),
                photos(change.moved.map { SafeText.escaped(relative($0.to)) }, verb: "moved", shown: shown),
                photos(change.removed.map { SafeText.escaped($0) }, verb: "removed", shown: shown),
            ].compactMap { $0 }
            if parts.isEmpty { parts.append("no photos changed") }
            for (names, fallback, verb) in [(change.groupsChanged, change.fallbackChanged, "changed"),
                                            (change.groupsRemoved, change.fallbackRemoved, "emptied")]
            where !names.isEmpty {
                let labels = GroupLabel.names(names, firstIsFallback: fallback).map { SafeText.escaped($0) }
                parts.append("groups \(verb): " + BoundedList.text(labels, shown: max(shown, 1)))
            }
            return SafeText.escaped(token) + parts.joined(separator: "; ")
        }
    }

    /// "added PATH" for one photo, "3 added: A, B and 1 more" for more; nil for none.
    private func photos(_ names: [String], verb: String, shown: Int) -> String? {
        guard let first = names.first else { return nil }
        if names.count == 1 && shown > 0 { return "\(verb) " + BoundedList.text([first], shown: 1, paths: true) }
        guard shown > 0 else { return "\(names.count) \(verb)" }
        return "\(names.count) \(verb): " + BoundedList.text(names, shown: shown, paths: true)
    }

    /// A photo's path under its root when it was looked up, else its id; escaped.
    private func pathOrID(_ id: String) -> String {
        SafeText.escaped(paths[id].map(relative) ?? id)
    }

    /// `path` without the root it lies in ("2019/Trip/IMG_0001.jpg"); as it is outside every root.
    func relative(_ path: String) -> String {
        for root in roots.sorted(by: { $0.count > $1.count }) {
            let folder = root.hasSuffix("/") ? root : root + "/"
            if path.hasPrefix(folder), path.count > folder.count { return String(path.dropFirst(folder.count)) }
        }
        return path
    }
}
