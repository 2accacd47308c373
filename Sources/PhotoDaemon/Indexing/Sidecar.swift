import FileSystem
import Store

/// The XMP sidecar of an image: `name.ext.xmp` (darktable, digiKam), else `name.xmp` (Lightroom,
/// Capture One); the suffix in lower or upper case, as tools on other systems write either.
/// A sidecar is never an asset; it only changes its image's description.
enum Sidecar {
    private static let suffix = Array(".xmp".utf8)
    private static let suffixes = [suffix, Array(".XMP".utf8)]

    /// Whether a path names a sidecar rather than a possible image. (Asked of every file a
    /// walk finds: compares in place.)
    static func isSidecar(_ path: [UInt8]) -> Bool {
        guard path.count > suffix.count else { return false }
        let start = path.count - suffix.count
        for (offset, byte) in suffix.enumerated() where lowercased(path[start + offset]) != byte { return false }
        return true
    }

    /// The sidecar paths an image may have, in the order they are preferred.
    static func candidates(for image: [UInt8]) -> [[UInt8]] {
        var paths = suffixes.map { image + $0 }
        if let stem = stem(of: image) { paths += suffixes.map { stem + $0 } }
        return paths
    }

    /// The sidecar path `candidate` (an index into `candidates(for:)`) names for `image`, nil
    /// for an index out of range.
    static func path(candidate: Int, for image: [UInt8]) -> [UInt8]? {
        let paths = candidates(for: image)
        return paths.indices.contains(candidate) ? paths[candidate] : nil
    }

    /// The image paths a sidecar may belong to: `name.ext` exactly for `name.ext.xmp`, or any
    /// `name.*` (found by the caller) for `name.xmp`. Returns (exact image, stem + ".").
    static func images(of sidecar: [UInt8]) -> (exact: [UInt8], stemPrefix: [UInt8]) {
        let base = Array(sidecar.dropLast(suffix.count))
        return (base, base + [UInt8(ascii: ".")])
    }

    /// A signature that changes when the sidecar in effect is another file or was written: 0 for none.
    static func signature(of info: FileInfo, candidate: Int) -> Int64 {
        var hasher = StableHash()
        hasher.mix(info.device)
        hasher.mix(info.inode)
        hasher.mix(UInt64(bitPattern: info.size))
        hasher.mix(UInt64(bitPattern: info.mtimeNs))
        hasher.mix(UInt64(candidate))
        // Positive and never 0 (none) or -1 (unknown).
        return Int64(bitPattern: hasher.value >> 1) | 1
    }

    /// The sidecar in effect for `image` in its folder's listing from a walk (no system calls).
    static func find(for image: [UInt8], in folder: FolderListing) -> (path: [UInt8], signature: Int64)? {
        for (index, path) in candidates(for: image).enumerated() {
            let name = Array(path[((path.lastIndex(of: UInt8(ascii: "/")) ?? -1) + 1)...])
            if let info = folder.file(named: name) { return (path, signature(of: info, candidate: index)) }
        }
        return nil
    }

    /// Whether a listed folder holds any sidecar at all (most hold none: no image there needs a lookup).
    static func any(in folder: FolderListing) -> Bool {
        folder.containsFile { name in isSidecar(name) }
    }

    /// The sidecar in effect for `image`, looked up on disk (live events: one file at a time)
    /// through real folders only; `opener` keeps the image's folder open for all the candidates.
    static func find(for image: [UInt8], opener: SafeOpener = SafeOpener()) -> (path: [UInt8], signature: Int64)? {
        for (index, path) in candidates(for: image).enumerated() {
            if case .success(let info) = opener.linkStatus(path), info.kind == .regular {
                return (path, signature(of: info, candidate: index))
            }
        }
        return nil
    }

    /// The path without its last extension, nil when the file name has none.
    private static func stem(of path: [UInt8]) -> [UInt8]? {
        guard let dot = path.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        let slash = path.lastIndex(of: UInt8(ascii: "/")) ?? -1
        guard dot > slash + 1 else { return nil }  // ".hidden" or no extension
        return Array(path[..<dot])
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }
}

/// FNV-1a over 64-bit words: the same input gives the same signature in every run (Hasher is seeded per process).
struct StableHash {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func mix(_ word: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) {
            value ^= (word >> UInt64(shift)) & 0xFF
            value = value &* 0x0000_0100_0000_01B3
        }
    }
}
