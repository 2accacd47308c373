import PhotoAPI

/// The values of `AssetRowOptions` as plain data: which fields, in which format.
struct AssetRowStyle: Sendable {
    var fields: String?
    var format: AssetRowFormat = .table
    var print0 = false

    /// The fields to show, in order.
    var chosen: [AssetField] {
        fields.flatMap { try? AssetField.parse($0) } ?? AssetField.defaults
    }

    /// Prints `assets` in the chosen fields and format (the caller prints JSON itself). With no
    /// photos, a table for people is `none` instead of a lone header (unless --no-legend); tsv
    /// stays a header alone, for scripts.
    func print(_ assets: [Asset], none: String = "No photos.") {
        if print0 { return Output.bytes(AssetRows.nulSeparatedPaths(assets)) }
        let fields = chosen
        switch format {
        case .table where assets.isEmpty:
            if Output.style.legend { Output.line(none) }
        case .table:
            Output.table(fields.map(\.column), assets.map { asset in fields.map { $0.cell(of: asset) } })
        case .tsv:
            Output.data(AssetRows.tsv(fields, assets, header: Output.style.legend))
        }
    }
}
