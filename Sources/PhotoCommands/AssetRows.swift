import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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

    @Flag(name: [.customShort("0"), .customLong("print0")], help: ArgumentHelp(
        "Print only each photo's path, its exact bytes, each followed by a NUL (for xargs -0), as fd and find do."))
    var print0 = false

    func validate() throws {
        if let fields {
            do { _ = try AssetField.parse(fields) } catch { throw ValidationError(error.description) }
        }
        if print0 && (format != .table || fields.map({ $0.trimmingWhitespace().lowercased() != "path" }) ?? false) {
            throw ValidationError("--print0 prints paths alone: leave out --format and --fields (or give --fields path)")
        }
    }

    /// Refuses --print0 with --json, which has its own output: called by the command, which holds both.
    func check(json: Bool) throws {
        if print0 && json { throw ValidationError("--print0 and --json are two outputs: choose one") }
    }

    /// The parsed values, for code that runs with or without ArgumentParser (`QuickCommand`).
    var style: AssetRowStyle { AssetRowStyle(fields: fields, format: format, print0: print0) }

    /// Prints `assets` as `AssetRowStyle.print` does.
    func print(_ assets: [Asset], none: String = "No photos.") {
        style.print(assets, none: none)
    }
}

/// The output formats of photo rows.
enum AssetRowFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    case table, tsv
}

/// Photo rows as tab-separated values, or as NUL-separated paths.
enum AssetRows {
    /// Each asset's path as its exact bytes (`pathBytes` when it is not UTF-8), each followed
    /// by a NUL: a path holds no NUL, so any name, newlines and all, comes through whole.
    static func nulSeparatedPaths(_ assets: [Asset]) -> Data {
        var data = Data()
        for asset in assets {
            data.append(contentsOf: asset.exactPath)
            data.append(0)
        }
        return data
    }

    /// A header line of field names (as `--fields` takes them), then one line per photo;
    /// a missing value is an empty field.
    static func tsv(_ fields: [AssetField], _ assets: [Asset], header: Bool) -> String {
        TSV.text(names: fields.map(\.rawValue), rows: assets.map { asset in fields.map { $0.value(of: asset) } },
                 header: header)
    }
}

extension Asset {
    /// The file's path as its exact bytes: `pathBytes` when photod sent them (the name is not
    /// UTF-8, and `path` has U+FFFD in its place), else `path`.
    var exactPath: [UInt8] {
        pathBytes.flatMap { Data(base64Encoded: $0) }.map(Array.init) ?? Array(path.utf8)
    }
}
