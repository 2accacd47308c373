import Foundation
import PhotoAPI
import Testing
import Varlink
@testable import PhotoDaemon

/// Every `# @limit FIELD BYTES` line of the IDL is enforced for its method: a string one byte
/// over is refused naming the field, and one at the limit passes.
@Suite struct ParameterLimitsTests {
    @Test func everyDeclaredLimitRefusesOneByteMoreNamingItsField() throws {
        var checked = 0
        for (text, methods) in MethodTableTests.interfaces {
            let idl = try VarlinkIDL(parsing: text)
            for member in idl.members where member.kind == .method {
                let method = try #require(methods.first { $0.name == member.name })
                let described = try #require(idl.method(member.name))
                for (field, bytes) in Self.limits(in: member.doc) {
                    let type = try #require(described.input.first { $0.name == field }?.type)
                    for (length, refused) in [(bytes, false), (bytes + 1, true)] {
                        var sample = IDLSample(idl: idl).object(described.input)
                        sample[field] = Self.value(String(repeating: "a", count: length), as: type)
                        let parameters = try Self.decode(method.parametersType, sample)
                        if refused {
                            #expect(throws: VarlinkError.invalidParameter(field), "\(member.name).\(field)") {
                                try ParameterLimits.check(parameters)
                            }
                        } else {
                            #expect(throws: Never.self, "\(member.name).\(field)") { try ParameterLimits.check(parameters) }
                        }
                    }
                    checked += 1
                }
            }
        }
        #expect(checked == 36)
    }

    /// The IDL's limits of one member, as its comment declares them.
    private static func limits(in doc: [String]) -> [(String, Int)] {
        doc.compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 3, words[0] == "@limit", let bytes = Int(words[2]) else { return nil }
            return (String(words[1]), bytes)
        }
    }

    /// `text` where the IDL wants a string, or as the one element of an array of strings.
    private static func value(_ text: String, as type: VarlinkIDL.TypeSpec) -> Any {
        switch type {
        case .optional(let inner): value(text, as: inner)
        case .array: [text]
        default: text
        }
    }

    private static func decode<T: Codable>(_ type: T.Type, _ sample: [String: Any]) throws -> Any {
        try JSONDecoder().decode(type, from: JSONSerialization.data(withJSONObject: sample))
    }
}
