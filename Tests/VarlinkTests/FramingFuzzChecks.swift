// Shared by the `varlink` fuzz target (fuzz/VarlinkFramingFuzzer.swift, built by fuzz/run with
// -D PHOTOD_FUZZ into one module with the pure Varlink sources) and FuzzRegressionTests, so a
// saved fuzz input is checked by exactly the invariants that flagged it. Standard library and
// the Varlink module only: no Testing, no NIO.
#if !PHOTOD_FUZZ
@testable import Varlink
#endif

/// How the `varlink` target reads one fuzz input: a 4-byte header, then the byte stream.
///
/// - byte 0: the decoder's `maxMessageBytes`: 0...127 as is (small limits reach the limit
///   checks), 128...255 means the server default (1 MiB).
/// - byte 1: how the stream is cut into reads: 0xFF is one byte per read; otherwise the low
///   5 bits are the number of cut points (0 = one read).
/// - bytes 2-3: seed for the cut positions (duplicates allowed, so empty reads happen).
/// - bytes 4...: the stream as a peer would send it.
struct VarlinkFuzzInput {
    static let headerLength = 4

    let limit: Int
    /// Sorted positions in 0...stream.count where one read ends and the next begins.
    let cuts: [Int]
    let stream: [UInt8]

    init(_ data: [UInt8]) {
        let header = data.prefix(Self.headerLength) + [UInt8](repeating: 0, count: max(0, 4 - data.count))
        let stream = Array(data.dropFirst(Self.headerLength))
        self.stream = stream
        limit = header[0] < 128 ? Int(header[0]) : 1 << 20
        if header[1] == 0xFF {
            cuts = Array(0...stream.count)
        } else {
            var state = UInt64(header[2]) << 8 | UInt64(header[3])
            cuts = (0..<Int(header[1] & 0x1F)).map { _ in
                // SplitMix64: any seed gives well-spread positions.
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                return Int((z ^ (z >> 31)) % UInt64(stream.count + 1))
            }.sorted()
        }
    }
}

/// What a decoder made of a whole stream: the frames, the error that stopped it, the bytes left over.
struct FramingOutcome: Equatable {
    var frames: [[UInt8]] = []
    var error: VarlinkProtocolError?
    var pending = 0
}

/// The invariants of VarlinkFrameDecoder and VarlinkCall.parse on one input; [] when all hold.
enum VarlinkFramingFuzz {
    /// Frames beyond this many are split but not parsed, so one input stays well under a millisecond.
    static let maxParsedFrames = 64

    static func violations(in data: [UInt8]) -> [String] {
        let input = VarlinkFuzzInput(data)
        var problems: [String] = []
        let expected = reference(input.stream, limit: input.limit)

        let whole = decode(input.stream, cuts: [], limit: input.limit, problems: &problems)
        if whole != expected {
            problems.append("one read: \(summary(whole)), reference splitter: \(summary(expected))")
        }
        let split = decode(input.stream, cuts: input.cuts, limit: input.limit, problems: &problems)
        if split != expected {
            problems.append("reads cut at \(input.cuts): \(summary(split)), reference splitter: \(summary(expected))")
        }
        for frame in whole.frames.prefix(maxParsedFrames) {
            checkParse(frame, problems: &problems)
        }
        return problems
    }

    /// The obvious splitter: cut at every NUL; a message (or trailing partial one) longer than the limit is an error.
    static func reference(_ stream: [UInt8], limit: Int) -> FramingOutcome {
        var outcome = FramingOutcome()
        var start = 0
        for (index, byte) in stream.enumerated() where byte == 0 {
            if index - start > limit {
                outcome.error = .messageTooLarge(limit: limit)
                return outcome
            }
            outcome.frames.append(Array(stream[start..<index]))
            start = index + 1
        }
        if stream.count - start > limit {
            outcome.error = .messageTooLarge(limit: limit)
            return outcome
        }
        outcome.pending = stream.count - start
        return outcome
    }

    /// Feeds the stream in reads ending at `cuts`, draining frames after each read, as the server does.
    static func decode(_ stream: [UInt8], cuts: [Int], limit: Int, problems: inout [String]) -> FramingOutcome {
        var decoder = VarlinkFrameDecoder(maxMessageBytes: limit)
        var outcome = FramingOutcome()
        var fed = 0
        var framed = 0  // bytes returned in frames, NULs included
        for end in cuts + [stream.count] {
            decoder.append(stream[fed..<max(fed, end)])
            fed = max(fed, end)
            while true {
                let next: [UInt8]?
                do {
                    next = try decoder.nextFrame()
                } catch {
                    checkFailed(&decoder, error: error, limit: limit, problems: &problems)
                    outcome.error = error
                    return outcome
                }
                guard let frame = next else { break }
                if frame.count > limit {
                    problems.append("frame of \(frame.count) bytes passed a limit of \(limit)")
                }
                if frame.contains(0) {
                    problems.append("frame contains a NUL")
                }
                framed += frame.count + 1
                outcome.frames.append(frame)
            }
            // Waiting for more: everything not yet framed is pending, and within the limit.
            if decoder.pendingByteCount != fed - framed {
                problems.append("pendingByteCount \(decoder.pendingByteCount), expected \(fed - framed)")
            }
            if decoder.pendingByteCount > limit {
                problems.append("\(decoder.pendingByteCount) bytes pending without NUL, limit \(limit)")
            }
        }
        outcome.pending = decoder.pendingByteCount
        return outcome
    }

