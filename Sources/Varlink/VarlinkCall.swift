#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One decoded call.
public struct VarlinkCall: Sendable {
    /// The qualified method name, `interface.Method`.
    public let method: String
    /// The call wants no reply.
    public let oneway: Bool
    /// The call accepts several replies (`continues`).
    public let more: Bool
    /// The call asks to switch the connection to another protocol after the reply.
    public let upgrade: Bool
    /// The whole message; parameters are decoded from it on demand, once the handler knows the type.
    private let frame: [UInt8]
    private let hasParameters: Bool
    /// What the IDL says the call and its replies look like, in debug builds (set once routed).
    var contract: CallContract?
    /// The file descriptors the client passed with the call (see `takeFileDescriptor`).
    var passedDescriptors: ReceivedFileDescriptors?

    /// The interface part of `method` (everything before the last dot).
    public var interface: String {
        guard let dot = self.method.lastIndex(of: ".") else { return "" }
        return String(self.method[..<dot])
    }

    /// The method part of `method` (after the last dot).
    public var methodName: String {
        guard let dot = self.method.lastIndex(of: ".") else { return self.method }
        return String(self.method[self.method.index(after: dot)...])
    }

    /// Decodes "parameters" (absent → {}) into P; failure throws VarlinkError.invalidParameter naming the offending key.
    public func parameters<P: Decodable>(_ type: P.Type) throws(VarlinkError) -> P {
        if let contract, let mismatch = contract.mismatch(inCall: self.parametersValue()) {
            throw .invalidParameter(VarlinkIDLCheck.field(of: mismatch))
        }
        do {
            if self.hasParameters {
                return try JSONWire.decode(ParametersEnvelope<P>.self, from: self.frame).parameters
            }
            return try JSONWire.decode(P.self, from: JSONWire.emptyObject)
        } catch let error as VarlinkError {
            // A type may validate its own fields and name the bad one itself.
            throw error
        } catch let error as DecodingError {
            self.contract?.reportRefused(P.self, error)
            throw .invalidParameter(Self.parameterName(in: error, insideEnvelope: self.hasParameters))
        } catch {
            throw .invalidParameter("parameters")
        }
    }

    /// The parameters as JSON (absent → {}), for the IDL check.
    private func parametersValue() -> JSONValue {
        guard self.hasParameters else { return .object([:]) }
        return (try? JSONWire.decode(ParametersEnvelope<JSONValue>.self, from: self.frame).parameters) ?? .null
    }

    /// Parses one frame from VarlinkFrameDecoder into a call.
    public static func parse(_ frame: [UInt8]) throws(VarlinkProtocolError) -> VarlinkCall {
        // JSONDecoder checks UTF-8 only in the strings it is asked for; a call is JSON text, so
        // all of it must be valid.
        guard String(validating: frame, as: UTF8.self) != nil else {
            throw .invalidJSON
        }
        // JSONDecoder is lenient (trailing commas; a repeated key where the first wins), so a
        // message must first be strict JSON: one text, one meaning.
        do {
            try StrictJSON.validate(frame)
        } catch .duplicateKey(let offset) {
            throw .duplicateKey(offset: offset)
        } catch .tooDeep {
            throw .nestedTooDeep(limit: StrictJSON.maximumDepth)
        } catch {
            throw .invalidJSON
        }
        let header: CallHeader
        do {
            header = try JSONWire.decode(CallHeader.self, from: frame)
        } catch let error as VarlinkProtocolError {
            throw error
        } catch {
            throw .invalidJSON
        }
        let flags = [header.oneway, header.more, header.upgrade].filter { $0 }.count
        guard flags <= 1 else { throw .conflictingFlags }
        return VarlinkCall(
            method: header.method,
            oneway: header.oneway,
            more: header.more,
            upgrade: header.upgrade,
            frame: frame,
            hasParameters: header.hasParameters
        )
    }

    /// The top-level parameter a decoding error is about: varlink's InvalidParameter names one
    /// parameter, not a path into it.
    private static func parameterName(in error: DecodingError, insideEnvelope: Bool) -> String {
        var path: [any CodingKey]
        switch error {
        case .keyNotFound(let key, let context): path = context.codingPath + [key]
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            path = context.codingPath
        @unknown default: path = []
        }
        if insideEnvelope, !path.isEmpty {
            path.removeFirst()
        }
        return path.first?.stringValue ?? "parameters"
    }
}

/// The fields of a call message that the server needs before it picks a handler.
private struct CallHeader: Decodable {
    let method: String
    let oneway: Bool
    let more: Bool
    let upgrade: Bool
    let hasParameters: Bool

    private enum Key: String, CodingKey {
        case method, parameters, oneway, more, upgrade
    }

    init(from decoder: any Decoder) throws {
        let container: KeyedDecodingContainer<Key>
        do {
            container = try decoder.container(keyedBy: Key.self)
        } catch {
            throw VarlinkProtocolError.notAnObject
        }
        guard let method = try? container.decodeIfPresent(String.self, forKey: .method), !method.isEmpty else {
            throw VarlinkProtocolError.missingMethod
        }
        self.method = method
        // Flags are true only when literally `true`; anything else is treated as absent.
        self.oneway = (try? container.decodeIfPresent(Bool.self, forKey: .oneway)) == true
        self.more = (try? container.decodeIfPresent(Bool.self, forKey: .more)) == true
        self.upgrade = (try? container.decodeIfPresent(Bool.self, forKey: .upgrade)) == true
        let parametersIsNull = (try? container.decodeNil(forKey: .parameters)) ?? true
        self.hasParameters = container.contains(.parameters) && !parametersIsNull
    }
}

private struct ParametersEnvelope<P: Decodable>: Decodable {
    let parameters: P
}
