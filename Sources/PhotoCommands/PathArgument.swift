#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FileSystem
import PhotoAPI

/// A command-line argument that names a photo by its file rather than its id. Paths are kept
/// as the argument's exact bytes (`RawArguments`): a file name need not be UTF-8.
enum PathArgument {
    /// Whether `argument` is a path: it has a `/`, or names a file that exists. Asset ids never
    /// contain a `/`, so `./IMG_1.jpg` is always a path.
    static func isPath(_ argument: String) -> Bool {
        let bytes = RawArguments.bytes(of: argument)
        var status = stat()
        return bytes.contains(UInt8(ascii: "/")) || stat(cString(bytes), &status) == 0
    }

    /// `argument` as photod indexes paths: absolute (against `directory`, the working folder),
    /// symlinks resolved when the file or its folder exists, else tidied as `AbsolutePath` does
    /// (`.`, `..`, repeated slashes), so a folder reached through a symlink still finds its photos.
    static func resolve(_ argument: String, in directory: String) -> [UInt8] {
        let slash = UInt8(ascii: "/")
        let given = RawArguments.bytes(of: argument)
        let absolute = given.first == slash ? given : Array(directory.utf8) + [slash] + given
        if let real = realPath(absolute) { return real }
        let tidied = tidy(absolute)
        // A file that is gone (but may still be indexed) in a folder that exists.
        if let folder = PathBytes(tidied).parent, let real = realPath(folder.bytes) {
            return (real == [slash] ? [] : real) + [slash] + PathBytes(tidied).lastComponent
        }
        return tidied
    }

    /// `path` (absolute) with `.`, `..`, repeated and trailing slashes taken out by the bytes
    /// alone, as `AbsolutePath.resolve` does for text.
    static func tidy(_ path: [UInt8]) -> [UInt8] {
        let slash = UInt8(ascii: "/")
        var parts: [ArraySlice<UInt8>] = []
        for part in path.split(separator: slash, omittingEmptySubsequences: true) {
            switch Array(part) {
            case [UInt8(ascii: ".")]: continue
            case [UInt8(ascii: "."), UInt8(ascii: ".")]: _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return [slash] + Array(parts.joined(separator: [slash]))
    }

    private static func realPath(_ path: [UInt8]) -> [UInt8]? {
        guard let resolved = realpath(cString(path), nil) else { return nil }
        defer { free(resolved) }
        return Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
    }

    /// `bytes` as a C string; a NUL cannot come from argv, and one from elsewhere ends it early.
    static func cString(_ bytes: [UInt8]) -> [CChar] {
        PathBytes(bytes).cString
    }
}
