import Glibc

/// Where `photod-thumbnailer` is: the configured path, else beside photod (a build folder),
/// else PREFIX/libexec/photod for photod in PREFIX/bin (packaging/install), else
/// /usr/libexec/photod where the package puts it.
enum WorkerLocator {
    static let name = "photod-thumbnailer"
    static let libexec = "/usr/libexec/photod/" + name

    /// The executable, or why there is none (every image request says so).
    static func find(configured: String?) -> Result<String, ImageMakingError> {
        if let configured {
            return isExecutable(configured) ? .success(configured)
                : .failure(.unavailable("thumbnails.worker \(configured) is not an executable file"))
        }
        var candidates: [String] = []
        if let own = ownExecutable(), let slash = own.lastIndex(of: "/") {
            let folder = String(own[..<slash])
            candidates.append(folder + "/" + name)
            if folder.hasSuffix("/bin") { candidates.append(folder.dropLast(4) + "/libexec/photod/" + name) }
        }
        if !candidates.contains(libexec) { candidates.append(libexec) }
        if let found = candidates.first(where: isExecutable) { return .success(found) }
        return .failure(.unavailable("the image worker \(name) is not installed (looked for "
                                     + candidates.joined(separator: " and ") + ")"))
    }

    private static func isExecutable(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }

    /// The running executable's path, from /proc/self/exe.
    private static func ownExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
