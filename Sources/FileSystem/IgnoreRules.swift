/// The files and folders a library leaves out (`[library] ignore`): never indexed, never walked
/// or watched, their live events dropped. Matched with fnmatch(3), see `IgnorePattern`.
public struct IgnoreRules: Sendable, Equatable {
    /// The patterns, in the order written.
    public let patterns: [IgnorePattern]

    /// The patterns photod ignores when the config names none: ExifTool's backups
    /// (`NAME_original`, left beside a photo it edited), never a photo a person took.
    public static let defaultPatterns = ["*_original"]
    /// The most patterns a config may list: each is tried on every file a walk finds.
    public static let maxPatterns = 256

    /// No pattern: nothing is ignored.
    public static let none = IgnoreRules(checked: [])

    /// The default patterns.
    public static let defaults: IgnoreRules = {
        do {
            return try IgnoreRules(defaultPatterns)
        } catch {
            // The defaults are constants this module's tests check; refusing them is a bug.
            preconditionFailure("the default ignore patterns do not parse: \(error)")
        }
    }()

    /// Checks and keeps `texts`; the first that is not a pattern is the error.
    public init(_ texts: [String]) throws(IgnorePatternError) {
        var patterns: [IgnorePattern] = []
        for text in texts { patterns.append(try IgnorePattern(text)) }
        self.init(checked: patterns)
    }

    private init(checked: [IgnorePattern]) {
        patterns = checked
    }

    /// Whether there is nothing to ignore.
    public var isEmpty: Bool { patterns.isEmpty }

    /// Whether the entry `name`, in the folder whose path from the root is `folder` (empty at the
    /// root, else ending in "/"), is ignored.
    public func ignores(name: [UInt8], inFolder folder: ArraySlice<UInt8>, isFolder: Bool) -> Bool {
        guard !patterns.isEmpty else { return false }
        // Built only when an anchored pattern asks, once: names alone decide most entries.
        var relative: [UInt8]?
        let path = {
            if let relative { return relative }
            let made = Array(folder) + name
            relative = made
            return made
        }
        return patterns.contains { $0.matches(name: name, relative: path, isFolder: isFolder) }
    }

    /// Whether `path`, at or inside the library root `root`, is ignored: itself, or a folder it
    /// is in, below the root (the root and the folders above it are never matched).
    /// `isFolder`: whether `path` itself is a folder.
    public func ignores(_ path: PathBytes, under root: PathBytes, isFolder: Bool) -> Bool {
        guard !patterns.isEmpty, path.isInside(root) else { return false }
        let start = root.folderPrefix.bytes.count
        let relative = path.bytes[start...]
        let components = relative.split(separator: UInt8(ascii: "/"))
        var folder = relative[relative.startIndex..<relative.startIndex]
        for (index, component) in components.enumerated() {
            let last = index == components.count - 1
            if ignores(name: Array(component), inFolder: folder, isFolder: last ? isFolder : true) { return true }
            folder = relative[relative.startIndex..<min(component.endIndex + 1, relative.endIndex)]
        }
        return false
    }
}
