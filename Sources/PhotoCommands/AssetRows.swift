import ArgumentParser
import PhotoAPI

/// How a command that prints photos one per row shows them: which fields, as a table for
/// people or as tab-separated values for scripts. `list` and `find` take these options and
/// print through `print(_:)`, so their rows look the same.
struct AssetRowOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Columns to show, comma-separated, from: \(AssetField.names) (default: id,group,taken,path).",
        valueName: "fields"))
    var fields: String?

    @Option(name: .long, help: ArgumentHelp(
        "table: aligned columns for people; tsv: a header line (unless --no-legend), then one line per photo, "
            + "fields separated by tabs, with tab, newline and backslash in a value as \\t, \\n and \\\\.",
        valueName: "format"))
    var format: AssetRowFormat = .table

    func validate() throws {
        if let fields {
            do { _ = try AssetField.parse(fields) } catch { throw ValidationError(error.description) }
        }
    }

    /// The fields to show, in order.
    var chosen: [AssetField] {
        fields.flatMap { try? AssetField.parse($0) } ?? AssetField.defaults
    }

    /// Prints `assets` in the chosen fields and format (the caller prints JSON itself). With no
    /// photos, a table for people is `none` instead of a lone header (unless --no-legend); tsv
    /// stays a header alone, for scripts.
    func print(_ assets: [Asset], none: String = "No photos.") {
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

/// The output formats of photo rows.
enum AssetRowFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    case table, tsv
}

/// Photo rows as tab-separated values.
enum AssetRows {
    /// A header line of field names (as `--fields` takes them), then one line per photo;
    /// a missing value is an empty field.
    static func tsv(_ fields: [AssetField], _ assets: [Asset], header: Bool) -> String {
        TSV.text(names: fields.map(\.rawValue), rows: assets.map { asset in fields.map { $0.value(of: asset) } },
                 header: header)
    }
}
