import Testing
@testable import Varlink
import WireJSON

/// A reply's envelope, read with JSONReader: its fields in any order, its parameters found and
/// decoded either way (JSONDecoder or the type's own reader) alike, and what is not a reply refused.
@Suite struct ReplyFrameTests {
    private struct Text: Decodable, Equatable, JSONReadable {
        var text: String

        init(text: String) {
            self.text = text
        }

        init(json: inout JSONReader) throws(JSONReadError) {
            var found: String?
            var key = try json.firstKey()
            while let name = key {
                if name == "text" { try json.member(&found, "text") } else { try json.skipValue() }
                key = try json.nextKey()
            }
            self.text = try json.required(found, "text")
        }
    }

    private func frame(_ text: String) throws -> ReplyFrame {
        try ReplyFrame.parse(Array(text.utf8))
    }

    @Test(arguments: [
        #"{"parameters":{"text":"a\n\u00e9"}}"#,
        #"{"continues":true,"parameters":{"other":[1,{"x":null}],"text":"a\n\u00e9"}}"#,
        #" { "parameters" : { "text" : "a\n\u00e9" } , "continues" : false , "extra" : "kept out" } "#,
    ])
    func parametersAreFoundWhereverTheyAre(text: String) throws {
        let reply = try frame(text)
        #expect(reply.error == nil)
        #expect(reply.continues == text.contains("true"))
        #expect(try reply.value(reading: Text.self) == Text(text: "a\n\u{e9}"))
        #expect(try reply.value(as: Text.self) == Text(text: "a\n\u{e9}"))
    }

    @Test func absentOrNullParametersReadAsAnEmptyObject() throws {
        for text in [#"{}"#, #"{"parameters":null}"#, #"{"continues":null}"#] {
            let reply = try frame(text)
            #expect(reply.parameters == nil)
            #expect(!reply.continues)
            #expect(throws: JSONReadError.self) { try reply.value(reading: Text.self) }
        }
    }

    @Test func anErrorKeepsItsParametersAsSortedJSON() throws {
        let reply = try frame(#"{"parameters":{"b":[1,"x"],"a":null},"error":"org.example.Failed"}"#)
        #expect(reply.error == VarlinkError(name: "org.example.Failed", parametersJSON: Array(#"{"a":null,"b":[1,"x"]}"#.utf8)))
        #expect(throws: VarlinkError.self) { try reply.value(reading: Text.self) }
        #expect(try frame(#"{"error":"org.example.Failed","parameters":[1]}"#).error == VarlinkError("org.example.Failed"))
        #expect(try frame(#"{"error":"org.example.Failed"}"#).error == VarlinkError("org.example.Failed"))
    }

    @Test(arguments: [
        "", "[]", "null", #"{"parameters":{}"#, #"{"parameters":{}} x"#, #"{"parameters":{},}"#,
        #"{"parameters":{},"parameters":{}}"#, #"{"continues":"yes"}"#, #"{"error":7}"#, #"{"parameters":{"a":01}}"#,
        #"{"error":"org.example.Failed","parameters":{"a":"\ud800"}}"#,
    ])
    func whatIsNotAReplyIsRefused(text: String) {
        #expect(throws: VarlinkClientError.self) { try frame(text) }
    }
}
