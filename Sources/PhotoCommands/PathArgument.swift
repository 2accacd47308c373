#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PhotoAPI

/// A command-line argument that names a photo by its file rather than its id.
enum PathArgument {
    /// Whether `argument` is a path: it has a `/`, or names a file that exists. Asset ids never
    /// contain a `/`, so `./IMG_1.jpg` is always a path.
    static func isPath(_ argument: String) -> Bool {
        argument.contains("/") || FileManager.default.fileExists(atPath: argument)
    }

    /// `argument` as photod indexes paths: absolute (against `directory`, the working folder),
    /// symlinks resolved when the file or its folder exists, else tidied as `AbsolutePath` does
    /// (`.`, `..`, repeated slashes), so a folder reached through a symlink still finds its photos.
    static func resolve(_ argument: String, in directory: String) -> String {
        let absolute = argument.hasPrefix("/") ? argument : directory + "/" + argument
        if let real = realPath(absolute) { return real }
        let tidied = AbsolutePath.resolve(absolute, against: directory)
        // A file that is gone (but may still be indexed) in a folder that exists.
        // `tidied` is absolute with no trailing slash, so its last "/" parts folder and name.
        if tidied != "/", let slash = tidied.lastIndex(of: "/") {
            let folder = slash == tidied.startIndex ? "/" : String(tidied[..<slash])
            if let real = realPath(folder) {
                return (real == "/" ? "" : real) + "/" + tidied[tidied.index(after: slash)...]
            }
        }
        return tidied
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
