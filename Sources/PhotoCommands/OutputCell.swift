import Foundation
import PhotoAPI
import SafeText

extension Output {
    /// One cell of a table for people: text, or a path's exact bytes, escaped as it is shown.
    enum Cell: ExpressibleByStringLiteral {
        /// Text (from photod, a photo or an app): control and format characters escaped.
        case text(String)
        /// Bytes that need not be UTF-8 (a file name): the ones that are not shown as `\x{FF}`.
        case bytes([UInt8])

        /// A literal is text like any other.
        init(stringLiteral value: String) { self = .text(value) }

        /// A photo's path: its exact bytes when photod sent them (the path is not UTF-8 and
        /// `path` has U+FFFD in their place), else the path.
        static func path(of asset: Asset) -> Cell {
            guard let encoded = asset.pathBytes, let bytes = Data(base64Encoded: encoded) else { return .text(asset.path) }
            return .bytes(Array(bytes))
        }

        /// What the terminal is given.
        var shown: String {
            switch self {
            case .text(let text): SafeText.escaped(text)
            case .bytes(let bytes): SafeText.escaped(bytes: bytes)
            }
        }
    }
}
