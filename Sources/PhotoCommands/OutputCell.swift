#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoAPI
import SafeText

extension Output {
    /// One cell of a table for people: text, or a path's exact bytes, escaped as it is shown.
    enum Cell: ExpressibleByStringLiteral, Equatable {
        /// Text (from photod, a photo or an app): control and format characters escaped; a cell
        /// too wide for its column loses its end.
        case text(String)
        /// A path, as bytes that need not be UTF-8 (the ones that are not are shown as
        /// `\x{FF}`); a cell too wide for its column loses its folders further up first,
        /// keeping the file name (`Ellipsis.fitPath`).
        case bytes([UInt8])
        /// An app's id ("script:/usr/bin/python3:/home/ann/bin/calendar.sh"): text that, too
        /// wide, loses its middle, keeping its kind and interpreter at the start and its
        /// program's name at the end, which is what tells apps apart.
        case identifier(String)
        /// No value: "-", dimmed on a terminal.
        case missing

        /// A literal is text like any other.
        init(stringLiteral value: String) { self = .text(value) }

        /// Text, or `missing` for nil.
        static func optional(_ text: String?) -> Cell {
            text.map(Cell.text) ?? .missing
        }

        /// A path given as text.
        static func path(_ path: String) -> Cell {
            .bytes(Array(path.utf8))
        }

        /// A photo's path: its exact bytes when photod sent them (the path is not UTF-8 and
        /// `path` has U+FFFD in their place), else the path.
        static func path(of asset: Asset) -> Cell {
            path(asset.path, exact: asset.pathBytes)
        }

        /// A path from photod: `exact` (base64 of its bytes) when present and valid, else `text`.
        static func path(_ text: String, exact: String?) -> Cell {
            guard let exact, let bytes = Data(base64Encoded: exact) else { return path(text) }
            return .bytes(Array(bytes))
        }

        /// What the terminal is given, before any shortening.
        var shown: String {
            switch self {
            case .text(let text), .identifier(let text): SafeText.escaped(text)
            case .bytes(let bytes): SafeText.escaped(bytes: bytes)
            case .missing: "-"
            }
        }

        /// Where text is left out when the cell is too wide.
        var ellipsis: Ellipsis.Position {
            switch self {
            case .bytes: .path
            case .identifier: .middle
            case .text, .missing: .end
            }
        }
    }
}
