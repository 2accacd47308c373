/// The `file://` URI the thumbnail standard hashes, made from path bytes exactly as GLib's
/// `g_filename_to_uri` makes it: every other thumbnailer (GNOME, KDE, xfce's tumbler) names the
/// same file by the same MD5 only if the escaping matches byte for byte.
public enum FileURI {
    /// The URI for an absolute path (raw bytes, not necessarily UTF-8); nil when the path is
    /// not absolute or holds a NUL byte, which no real path can.
    public static func make(pathBytes: [UInt8]) -> String? {
        guard pathBytes.first == UInt8(ascii: "/"), !pathBytes.contains(0) else { return nil }
        var uri = Array("file://".utf8)
        uri.reserveCapacity(uri.count + pathBytes.count * 3)
        for byte in pathBytes {
            if keepsAsIs(byte) {
                uri.append(byte)
            } else {
                uri += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: uri, as: UTF8.self)
    }

    /// The URI for a path given as a String (its UTF-8 bytes).
    public static func make(path: String) -> String? {
        make(pathBytes: Array(path.utf8))
    }

    /// GLib escapes in upper case; a lower-case `%2f` would hash to a different file name.
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static let pathPunctuation = Array("-._~!'()*/&=:@+$,".utf8)

    /// GLib's "unsafe path" table (gconvert.c): unreserved characters plus the reserved ones a
    /// path segment may carry unescaped. `;` `?` `#` `%` and space are escaped, as is every byte
    /// outside printable ASCII.
    private static func keepsAsIs(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return pathPunctuation.contains(byte)
        }
    }
}
