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
    static func isSidecar(_ path: PathBytes) -> Bool {
        isSidecar(name: path.bytes)
    }

    /// Whether a file name (or a path's bytes: the suffix is all that counts) is a sidecar's.
    static func isSidecar(name: [UInt8]) -> Bool {
        guard name.count > suffix.count else { return false }
        let start = name.count - suffix.count
        for (offset, byte) in suffix.enumerated() where lowercased(name[start + offset]) != byte { return false }
        return true
    }

    /// The sidecar paths an image may have, in the order they are preferred.
    static func candidates(for image: PathBytes) -> [PathBytes] {
        var paths = suffixes.map { image.appendingToName($0) }
        if let stem = image.withoutExtension { paths += suffixes.map { stem.appendingToName($0) } }
        return paths
    }

    /// The sidecar path `candidate` (an index into `candidates(for:)`) names for `image`, nil
    /// for an index out of range.
    static func path(candidate: Int, for image: PathBytes) -> PathBytes? {
        let paths = candidates(for: image)
        return paths.indices.contains(candidate) ? paths[candidate] : nil
    }

    /// The image paths a sidecar may belong to: `name.ext` exactly for `name.ext.xmp`, or any
    /// `name.*` (found by the caller) for `name.xmp`. Returns (exact image, stem + ".").
    static func images(of sidecar: PathBytes) -> (exact: PathBytes, stemPrefix: PathBytes) {
        let base = PathBytes(Array(sidecar.bytes.dropLast(suffix.count)))
        return (base, base.appendingToName([UInt8(ascii: ".")]))
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
    static func find(for image: PathBytes, in folder: FolderListing) -> (path: PathBytes, signature: Int64)? {
        for (index, path) in candidates(for: image).enumerated() {
            if let info = folder.file(named: path.lastComponent) { return (path, signature(of: info, candidate: index)) }
        }
        return nil
    }

    /// Whether a listed folder holds any sidecar at all (most hold none: no image there needs a lookup).
    static func any(in folder: FolderListing) -> Bool {
        folder.containsFile { name in isSidecar(name: name) }
    }

    /// The sidecar in effect for `image`, looked up on disk (live events: one file at a time)
    /// through real folders only; `opener` keeps the image's folder open for all the candidates.
    static func find(for image: PathBytes, opener: SafeOpener = SafeOpener()) -> (path: PathBytes, signature: Int64)? {
        for (index, path) in candidates(for: image).enumerated() {
            if case .success(let info) = opener.linkStatus(path), info.kind == .regular {
                return (path, signature(of: info, candidate: index))
            }
        }
        return nil
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
