import Checksums
import Testing
@testable import ThumbnailCache

@Suite struct MD5Tests {
    /// RFC 1321 appendix A.5.
    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        ("12345678901234567890123456789012345678901234567890123456789012345678901234567890",
         "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func rfc1321Vectors(input: String, expected: String) {
        #expect(MD5.hex(Array(input.utf8)) == expected)
    }

    /// Lengths around the 56-byte padding boundary and a block edge, where padding bugs live
    /// (expected values from Python's hashlib).
    @Test(arguments: [
        (55, "ef1772b6dff9a122358552954ad0df65"),
        (56, "3b0c8ac703f828b04c6c197006d17218"),
        (64, "014842d480b571495a4a0363793f7367"),
        (65, "c743a45e0d2e6a95cb859adae0248435"),
    ])
    func paddingBoundaries(length: Int, expected: String) {
        #expect(MD5.hex([UInt8](repeating: UInt8(ascii: "a"), count: length)) == expected)
    }

    @Test func digestIsSixteenBytes() {
        #expect(MD5.digest(Array("abc".utf8)) == [
            0x90, 0x01, 0x50, 0x98, 0x3C, 0xD2, 0x4F, 0xB0, 0xD6, 0x96, 0x3F, 0x7D, 0x28, 0xE1, 0x7F, 0x72,
        ])
    }
}
