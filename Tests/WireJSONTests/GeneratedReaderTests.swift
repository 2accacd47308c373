import Foundation
import PhotoAPI
import Testing
import WireJSON

/// The readers varlink-codegen writes, against the synthesized Decodable on the same bytes.
@Suite struct GeneratedReaderTests {
    private func decoded<T: Decodable>(_ type: T.Type, _ text: String) -> T? {
        try? JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    private func read<T: JSONReadable>(_ type: T.Type, _ text: String) -> T? {
        var reader = JSONReader(Array(text.utf8))
        guard let value = try? T(json: &reader), (try? reader.finish()) != nil else { return nil }
        return value
    }

    static let page = ListAssetsReply(
        assets: [
            Asset(id: "rh7ms9576jfkemz8", path: "/photos/2012/01/IMG_0215.jpg", group: "Family", fallback: false,
                  description: "Family \"dinner\"\n\u{1}tab\tand \\ slash / é e\u{301} 😀", descriptionSource: .xmp,
                  format: "jpeg", taken: "2012-01-01T00:28:10+01:00", width: 640, height: 480, orientation: 6,
                  make: "Canon", model: "EOS", size: Int.max, modified: "2012-01-01T00:28:10Z",
                  sidecar: "/photos/2012/01/IMG_0215.jpg.xmp", offline: true),
            Asset(id: "k8avp66g4ypcmvby", path: "/photos/\u{FFFD}.jpg", pathBytes: "L3Bob3Rvcy//LmpwZw==", group: "Other",
                  fallback: true, format: "unknown", size: 0, modified: "2012-01-01T02:20:38Z"),
        ],
        cursor: "next", progress: ScanProgress(found: 10, indexed: 3, total: nil))

    @Test func aPageEncodedByJSONEncoderReadsAsJSONDecoderReadsIt() throws {
        let text = String(decoding: try JSONEncoder().encode(Self.page), as: UTF8.self)
        let expected = try #require(decoded(ListAssetsReply.self, text))
        #expect(expected == Self.page)
        let value = try #require(read(ListAssetsReply.self, text))
        #expect(value == expected)
        // == on String is canonical equivalence; the bytes must be the same too.
        #expect(value.assets.map { Array(($0.description ?? "").utf8) } == expected.assets.map { Array(($0.description ?? "").utf8) })
    }

    @Test(arguments: [
        // Optionals null or absent, members in any order, unknown members of every kind passed over.
        #"{"name":"Beach","count":3,"fallback":false,"latest":null,"latestSource":null}"#,
        #"{"fallback":true,"count":0,"name":"Other"}"#,
        #"{"extra":{"a":[1,2.5e3,{"b":null}],"c":"\u00e9"},"name":"\u0042each \ud83d\ude00","count":-0,"fallback":false,"more":[]}"#,
        #" { "name" : "x" , "count" : 1.0 , "fallback" : true , "latest" : "2024-01-01T00:00:00Z" , "latestSource" : "taken" } "#,
    ])
    func groupsReadAsJSONDecoderReadsThem(text: String) throws {
        let expected = try #require(decoded(Group.self, text))
        #expect(read(Group.self, text) == expected)
    }

    @Test(arguments: [
        #"{"count":3,"fallback":false}"#,                                   // a required member missing
        #"{"name":null,"count":3,"fallback":false}"#,                       // a required member null
        #"{"name":"x","count":"3","fallback":false}"#,                      // a string for a number
        #"{"name":"x","count":3.5,"fallback":false}"#,                      // a fraction for an Int
        #"{"name":"x","count":3,"fallback":false,"latestSource":"later"}"#,  // no such enum value
        #"{"name":"x","count":3,"fallback":0}"#,                            // a number for a Bool
        #"{"name":"x","count":99999999999999999999,"fallback":false}"#,     // past Int
        #"["name","x"]"#, "null", "",
    ])
    func whatJSONDecoderRefusesIsRefused(text: String) {
        #expect(decoded(Group.self, text) == nil)
        #expect(read(Group.self, text) == nil)
    }

    @Test func aRepeatedMemberIsRefusedThoughJSONDecoderKeepsTheFirst() {
        let text = #"{"name":"x","count":3,"fallback":false,"count":4}"#
        #expect(decoded(Group.self, text)?.count == 3)
        #expect(read(Group.self, text) == nil)
    }

    @Test func everyCutShortReplyIsRefused() throws {
        let bytes = Array(try JSONEncoder().encode(ListGroupsReply(groups: [
            Group(name: "A \"b\" \u{e9}", count: 1, latest: "2024-01-01T00:00:00Z", latestSource: .modified),
        ], progress: ScanProgress(found: 1, indexed: 1, total: 2))))
        var whole = JSONReader(bytes)
        _ = try ListGroupsReply(json: &whole)
        try whole.finish()
        for count in 0..<bytes.count {
            var reader = JSONReader(bytes, range: 0..<count)
            #expect(throws: JSONReadError.self, "\(count) bytes") {
                _ = try ListGroupsReply(json: &reader)
                try reader.finish()
            }
        }
    }
}