    /// A failed decoder holds nothing and keeps failing with the same error, whatever arrives next.
    private static func checkFailed(
        _ decoder: inout VarlinkFrameDecoder, error: VarlinkProtocolError, limit: Int, problems: inout [String]
    ) {
        if error != .messageTooLarge(limit: limit) {
            problems.append("decoder failed with \(error), expected messageTooLarge(limit: \(limit))")
        }
        if decoder.pendingByteCount != 0 {
            problems.append("failed decoder still holds \(decoder.pendingByteCount) bytes")
        }
        for _ in 0..<2 {
            decoder.append(Array(#"{"method":"a.B"}"#.utf8) + [0])
            do {
                let frame = try decoder.nextFrame()
                problems.append("failed decoder returned \(frame.map { "a \($0.count)-byte frame" } ?? "nil")")
            } catch let again {
                if again != error { problems.append("failed decoder now throws \(again), first threw \(error)") }
            }
        }
    }

    /// Parsing is deterministic; a parsed call obeys the call rules and survives re-encoding.
    static func checkParse(_ frame: [UInt8], problems: inout [String]) {
        let first = Result { () throws(VarlinkProtocolError) in try VarlinkCall.parse(frame) }
        let second = Result { () throws(VarlinkProtocolError) in try VarlinkCall.parse(frame) }
        switch (first, second) {
        case (.failure(let error), .failure(let again)):
            if error != again { problems.append("parse threw \(error), then \(again)") }
            if case .messageTooLarge = error { problems.append("parse threw \(error)") }
        case (.success(let call), .success(let again)):
            if call.method != again.method || call.oneway != again.oneway || call.more != again.more
                || call.upgrade != again.upgrade
            {
                problems.append("parsing the same frame twice gave different calls")
            }
            checkCall(call, frame: frame, problems: &problems)
        default:
            problems.append("parsing the same frame twice: once a call, once an error")
        }
    }

    private static func checkCall(_ call: VarlinkCall, frame: [UInt8], problems: inout [String]) {
        if call.method.isEmpty { problems.append("call with an empty method") }
        if [call.oneway, call.more, call.upgrade].filter({ $0 }).count > 1 {
            problems.append("call with more than one of oneway, more, upgrade")
        }
        if String(validating: frame, as: UTF8.self) == nil { problems.append("call parsed from invalid UTF-8") }
        if call.method.contains(".") {
            if call.interface + "." + call.methodName != call.method {
                problems.append("interface \(call.interface) + methodName \(call.methodName) != \(call.method)")
            }
        } else if call.interface != "" || call.methodName != call.method {
            problems.append("undotted method \(call.method) split as \(call.interface) / \(call.methodName)")
        }

        // Parameters decode as some JSON value, or fail as InvalidParameter: never anything else.
        let parameters: JSONValue
        do {
            parameters = try call.parameters(JSONValue.self)
        } catch {
            if error.name != "org.varlink.service.InvalidParameter" {
                problems.append("parameters failed with \(error)")
            }
            return
        }

        // Re-encoding: what a client would send for this call parses back to the same call.
        guard case .object = parameters, let json = try? JSONWire.encodeObject(parameters) else { return }
        guard let message = try? JSONWire.call(method: call.method, parametersJSON: json, more: call.more) else {
            problems.append("could not encode a call to \(call.method)")
            return
        }
        guard message.last == 0, !message.dropLast().contains(0) else {
            problems.append("encoded call is not one NUL-terminated message")
            return
        }
        do {
            let again = try VarlinkCall.parse(Array(message.dropLast()))
            if again.method != call.method || again.more != call.more || again.oneway || again.upgrade {
                problems.append("re-encoded call parses as \(again.method) more=\(again.more)")
            }
            // One round trip may normalise numbers (1.0 -> 1); after that, values are a fixed point.
            let reencoded = try again.parameters(JSONValue.self)
            let third = try JSONWire.decode(JSONValue.self, from: JSONWire.encode(reencoded))
            if third != reencoded { problems.append("parameters are not stable under re-encoding") }
        } catch {
            problems.append("re-encoded call fails: \(error)")
        }

        // An error reply naming this method is one NUL-terminated JSON object carrying the name.
        let reply = JSONWire.errorReply(.methodNotFound(call.method))
        if reply.last != 0 || reply.dropLast().contains(0) {
            problems.append("error reply is not one NUL-terminated message")
        } else if let decoded = try? JSONWire.decode(ErrorReply.self, from: Array(reply.dropLast())) {
            if decoded.error != "org.varlink.service.MethodNotFound" || decoded.parameters["method"] != call.method {
                problems.append("error reply for \(call.method) decodes as \(decoded)")
            }
        } else {
            problems.append("error reply for \(call.method) is not JSON")
        }
    }

    private struct ErrorReply: Decodable {
        let error: String
        let parameters: [String: String]
    }

    private static func summary(_ outcome: FramingOutcome) -> String {
        "\(outcome.frames.count) frames \(outcome.frames.map(\.count)), error \(outcome.error.map { "\($0)" } ?? "none"), \(outcome.pending) pending"
    }
}
