/// One reply as read from the wire; both clients (NIO and blocking) read replies through it.
package struct ReplyFrame: Sendable {
    /// Replies may be larger than calls (a page of assets, a 2048-px PNG of up to 24 MiB as
    /// base64); this bounds a broken server's damage.
    package static let maxBytes = 32 << 20

    package let bytes: [UInt8]
    package let error: VarlinkError?
    package let continues: Bool
    /// Some servers leave out empty parameters; they read as `{}`.
    package let hasParameters: Bool

    /// Reads the envelope of one message (without its NUL).
    package static func parse(_ frame: [UInt8]) throws -> ReplyFrame {
        let header: ReplyHeader
        do {
            header = try JSONWire.decode(ReplyHeader.self, from: frame)
        } catch {
            throw VarlinkClientError.invalidReply("not a JSON object with the reply fields")
        }
        let error = try header.error.map { name in
            guard let parameters = header.errorParameters, case .object = parameters else {
                return VarlinkError(name)
            }
            return VarlinkError(name: name, parametersJSON: try JSONWire.encode(parameters))
        }
        return ReplyFrame(bytes: frame, error: error, continues: header.continues, hasParameters: header.hasParameters)
    }

    /// The parameters decoded as `R`; an error reply throws its VarlinkError.
    package func value<R: Decodable>(as type: R.Type) throws -> R {
        if let error = self.error {
            throw error
        }
        guard self.hasParameters else {
            return try JSONWire.decode(R.self, from: JSONWire.emptyObject)
        }
        return try JSONWire.decode(ReplyEnvelope<R>.self, from: self.bytes).parameters
    }
}

/// The envelope of a reply; the parameters themselves are decoded later, straight into the
/// caller's type, except an error's, which are kept as JSON.
private struct ReplyHeader: Decodable {
    package let error: String?
    package let errorParameters: JSONValue?
    package let continues: Bool
    package let hasParameters: Bool

    private enum Key: String, CodingKey {
        case error, parameters, continues
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        self.error = try container.decodeIfPresent(String.self, forKey: .error)
        self.continues = try container.decodeIfPresent(Bool.self, forKey: .continues) ?? false
        self.hasParameters = try container.contains(.parameters) && !container.decodeNil(forKey: .parameters)
        self.errorParameters = self.error == nil ? nil : try container.decodeIfPresent(JSONValue.self, forKey: .parameters)
    }
}

private struct ReplyEnvelope<R: Decodable>: Decodable {
    package let parameters: R
}
