import PhotoAPI
import SafeText

/// The fields of a photo that `list` (and every command printing photo rows) can show as
/// columns: `--fields id,group,taken,path`. Each has a title, a cell for people (sizes and
/// times as people read them) and a value for scripts (exact numbers, ISO 8601 times).
enum AssetField: String, CaseIterable, Sendable {
    case id, path, group, description, source, format, taken, width, height, size, modified, make, model
    case orientation, sidecar

    /// The columns `list` shows when not told.
    static let defaults: [AssetField] = [.id, .group, .taken, .path]

    /// Every field name, for messages: "id, path, group, …".
    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The fields named in a comma-separated list, in its order; throws naming the unknown
    /// ones and the valid ones.
    static func parse(_ list: String) throws(AssetFieldError) -> [AssetField] {
        let names = list.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingWhitespace().lowercased() }
        let unknown = names.filter { AssetField(rawValue: $0) == nil }
        guard unknown.isEmpty else { throw AssetFieldError(unknown: unknown) }
        return names.compactMap(AssetField.init(rawValue:))
    }

    /// The column this field is shown in.
    var column: Output.Column {
        switch self {
        case .path, .sidecar:
            // What tells photos apart: the free text beside it gives way first.
            Output.Column(title, flexible: true, shrinksLast: true)
        case .group, .description, .make, .model:
            Output.Column(title, flexible: true)
        case .width, .height, .size:
            Output.Column(title, flexible: false, alignRight: true)
        case .id, .source, .format, .taken, .modified, .orientation:
            Output.Column(title, flexible: false)
        }
    }

    /// The column's title: the field's name in capitals.
    var title: String { rawValue.uppercased() }

    /// The field of `asset` for people.
    func cell(of asset: Asset) -> Output.Cell {
        switch self {
        case .id: .text(asset.id)
        case .path: .path(of: asset)
        case .group: .text(GroupLabel.text(name: asset.group, fallback: asset.fallback ?? false))
        case .description: .optional(asset.description)
        case .source: .optional(asset.descriptionSource.map(HumanFormat.source))
        case .format: .text(asset.format)
        case .taken: .optional(asset.taken.map(HumanFormat.taken))
        case .width: .optional(asset.width.map(String.init))
        case .height: .optional(asset.height.map(String.init))
        case .size: .text(HumanFormat.size(asset.size))
        case .modified: .text(HumanFormat.localTime(asset.modified))
        case .make: .optional(asset.make)
        case .model: .optional(asset.model)
        case .orientation: .optional(asset.orientation.map(HumanFormat.orientation))
        case .sidecar: asset.sidecar.map { .path($0, exact: asset.sidecarBytes) } ?? .missing
        }
    }

    /// The field of `asset` for scripts, unescaped: the wire's values (bytes, ISO 8601, the
    /// source's and orientation's codes), nil when the photo has none.
    func value(of asset: Asset) -> Value? {
        switch self {
        case .id: .text(asset.id)
        case .path: Output.Cell.path(of: asset).value
        case .group: .text(asset.group)
        case .description: asset.description.map(Value.text)
        case .source: asset.descriptionSource.map { .text($0.rawValue) }
        case .format: .text(asset.format)
        case .taken: asset.taken.map(Value.text)
        case .width: asset.width.map { .text(String($0)) }
        case .height: asset.height.map { .text(String($0)) }
        case .size: .text(String(asset.size))
        case .modified: .text(asset.modified)
        case .make: asset.make.map(Value.text)
        case .model: asset.model.map(Value.text)
        case .orientation: asset.orientation.map { .text(String($0)) }
        case .sidecar: asset.sidecar.flatMap { Output.Cell.path($0, exact: asset.sidecarBytes).value }
        }
    }

    /// A raw field value: text, or a path's bytes.
    typealias Value = TSV.Value
}

extension Output.Cell {
    /// The cell's raw value, nil for a missing one.
    var value: AssetField.Value? {
        switch self {
        case .text(let text), .identifier(let text): .text(text)
        case .bytes(let bytes): .bytes(bytes)
        case .missing: nil
        }
    }
}

/// `--fields` named fields that do not exist.
struct AssetFieldError: Error, CustomStringConvertible {
    let unknown: [String]

    var description: String {
        let quoted = unknown.map { "\"\($0)\"" }.joined(separator: ", ")
        return "unknown field\(unknown.count == 1 ? "" : "s") \(quoted); valid fields: \(AssetField.names)"
    }
}
