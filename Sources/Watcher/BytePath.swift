/// Small operations on absolute byte paths, as the decoder and the watch set need them.
enum BytePath {
    private static let slash = UInt8(ascii: "/")

    /// `folder` + "/" + `name`, without doubling a trailing slash.
    static func join(_ folder: [UInt8], _ name: [UInt8]) -> [UInt8] {
        var path = folder
        if path.last != slash { path.append(slash) }
        path += name
        return path
    }

    /// Whether a file name is hidden ("." prefix): outside the library.
    static func isHidden(_ name: [UInt8]) -> Bool {
        name.first == UInt8(ascii: ".")
    }

    /// The folder holding `path`, or nil for "/" and relative names.
    static func parent(of path: [UInt8]) -> [UInt8]? {
        var end = path.endIndex
        while end > path.startIndex + 1, path[end - 1] == slash { end -= 1 }  // ignore trailing slashes
        guard end > path.startIndex + 1, let cut = path[..<end].lastIndex(of: slash) else { return nil }
        return cut == path.startIndex ? [slash] : Array(path[..<cut])
    }

    /// Whether `path` is `folder` or lies below it (a "/" boundary, so "/a/bc" is not under "/a/b").
    static func isSameOrUnder(_ path: [UInt8], _ folder: [UInt8]) -> Bool {
        guard path.count >= folder.count, path.starts(with: folder) else { return false }
        if path.count == folder.count || folder.last == slash { return true }
        return path[folder.count] == slash
    }

    /// `path` (at or below `from`) moved to the same place below `to`.
    static func rebase(_ path: [UInt8], from: [UInt8], to: [UInt8]) -> [UInt8] {
        guard path.count > from.count else { return to }
        var suffix = Array(path[from.count...])
        if from.last == slash, to.last != slash { suffix.insert(slash, at: 0) }
        if to.last == slash, suffix.first == slash { suffix.removeFirst() }
        return to + suffix
    }
}
