#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FileSystem

/// One line of /proc/self/mountinfo: a mounted file system and where it is.
struct MountEntry: Sendable, Equatable {
    var mountID: Int
    var parentID: Int
    var major: UInt32
    var minor: UInt32
    /// Where the mount point is, as the process sees it (octal escapes decoded).
    var mountPoint: PathBytes
    var fsType: String
    /// The device or server mounted ("/dev/sdb1", "tmpfs", "host:/export").
    var source: String
}

/// The mounts this process sees, in the kernel's order (a mount listed later is on top of one
/// at the same place).
struct MountTable: Sendable, Equatable {
    var entries: [MountEntry]

    /// The file photod reads: its own mount namespace's table.
    static let path = "/proc/self/mountinfo"

    /// The table as /proc/self/mountinfo says now; empty when it cannot be read (no /proc),
    /// in which case decisions rest on device numbers alone.
    static func read() -> (table: MountTable, text: [UInt8]) {
        let text = (try? Data(contentsOf: URL(fileURLWithPath: path))).map { [UInt8]($0) } ?? []
        return (parse(text), text)
    }

    /// Parses mountinfo text; lines that do not have the documented shape are skipped.
    ///
    /// `36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue`:
    /// mount id, parent id, major:minor, root, mount point, options, optional fields up to
    /// "-", then the file system type, the source and the super block's options.
    static func parse(_ text: [UInt8]) -> MountTable {
        var entries: [MountEntry] = []
        for line in text.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
            guard fields.count >= 10, let separator = fields[6...].firstIndex(where: { $0.elementsEqual("-".utf8) }),
                  separator + 2 < fields.count,
                  let mountID = Int(String(decoding: fields[0], as: UTF8.self)),
                  let parentID = Int(String(decoding: fields[1], as: UTF8.self))
            else { continue }
            let numbers = fields[2].split(separator: UInt8(ascii: ":"))
            guard numbers.count == 2, let major = UInt32(String(decoding: numbers[0], as: UTF8.self)),
                  let minor = UInt32(String(decoding: numbers[1], as: UTF8.self))
            else { continue }
            entries.append(MountEntry(
                mountID: mountID, parentID: parentID, major: major, minor: minor, mountPoint: PathBytes(unescape(fields[4])),
                fsType: String(decoding: unescape(fields[separator + 1]), as: UTF8.self),
                source: String(decoding: unescape(fields[separator + 2]), as: UTF8.self)))
        }
        return MountTable(entries: entries)
    }

    /// Decodes the kernel's octal escapes (`\040` for a space, `\012` for a newline...).
    static func unescape(_ field: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(field.count)
        var index = field.startIndex
        while index < field.endIndex {
            let byte = field[index]
            if byte == UInt8(ascii: "\\"), field.endIndex - index >= 4 {
                let digits = field[(index + 1)...(index + 3)]
                if digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "7")).contains($0) }) {
                    let value = digits.reduce(0) { $0 * 8 + Int($1 - UInt8(ascii: "0")) }
                    if value <= 255 {
                        out.append(UInt8(value))
                        index += 4
                        continue
                    }
                }
            }
            out.append(byte)
            index += 1
        }
        return out
    }

    /// The mount `path` is on: the one with the longest mount point at or above it, the last
    /// listed (the one on top) when several are at the same place. Nil for an empty table.
    func covering(_ path: PathBytes) -> MountEntry? {
        var best: MountEntry?
        for entry in entries where path.isSameOrInside(entry.mountPoint) {
            if let current = best, current.mountPoint.bytes.count > entry.mountPoint.bytes.count { continue }
            best = entry
        }
        return best
    }

    /// The mounts strictly inside `folder` (a drive mounted at a folder inside a root).
    func mounts(inside folder: PathBytes) -> [MountEntry] {
        entries.filter { $0.mountPoint.isInside(folder) }
    }

    /// Whether the mount `recorded` names is in the table now: a mount at its mount point
    /// that `MountIdentity.matches`.
    func holds(_ recorded: MountIdentity) -> Bool {
        entries.contains { entry in
            entry.mountPoint == recorded.mountPoint && recorded.matches(entry)
        }
    }
}

/// What identifies the mount a folder's photos were indexed on, as recorded.
struct MountIdentity: Sendable, Equatable {
    var mountID: Int
    var major: UInt32
    var minor: UInt32
    var fsType: String
    var source: String
    var mountPoint: PathBytes

    /// Whether `entry` (at the recorded mount point) can be this file system: the same device
    /// numbers, or the same type: a drive plugged in again may come back as another device
    /// (/dev/sdc1 for /dev/sdb1) under other numbers. mountinfo names no file system uuid, so a
    /// different drive of the same type mounted at the very same place is taken for it.
    func matches(_ entry: MountEntry) -> Bool {
        (entry.major == major && entry.minor == minor) || entry.fsType == fsType
    }

    /// "/dev/sdb1 (ext4) at /media/card", for logs and problems.
    var display: String {
        guard !mountPoint.isEmpty else { return "an unknown file system" }
        return "\(source) (\(fsType)) at \(mountPoint)"
    }
}
