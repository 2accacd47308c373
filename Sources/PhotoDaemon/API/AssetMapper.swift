#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FileSystem
import PhotoAPI
import Store

/// Turns stored rows into wire values.
struct AssetMapper: Sendable {
    let rules: GroupingRules
    /// Which roots are offline, to mark their assets; nil marks none.
    var volumes: RootVolumes?

    func asset(_ stored: StoredAsset) -> Asset {
        let content = stored.content
        let path = Self.wirePath(stored.path)
        let sidecar = Self.sidecarPath(of: stored).map(Self.wirePath)
        return Asset(
            id: stored.id,
            path: path.text,
            pathBytes: path.bytes,
            group: stored.groupName,
            fallback: content.groupKey == rules.fallbackKey,
            description: content.description,
            descriptionSource: content.descriptionSource.flatMap(DescriptionSource.init(rawValue:)),
            format: content.format,
            taken: content.taken,
            width: content.width,
            height: content.height,
            orientation: content.orientation,
            make: content.make,
            model: content.model,
            size: Int(stored.stamp.size),
            modified: ISOTime.utcString(nanoseconds: stored.stamp.mtimeNs),
            sidecar: sidecar?.text,
            sidecarBytes: sidecar?.bytes,
            offline: volumes?.isOffline(stored.path) == true ? true : nil)
    }

    /// The sidecar an asset's description came from: the name the reader found it under,
    /// applied to the asset's path now (no file is looked at while replying).
    static func sidecarPath(of stored: StoredAsset) -> PathBytes? {
        guard stored.content.descriptionSource == DescriptionSource.sidecar.rawValue,
              let candidate = stored.content.sidecarCandidate else { return nil }
        return Sidecar.path(candidate: candidate, for: stored.path)
    }

    /// A path as the wire carries it: UTF-8 text (U+FFFD for invalid bytes), and base64 of the
    /// exact bytes only when the text cannot hold them.
    static func wirePath(_ path: PathBytes) -> (text: String, bytes: String?) {
        wireName(path.bytes)
    }

    /// A name (one path component) as the wire carries it, as `wirePath` carries a path.
    static func wireName(_ bytes: [UInt8]) -> (text: String, bytes: String?) {
        (String(decoding: bytes, as: UTF8.self), isValidUTF8(bytes) ? nil : Data(bytes).base64EncodedString())
    }

    func group(_ stored: StoredGroup) -> Group {
        Group(
            name: stored.name,
            count: stored.count,
            fallback: stored.key == rules.fallbackKey,
            latest: stored.latestTaken ?? stored.latestMtimeNs.map(ISOTime.utcString(nanoseconds:)),
            // The newest asset's capture time when it records one, else its file's time.
            latestSource: stored.latestTaken != nil ? .taken : stored.latestMtimeNs != nil ? .modified : nil)
    }

    func change(_ committed: CommittedChange) -> Change {
        Change(
            token: Int(committed.token),
            inserted: committed.inserted,
            removed: committed.removed,
            updated: committed.updated,
            moved: committed.moved.map {
                Move(id: $0.id, from: $0.from.description, to: $0.to.description)
            },
            groupsChanged: committed.groupsChanged,
            groupsRemoved: committed.groupsRemoved,
            fallbackChanged: committed.fallbackChanged,
            fallbackRemoved: committed.fallbackRemoved)
    }

    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }
}
