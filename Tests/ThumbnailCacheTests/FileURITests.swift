import Checksums
import Testing
@testable import ThumbnailCache

/// Expected URIs come from GLib 2.74's g_filename_to_uri (called through Python ctypes), the
/// function every GNOME thumbnailer names files with.
@Suite struct FileURITests {
    @Test func specificationExample() {
        let uri = FileURI.make(path: "/home/jens/photos/me.png")
        #expect(uri == "file:///home/jens/photos/me.png")
        #expect(uri.map { MD5.hex(Array($0.utf8)) } == "c6ee772d9e49320e97ec29a7eb5b1697")
    }

    @Test(arguments: [
        ("/tmp/a b.png", "file:///tmp/a%20b.png"),
        ("/tmp/100%.png", "file:///tmp/100%25.png"),
        ("/tmp/#1?.png", "file:///tmp/%231%3F.png"),
        ("/tmp/ünï 😀.png", "file:///tmp/%C3%BCn%C3%AF%20%F0%9F%98%80.png"),
        ("/tmp/-._~!'()*&=:@+$,z", "file:///tmp/-._~!'()*&=:@+$,z"),
        ("/tmp/;<>\"[]^`{|}\u{7F}\n", "file:///tmp/%3B%3C%3E%22%5B%5D%5E%60%7B%7C%7D%7F%0A"),
    ])
    func escapesLikeGLib(path: String, expected: String) {
        #expect(FileURI.make(path: path) == expected)
    }

    @Test func nonUTF8BytesAreEscapedUpperCase() {
        #expect(FileURI.make(pathBytes: Array("/tmp/".utf8) + [0xFF, 0xFE, 0x80]) == "file:///tmp/%FF%FE%80")
    }

    /// Every byte value from 1 to 255 in one path, against GLib's output for the same bytes.
    @Test func everyByteMatchesGLib() {
        let expected = "file:///%01%02%03%04%05%06%07%08%09%0A%0B%0C%0D%0E%0F%10%11%12%13%14%15%16%17%18%19%1A%1B"
            + "%1C%1D%1E%1F%20!%22%23$%25&'()*+,-./0123456789:%3B%3C=%3E%3F@ABCDEFGHIJKLMNOPQRSTUVWXYZ%5B%5C%5D%5E_%60"
            + "abcdefghijklmnopqrstuvwxyz%7B%7C%7D~%7F"
            + (0x80...0xFF).map { "%" + String($0, radix: 16, uppercase: true) }.joined()
        #expect(FileURI.make(pathBytes: [UInt8(ascii: "/")] + Array(1...255)) == expected)
    }

    @Test func relativeOrNULPathsHaveNoURI() {
        #expect(FileURI.make(path: "photos/me.png") == nil)
        #expect(FileURI.make(path: "") == nil)
        #expect(FileURI.make(pathBytes: Array("/tmp/a".utf8) + [0, 0x62]) == nil)
    }
}
