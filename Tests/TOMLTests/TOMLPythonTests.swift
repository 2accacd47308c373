import Foundation
import PhotoTestSupport
import Testing
@testable import TOML

/// The parser against Python's tomllib (a full TOML 1.0 parser) on generated documents and
/// their mutations: what this parser reads, tomllib reads to the same values; what tomllib
/// refuses, this parser refuses; and a document of the subset is read by both.
@Suite struct TOMLPythonTests {
    @Test func agreesWithTomllib() async throws {
        var random = SplitMix64(seed: 1616)
        var documents: [String] = []
        for _ in 0..<1500 {
            let document = TOMLDocumentMaker.document(&random)
            documents.append(document)
            var bytes = Array(document.utf8)
            let special = Array("[]{}\"'\\=.,#\n\r\t _-+:0x1e.5".utf8)
            for _ in 0..<(1 + random.below(3)) {
                let at = random.below(bytes.count + 1)
                if random.below(2) == 0, at < bytes.count {
                    bytes.remove(at: at)
                } else {
                    bytes.insert(special[random.below(special.count)], at: at)
                }
            }
            documents.append(String(decoding: bytes, as: UTF8.self))
        }
        let answers = try await Tomllib.read(documents)
        try #require(answers.count == documents.count)
        var disagreements: [String] = []
        for (index, (document, answer)) in zip(documents, answers).enumerated() {
            let mine = Result { () throws(TOMLError) in try TOMLParser.parse(document) }
            switch (mine, answer) {
            case (.success(let table), .value(let theirs)):
                if Tagged(.table(table)) != theirs { disagreements.append("values differ: \(document.debugDescription)") }
            case (.success, .refused(let reason)):
                disagreements.append("only tomllib refuses (\(reason)): \(document.debugDescription)")
            case (.failure(let error), .value):
                // Stricter is allowed for a mutation, never for a document of the subset.
                if index.isMultiple(of: 2) { disagreements.append("only this refuses (\(error)): \(document.debugDescription)") }
            case (.failure, .refused):
                break
            }
        }
        #expect(disagreements == [])
    }
}

/// A TOML value as tomllib's answer spells it: one key naming the type.
enum Tagged: Decodable, Equatable {
    case string(String)
    case integer(String)
    case boolean(Bool)
    case array([Tagged])
    case table([Entry])
    /// A type outside the subset (float, date, time), by Python's name.
    case other(String)

    struct Entry: Decodable, Equatable {
        let key: String
        let value: Tagged

        init(_ key: String, _ value: Tagged) {
            self.key = key
            self.value = value
        }

        init(from decoder: any Decoder) throws {
            var pair = try decoder.unkeyedContainer()
            key = try pair.decode(String.self)
            value = try pair.decode(Tagged.self)
        }
    }

    private enum Keys: String, CodingKey { case s, i, b, a, t, x }

    init(_ value: TOMLValue) {
        switch value {
        case .string(let string): self = .string(string)
        case .integer(let integer): self = .integer(String(integer))
        case .boolean(let boolean): self = .boolean(boolean)
        case .array(let elements): self = .array(elements.map(Tagged.init))
        case .table(let table): self = .table(table.keys.compactMap { key in table[key].map { Entry(key, Tagged($0)) } })
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        if let string = try container.decodeIfPresent(String.self, forKey: .s) {
            self = .string(string)
        } else if let integer = try container.decodeIfPresent(String.self, forKey: .i) {
            self = .integer(integer)
        } else if let boolean = try container.decodeIfPresent(Bool.self, forKey: .b) {
            self = .boolean(boolean)
        } else if let elements = try container.decodeIfPresent([Tagged].self, forKey: .a) {
            self = .array(elements)
        } else if let entries = try container.decodeIfPresent([Entry].self, forKey: .t) {
            self = .table(entries)
        } else {
            self = .other(try container.decode(String.self, forKey: .x))
        }
    }
}

/// Python's tomllib, run once over many documents.
enum Tomllib {
    enum Answer: Decodable {
        case value(Tagged)
        case refused(String)

        private enum Keys: String, CodingKey { case value, error }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            if let error = try container.decodeIfPresent(String.self, forKey: .error) {
                self = .refused(error)
            } else {
                self = .value(try container.decode(Tagged.self, forKey: .value))
            }
        }
    }

    private static let script = """
        import json, sys, tomllib
        def tag(v):
            if isinstance(v, bool): return {"b": v}
            if isinstance(v, int): return {"i": str(v)}
            if isinstance(v, str): return {"s": v}
            if isinstance(v, list): return {"a": [tag(e) for e in v]}
            if isinstance(v, dict): return {"t": [[k, tag(e)] for k, e in v.items()]}
            return {"x": type(v).__name__}
        answers = []
        for text in json.load(open(sys.argv[1], encoding="utf-8")):
            try:
                answers.append({"value": tag(tomllib.loads(text))})
            except tomllib.TOMLDecodeError as error:
                answers.append({"error": str(error)})
        json.dump(answers, sys.stdout)
        """

    /// tomllib's answer to each of `documents`.
    static func read(_ documents: [String]) async throws -> [Answer] {
        let dir = try TemporaryDirectory()
        let input = try dir.write("documents.json", Array(try JSONEncoder().encode(documents)))
        // Debian's python3 (3.11 or later has tomllib), as PillowFixture uses.
        let result = try await ProcessRunner.run("/usr/bin/python3", ["-c", script, input], timeout: 300)
        try #require(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode([Answer].self, from: Data(result.stdout.utf8))
    }
}
