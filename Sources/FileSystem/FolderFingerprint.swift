/// What a folder's visible files were, in 16 bytes: their number and the sum of a hash of each
/// one's name, (device, inode), size and modification time. A restart compares each folder's
/// fingerprint with the one recorded when a reconcile last made the index match the folder, and
/// compares no file of a folder whose fingerprint is the same (`FolderCheck`).
///
/// The sum makes it independent of the order files are listed in, so a listing need not be
/// sorted. Each file's hash is mixed to 64 pseudo-random bits first (murmur3's finaliser), so a
/// change to any file, or a file added, removed or renamed, changes the sum but with a chance of
/// one in 2^64; the count guards the rest.
public struct FolderFingerprint: Sendable, Equatable {
    /// The sum of the files' hashes, wrapping.
    public private(set) var sum: UInt64 = 0
    /// How many files were added.
    public private(set) var files: Int64 = 0

    /// An empty fingerprint: a folder without files.
    public init() {}

    /// A fingerprint as `bytes` stored it (nil unless 16 bytes).
    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        for index in 0..<8 {
            sum |= UInt64(bytes[index]) << UInt64(8 * index)
            files |= Int64(bytes[8 + index]) << Int64(8 * index)
        }
    }

    /// The 16 bytes to store: the sum, then the count, each little-endian.
    public var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for index in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: sum >> UInt64(8 * index))) }
        for index in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: files >> Int64(8 * index))) }
        return bytes
    }

    /// Adds the regular file `name` with status `info`; `seed` stands for what else decides how
    /// a file is read (the description sources), so a change to it changes every fingerprint.
    public mutating func add(name: [UInt8], info: FileInfo, seed: UInt64) {
        var hash = seed ^ 0xCBF2_9CE4_8422_2325
        for byte in name {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        // One word at a time, not through an array: this runs for every file of a restart.
        hash = Self.mixed(hash ^ info.device) &* 0x9E37_79B9_7F4A_7C15
        hash = Self.mixed(hash ^ info.inode) &* 0x9E37_79B9_7F4A_7C15
        hash = Self.mixed(hash ^ UInt64(bitPattern: info.size)) &* 0x9E37_79B9_7F4A_7C15
        hash = Self.mixed(hash ^ UInt64(bitPattern: info.mtimeNs)) &* 0x9E37_79B9_7F4A_7C15
        sum = sum &+ Self.mixed(hash)
        files += 1
    }

    /// murmur3's 64-bit finaliser: every input bit flips each output bit with a chance of about a half.
    private static func mixed(_ value: UInt64) -> UInt64 {
        var value = value
        value ^= value >> 33
        value = value &* 0xFF51_AFD7_ED55_8CCD
        value ^= value >> 33
        value = value &* 0xC4CE_B9FE_1A85_EC53
        value ^= value >> 33
        return value
    }
}

extension FolderListing {
    /// The folder's path with its trailing "/", as the index keys folders.
    public var folderPrefix: PathBytes { prefix }

    /// The fingerprint of the folder's visible regular files as listed (sidecars included: a
    /// sidecar written changes its image's description). Nil when they were not stat-ed.
    public func fingerprint(seed: UInt64) -> FolderFingerprint? {
        var fingerprint = FolderFingerprint()
        for child in children {
            guard let info = child.info else { continue }
            guard info != .unstated, info != .unchangedFolder else { return nil }
            fingerprint.add(name: child.name, info: info, seed: seed)
        }
        return fingerprint
    }
}
