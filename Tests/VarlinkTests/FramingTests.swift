import Testing

@testable import Varlink

/// Feeds `input` in the given chunks and collects frames until the input ends or decoding fails.
private func frames(
    of input: [UInt8],
    splitAt cuts: [Int],
    limit: Int = 1 << 20
) -> (frames: [[UInt8]], error: VarlinkProtocolError?) {
    var decoder = VarlinkFrameDecoder(maxMessageBytes: limit)
    var result: [[UInt8]] = []
    var start = 0
    for end in cuts + [input.count] where end >= start {
        decoder.append(input[start..<end])
        start = end
        do {
            while let frame = try decoder.nextFrame() {
                result.append(frame)
            }
        } catch {
            return (result, error)
        }
    }
    return (result, nil)
}

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

@Suite("Framing")
struct FramingTests {
    static let stream: [UInt8] =
        bytes(#"{"method":"a.B"}"#) + [0] + bytes(#"{"method":"a.C","parameters":{"x":"é\u0000"}}"#) + [0] + [0]
        + bytes(#"{"method":"a.D"}"#) + [0]

    @Test("every split position of the input gives the same frames")
    func everySplitPosition() {
        let whole = frames(of: Self.stream, splitAt: [])
        #expect(whole.error == nil)
        #expect(whole.frames.count == 4)
        #expect(whole.frames[2] == [])
        for cut in 0...Self.stream.count {
            let split = frames(of: Self.stream, splitAt: [cut])
            #expect(split.frames == whole.frames, "split at \(cut)")
            #expect(split.error == nil)
        }
        for first in 0...Self.stream.count {
            for second in first...Self.stream.count {
                #expect(frames(of: Self.stream, splitAt: [first, second]).frames == whole.frames)
            }
        }
    }

    @Test("byte-at-a-time input gives the same frames")
    func oneByteAtATime() {
        let result = frames(of: Self.stream, splitAt: Array(0...Self.stream.count))
        #expect(result.frames == frames(of: Self.stream, splitAt: []).frames)
    }

    @Test("several messages in one read come out one by one, a trailing partial one waits")
    func severalInOneRead() throws {
        var decoder = VarlinkFrameDecoder()
        decoder.append(bytes("a") + [0] + bytes("bc") + [0] + bytes("de"))
        #expect(try decoder.nextFrame() == bytes("a"))
        #expect(try decoder.nextFrame() == bytes("bc"))
        #expect(try decoder.nextFrame() == nil)
        #expect(decoder.pendingByteCount == 2)
        decoder.append([0])
        #expect(try decoder.nextFrame() == bytes("de"))
        #expect(try decoder.nextFrame() == nil)
        #expect(decoder.pendingByteCount == 0)
    }

    @Test("a message exactly at the limit passes, at every split")
    func exactlyAtLimit() {
        let limit = 64
        let message = [UInt8](repeating: UInt8(ascii: "x"), count: limit) + [0]
        for cut in 0...message.count {
            let result = frames(of: message, splitAt: [cut], limit: limit)
            #expect(result.error == nil, "split at \(cut)")
            #expect(result.frames == [Array(message.dropLast())])
        }
    }

    @Test("one byte over the limit fails, at every split, before the NUL arrives")
    func oneByteOver() throws {
        let limit = 64
        let message = [UInt8](repeating: UInt8(ascii: "x"), count: limit + 1) + [0]
        for cut in 0...message.count {
            let result = frames(of: message, splitAt: [cut], limit: limit)
            #expect(result.error == .messageTooLarge(limit: limit), "split at \(cut)")
            #expect(result.frames.isEmpty)
        }
        var decoder = VarlinkFrameDecoder(maxMessageBytes: limit)
        decoder.append(message.prefix(limit + 1))
        #expect(throws: VarlinkProtocolError.messageTooLarge(limit: limit)) { try decoder.nextFrame() }
        // The stream cannot recover: a later NUL does not make the decoder usable again.
        decoder.append(bytes("{}") + [0])
        #expect(throws: VarlinkProtocolError.messageTooLarge(limit: limit)) { try decoder.nextFrame() }
    }

    @Test("garbage without a NUL is bounded by the limit")
    func garbageWithoutTerminator() throws {
        var decoder = VarlinkFrameDecoder(maxMessageBytes: 1000)
        var failed = false
        for _ in 0..<100 {
            decoder.append((0..<100).map { UInt8(truncatingIfNeeded: $0 | 1) })
            do {
                _ = try decoder.nextFrame()
            } catch {
                failed = true
                break
            }
            #expect(decoder.pendingByteCount <= 1000)
        }
        #expect(failed)
    }
}

@Suite("Call parsing")
struct CallParsingTests {
    private func parse(_ text: String) throws(VarlinkProtocolError) -> VarlinkCall {
        try VarlinkCall.parse(Array(text.utf8))
    }

    @Test("a plain call")
    func plainCall() throws {
        let call = try parse(#"{"method":"io.photod.Library.ListGroups","parameters":{}}"#)
        #expect(call.method == "io.photod.Library.ListGroups")
        #expect(call.interface == "io.photod.Library")
        #expect(call.methodName == "ListGroups")
        #expect(!call.oneway && !call.more && !call.upgrade)
    }

    @Test("flags")
    func flags() throws {
        #expect(try parse(#"{"method":"a.B","more":true}"#).more)
        #expect(try parse(#"{"method":"a.B","oneway":true}"#).oneway)
        #expect(try parse(#"{"method":"a.B","upgrade":true}"#).upgrade)
        let falseFlags = try parse(#"{"method":"a.B","more":false,"oneway":false,"upgrade":false}"#)
        #expect(!falseFlags.more && !falseFlags.oneway && !falseFlags.upgrade)
    }

    @Test("conflicting flags", arguments: [
        #"{"method":"a.B","more":true,"oneway":true}"#,
        #"{"method":"a.B","more":true,"upgrade":true}"#,
        #"{"method":"a.B","oneway":true,"upgrade":true}"#,
        #"{"method":"a.B","oneway":true,"more":true,"upgrade":true}"#,
    ])
    func conflictingFlags(_ text: String) {
        #expect(throws: VarlinkProtocolError.conflictingFlags) { try parse(text) }
    }

    @Test("empty frame is invalid JSON")
    func emptyFrame() {
        #expect(throws: VarlinkProtocolError.invalidJSON) { try VarlinkCall.parse([]) }
    }

    @Test("invalid JSON", arguments: [#"{"method":"a.B""#, "garbage", #"{"method":'a.B'}"#, "{,}",
        #"{"method":"a.B","parameters":{"x":[1,}}"#, #"{"method":"a.B"} trailing"#,
    ])
    func invalidJSON(_ text: String) {
        #expect(throws: VarlinkProtocolError.invalidJSON) { try parse(text) }
    }

    @Test("invalid UTF-8 is invalid JSON")
    func invalidUTF8() {
        let frame = Array(#"{"method":"a.B","parameters":{"x":""#.utf8) + [0xC3, 0x28, 0xFF] + Array(#""}}"#.utf8)
        #expect(throws: VarlinkProtocolError.invalidJSON) { try VarlinkCall.parse(frame) }
    }

    @Test("non-objects", arguments: ["[1,2]", "42", #""a.B""#, "null", "true"])
    func nonObject(_ text: String) {
        #expect(throws: VarlinkProtocolError.notAnObject) { try parse(text) }
    }

    @Test("missing or non-string method", arguments: [
        "{}", #"{"parameters":{}}"#, #"{"method":42}"#, #"{"method":null}"#, #"{"method":""}"#,
    ])
    func missingMethod(_ text: String) {
        #expect(throws: VarlinkProtocolError.missingMethod) { try parse(text) }
    }
}
