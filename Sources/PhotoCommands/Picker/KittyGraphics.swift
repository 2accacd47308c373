/// The kitty graphics protocol's escape sequences, as text: pure, so tested byte for byte.
///
/// Images are sent once under an id and placed again by id as the cursor comes back to them;
/// `q=2` keeps the terminal from answering each command (answers would arrive as input).
enum KittyGraphics {
    /// Base64 bytes per chunk: the protocol's limit for one escape.
    static let chunkSize = 4096

    /// Sends a PNG (`base64`, as RequestImage delivers it) as image `id` and shows it here,
    /// scaled into `columns` × `rows` cells: `a=T,f=100` in chunks (`m=1` while more follow).
    static func transmit(png base64: String, id: Int, columns: Int, rows: Int) -> String {
        var out = ""
        let bytes = Array(base64.utf8)
        var start = 0
        repeat {
            let end = min(start + chunkSize, bytes.count)
            let more = end < bytes.count ? 1 : 0
            let keys = start == 0 ? "a=T,f=100,t=d,i=\(id),c=\(columns),r=\(rows),C=1,q=2,m=\(more)" : "q=2,m=\(more)"
            out += "\u{1B}_G" + keys + ";" + String(decoding: bytes[start..<end], as: UTF8.self) + "\u{1B}\\"
            start = end
        } while start < bytes.count
        return out
    }

    /// Shows image `id`, sent before, here again.
    static func place(id: Int, columns: Int, rows: Int) -> String {
        "\u{1B}_Ga=p,i=\(id),c=\(columns),r=\(rows),C=1,q=2\u{1B}\\"
    }

    /// Takes every placement off the screen, keeping the images for `place`.
    static let clearPlacements = "\u{1B}_Ga=d,d=a,q=2\u{1B}\\"

    /// Frees every image this picker sent, at its end.
    static let deleteAll = "\u{1B}_Ga=d,d=A,q=2\u{1B}\\"

    /// Whether `base64` holds only base64 characters: it is written into an escape sequence
    /// as it is, so nothing from the daemon may end the sequence early.
    static func isBase64(_ base64: String) -> Bool {
        base64.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
                true
            default:
                false
            }
        }
    }
}
