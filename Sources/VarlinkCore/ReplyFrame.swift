import WireJSON

/// One reply as read from the wire; both clients (NIO and blocking) read replies through it.
package struct ReplyFrame: Sendable {
    /// Replies may be larger than calls (a page of assets, a 2048-px PNG of up to 24 MiB as
    /// base64); this bounds a broken server's damage.
    package static let maxBytes = 32 << 20

    package let bytes: [UInt8]
    package let error: VarlinkError?
    package let continues: Bool
    /// Where the parameters' JSON is in `bytes`; nil when absent or null (some servers leave
    /// out empty parameters; they read as `{}`).
    package let parameters: Range<Int>?

    /// Reads the envelope of one message (without its NUL).
    ///
    /// With JSONReader, not JSONDecoder: the parameters are passed over (their grammar checked)
    /// and decoded later straight into the caller's type, so a page of assets is not parsed
    /// into a map twice. Stricter than JSONDecoder: a repeated envelope key is refused.
    package static func parse(_ frame: [UInt8]) throws -> ReplyFrame {
        let envelope: Envelope
        do {
            envelope = try Envelope(frame)
        } catch {
            throw VarlinkClientError.invalidReply("not a JSON object with the reply fields")
        }
        let error = try envelope.error.map { name in
            // An error's parameters are kept as JSON (sorted keys), which JSONValue makes.
            guard let range = envelope.parameters else { return VarlinkError(name) }
            let parameters: JSONValue
            do {
                parameters = try JSONWire.decode(JSONValue.self, from: Array(frame[range]))
            } catch {
                throw VarlinkClientError.invalidReply("not a JSON object with the reply fields")
            }
            guard case .object = parameters else { return VarlinkError(name) }
            return VarlinkError(name: name, parametersJSON: try JSONWire.encode(parameters))
        }
        return ReplyFrame(bytes: frame, error: error, continues: envelope.continues, parameters: envelope.parameters)
    }

    /// The parameters decoded as `R` by JSONDecoder; an error reply throws its VarlinkError.
    package func value<R: Decodable>(as type: R.Type) throws -> R {
        if let error = self.error {
            throw error
        }
        return try JSONWire.decode(R.self, from: self.parameters.map { Array(self.bytes[$0]) } ?? JSONWire.emptyObject)
    }

    /// The parameters read as `R` by its own JSON reader; an error reply throws its VarlinkError.
    package func value<R: JSONReadable>(reading type: R.Type) throws -> R {
        if let error = self.error {
            throw error
        }
        var reader = self.parameters.map { JSONReader(self.bytes, range: $0) } ?? JSONReader(JSONWire.emptyObject)
        let value = try R(json: &reader)
        try reader.finish()
        return value
    }
}

/// The envelope's members: `error`, `parameters` and `continues`; others are passed over.
private struct Envelope {
    var error: String?
    var continues = false
    var parameters: Range<Int>?

    init(_ frame: [UInt8]) throws(JSONReadError) {
        var reader = JSONReader(frame)
        // Which of the three were met; a Set<String> here cost more than the rest of the envelope.
        var seen: (error: Bool, continues: Bool, parameters: Bool) = (false, false, false)
        var key = try reader.firstKey()
        while let name = key {
            switch name {
            case "error":
                try Self.once(&seen.error, reader)
                self.error = try String?(json: &reader)
            case "continues":
                try Self.once(&seen.continues, reader)
                self.continues = try Bool?(json: &reader) ?? false
            case "parameters":
                try Self.once(&seen.parameters, reader)
                self.parameters = try reader.readNull() ? nil : try reader.skippedRange()
            default:
                try reader.skipValue()
            }
            key = try reader.nextKey()
        }
        try reader.finish()
    }

    /// Marks a key met, refusing it the second time.
    private static func once(_ seen: inout Bool, _ reader: JSONReader) throws(JSONReadError) {
        guard !seen else { throw reader.error("a key repeated in the envelope") }
        seen = true
    }
}
