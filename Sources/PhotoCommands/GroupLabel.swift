import PhotoAPI
import PhotoClient

/// How photoctl shows a group's name, and reads its own label back from a command line.
///
/// The fallback group is shown as "Other (no description)", so it is never mistaken for the
/// group of photos described "Other"; every command that takes a group takes that label too.
enum GroupLabel {
    /// What follows the fallback group's name in its label.
    static let fallbackSuffix = " (no description)"

    /// The label `groups` prints for a group.
    static func text(_ group: Group) -> String {
        text(name: group.name, fallback: group.fallback)
    }

    /// The label of the group with this name, the fallback group or another.
    static func text(name: String, fallback: Bool) -> String {
        fallback ? name + fallbackSuffix : name
    }

    /// The fallback group's name when `label` is written as its label, else nil.
    static func fallbackName(in label: String) -> String? {
        guard label.hasSuffix(fallbackSuffix), label.count > fallbackSuffix.count else { return nil }
        return String(label.dropLast(fallbackSuffix.count))
    }

    /// Calls `list` with the group a command line names: as `ListAssets` takes it, `group` and
    /// `fallback`. Written as the fallback group's label, it is the fallback group, unless
    /// that has another name and a group of that very description exists.
    static func resolving<T>(_ group: String?, _ list: (String?, Bool?) async throws -> T) async throws -> T {
        guard let group, let name = fallbackName(in: group) else { return try await list(group, nil) }
        do {
            return try await list(name, true)
        } catch PhotoClientError.daemon(let error) where error.name == LibraryInterface.Error.groupNotFound {
            return try await list(group, nil)
        }
    }

    /// A change's group names, the fallback group's (the first, when the change says so) labelled.
    static func names(_ names: [String], firstIsFallback: Bool?) -> [String] {
        guard firstIsFallback == true, let first = names.first else { return names }
        return [text(name: first, fallback: true)] + names.dropFirst()
    }
}
