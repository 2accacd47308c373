import Testing
@testable import PhotoCommands

/// photoctl's arguments keep the kernel's bytes: a name that is not UTF-8 is not repaired.
@Suite struct RawArgumentsTests {
    @Test func bytesThatAreNotUTF8ComeBackExactly() {
        let latin1: [UInt8] = Array("latin1-".utf8) + [0xE9, 0x74, 0xE9] + Array(".jpg".utf8)
        let other: [UInt8] = Array("latin1-".utf8) + [0xE8, 0x74, 0xE8] + Array(".jpg".utf8)
        let texts = RawArguments.record([Array("show".utf8), latin1, other])
        #expect(texts[0] == "show")
        #expect(texts[1] != texts[2], "two names that repair to the same text stay apart")
        #expect(RawArguments.bytes(of: texts[1]) == latin1)
        #expect(RawArguments.bytes(of: texts[2]) == other)
        #expect(RawArguments.bytes(of: "show") == Array("show".utf8))
    }

    @Test func aPrivateUseScalarInTheBytesIsNotTakenForAnEncodedByte() {
        // U+10FFE9 (F4 8F BF A9) beside a lone 0xE9: each keeps its own bytes.
        let withScalar: [UInt8] = [0xF4, 0x8F, 0xBF, 0xA9, 0xFF]
        let withByte: [UInt8] = [0xE9, 0xFF]
        let texts = RawArguments.record([withScalar, withByte])
        #expect(texts[0] != texts[1])
        #expect(RawArguments.bytes(of: texts[0]) == withScalar)
        #expect(RawArguments.bytes(of: texts[1]) == withByte)
    }

    @Test func anArgumentThatIsValidUTF8IsNeverRemapped() {
        let scalar = "\u{10FFE9}"
        let texts = RawArguments.record([Array(scalar.utf8), [0xE9]])
        #expect(texts[0] == scalar && texts[1] == scalar, "a lone 0xE9 is written as that scalar")
        #expect(RawArguments.bytes(of: scalar) == Array(scalar.utf8), "a valid argument keeps its own bytes")
    }
}
