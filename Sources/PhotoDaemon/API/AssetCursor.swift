#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FileSystem
import PhotoAPI
import Store

/// The opaque `ListAssets` cursor: where the last page ended, for which listing.
///
/// It carries the sort, direction and group it was made for, so a cursor replayed against
/// another listing is refused instead of silently skipping or repeating assets. (`Search`
/// pages newest first by taken time, so its cursors are those of that listing.)
struct AssetCursor: Codable, Equatable {
    var version = 1
    var sort: String
    var group: String?
    var integer: Int64?
    var bytes: String?
    var id: String
    /// True for a reversed listing; absent otherwise, so cursors from before it stay valid.
    var reverse: Bool?

    init(sort: StoreSort, reverse: Bool = false, groupKey: String?, position: StorePosition) {
        self.sort = sort.rawValue
        self.reverse = reverse ? true : nil
        group = groupKey
        id = position.id
        switch position.value {
        case .integer(let value): integer = value
        case .path(let value): bytes = Data(value.bytes).base64EncodedString()
        }
    }

    /// The position after `asset` in `sort` order.
    static func position(after asset: StoredAsset, sort: StoreSort) -> StorePosition {
        switch sort {
        case .taken: return StorePosition(value: .integer(asset.content.takenNs ?? asset.stamp.mtimeNs), id: asset.id)
        case .modified: return StorePosition(value: .integer(asset.stamp.mtimeNs), id: asset.id)
        case .path: return StorePosition(value: .path(asset.path), id: asset.id)
        }
    }

    var encoded: String {
        let json = (try? JSONEncoder().encode(self)) ?? Data()
        return json.base64EncodedString()
            .replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
    }

    /// Decodes `text` and checks it belongs to this listing; nil when it does not.
    static func decode(_ text: String, sort: StoreSort, reverse: Bool = false, groupKey: String?) -> StorePosition? {
        var base64 = text.replacing("-", with: "+").replacing("_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
              let cursor = try? JSONDecoder().decode(AssetCursor.self, from: data),
              cursor.version == 1, cursor.sort == sort.rawValue, cursor.group == groupKey,
              (cursor.reverse ?? false) == reverse
        else { return nil }
        switch sort {
        case .taken, .modified:
            guard let integer = cursor.integer else { return nil }
            return StorePosition(value: .integer(integer), id: cursor.id)
        case .path:
            guard let encoded = cursor.bytes, let bytes = Data(base64Encoded: encoded) else { return nil }
            return StorePosition(value: .path(PathBytes(Array(bytes))), id: cursor.id)
        }
    }
}
