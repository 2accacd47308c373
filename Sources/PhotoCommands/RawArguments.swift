#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// photoctl's arguments as the kernel gave them. `CommandLine.arguments` replaces bytes that are
/// not UTF-8 with U+FFFD, so a file named in Latin-1 could not be found and two such names would
/// read the same. An argument that is not UTF-8 is handed to the parser with each such byte as a
/// private-use scalar, and its exact bytes are kept here for the commands that take paths.
enum RawArguments {
    /// The private-use scalars U+10FF80…U+10FFFF stand for the bytes 0x80…0xFF.
    private static let base: UInt32 = 0x10FF00

    /// Exact bytes of the arguments that were not UTF-8, by the text the parser was given.
    private static let exact = Mutex<[String: [UInt8]]>([:])

    /// The process's arguments (without the program name) as text for the parser, recording
    /// the exact bytes of those that are not UTF-8.
    static func process() -> [String] {
        let raw = (1..<Int(CommandLine.argc)).map { index -> [UInt8] in
            guard let argument = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
        }
        return record(raw)
    }

    /// `arguments` as text, recording the exact bytes of those that are not UTF-8; a text
    /// that two different arguments would share is not recorded (it then names no file).
    static func record(_ arguments: [[UInt8]]) -> [String] {
        var table: [String: [UInt8]] = [:]
        var plain: Set<String> = []
        var ambiguous: Set<String> = []
        let texts = arguments.map { bytes -> String in
            if let text = String(validating: bytes, as: UTF8.self) {
                plain.insert(text)
                return text
            }
            let text = encoded(bytes)
            if let earlier = table[text], earlier != bytes { ambiguous.insert(text) }
            table[text] = bytes
            return text
        }
        for text in plain.union(ambiguous) { table[text] = nil }
        exact.withLock { $0.merge(table) { _, new in new } }
        return texts
    }

    /// The exact bytes of `argument`, as the kernel gave it to photoctl.
    static func bytes(of argument: String) -> [UInt8] {
        exact.withLock { $0[argument] } ?? Array(argument.utf8)
    }

    /// `bytes` as text: valid UTF-8 as it is, every other byte as the scalar base + byte. Scalars
    /// of that range present in `bytes` are also written byte by byte, so the text tells the
    /// bytes apart.
    static func encoded(_ bytes: [UInt8]) -> String {
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let length = validSequenceLength(bytes, at: index)
            if length > 0, let scalar = decodeScalar(bytes[index..<(index + length)]), scalar.value < base + 0x80 {
                scalars.append(scalar)
                index += length
                continue
            }
            let count = max(length, 1)
            for byte in bytes[index..<(index + count)] {
                // An ASCII byte is always a valid sequence of its own, so `byte` is ≥ 0x80 here.
                if let scalar = Unicode.Scalar(base + UInt32(byte)) { scalars.append(scalar) }
            }
            index += count
        }
        return String(scalars)
    }

    /// The length of the valid UTF-8 sequence at `index`, or 0 when there is none.
    private static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        for length in 1...4 where index + length <= bytes.count {
            if String(validating: bytes[index..<(index + length)], as: UTF8.self) != nil { return length }
        }
        return 0
    }

    private static func decodeScalar(_ bytes: ArraySlice<UInt8>) -> Unicode.Scalar? {
        String(validating: bytes, as: UTF8.self)?.unicodeScalars.first
    }
}
