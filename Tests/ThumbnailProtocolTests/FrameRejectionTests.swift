import Testing
@testable import ThumbnailProtocol

@Suite struct FrameRejectionTests {
    private func requestError(_ bytes: [UInt8]) -> ThumbnailProtocolError? {
        var decoder = ThumbnailFrameDecoder<ThumbnailRequest>()
        do { _ = try decoder.feed(bytes) } catch { return error }
        return nil
    }

    private func responseError(_ bytes: [UInt8]) -> ThumbnailProtocolError? {
        var decoder = ThumbnailFrameDecoder<ThumbnailResponse>()
        do { _ = try decoder.feed(bytes) } catch { return error }
        return nil
    }

    private func setU32(_ bytes: inout [UInt8], at offset: Int, _ value: UInt32) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    @Test func badMagicIsCaughtOnTheFirstWrongByte() {
        #expect(requestError(Array("PX".utf8)) == .badMagic(Array("PX".utf8)))
        #expect(requestError(ThumbnailResponse.hello("x", peakRSSKiB: 0).encode()) == .badMagic(Array("PTW1".utf8)))
        #expect(responseError(ThumbnailRequest(id: 1, width: 1, height: 1).encode()) == .badMagic(Array("PTR1".utf8)))
    }

    @Test func requestLengthMustBe32() {
        var bytes = ThumbnailRequest(id: 1, width: 1, height: 1).encode()
        setU32(&bytes, at: 4, 28)
        #expect(requestError(bytes) == .badLength(declared: 28, allowed: 32...32))
        // The header alone is enough to refuse: nothing of the body is waited for.
        setU32(&bytes, at: 4, 0xFFFF_FFFF)
        #expect(requestError(Array(bytes[0..<8])) == .badLength(declared: 0xFFFF_FFFF, allowed: 32...32))
    }

    @Test func oversizeResponseIsRefusedFromItsHeader() {
        let max: UInt64 = 48 << 20
        var header = Array("PTW1".utf8) + [0, 0, 0, 0]
        setU32(&header, at: 4, UInt32(max + 1))
        #expect(responseError(header) == .badLength(declared: max + 1, allowed: 44...max))
        setU32(&header, at: 4, 43)
        #expect(responseError(header) == .badLength(declared: 43, allowed: 44...max))
    }

    @Test func responsePayloadLengthsMustAddUpBeforeThePayloadArrives() {
        var bytes = ThumbnailResponse(id: 3, status: .ok, image: [1, 2, 3]).encode()
        setU32(&bytes, at: 8 + 36, 4)
        #expect(responseError(Array(bytes[0..<52])) == .badField(name: "imageLength + cacheLength", value: 4))
        var big = ThumbnailResponse(id: 3, status: .ok).encode()
        setU32(&big, at: 4, 48 << 20)
        setU32(&big, at: 8 + 36, 0xFFFF_FFFF)
        setU32(&big, at: 8 + 40, 0xFFFF_FFFF)
        #expect(responseError(big) == .badField(name: "imageLength + cacheLength", value: 0x1_FFFF_FFFE))
    }

    @Test func failureMessagesLongerThan1024AreRefused() {
        let long = ThumbnailResponse(id: 3, status: .undecodable, image: [UInt8](repeating: 65, count: 1025))
        #expect(responseError(long.encode()) == .badField(name: "message length", value: 1025))
        let withCache = ThumbnailResponse(id: 3, status: .badRequest, image: [65], cache: [1])
        #expect(responseError(withCache.encode()) == .badField(name: "cacheLength", value: 1))
    }

    @Test(arguments: [
        (16, 2, "mode"), (17, 2, "fit"), (18, 2, "format"), (19, 2, "flags"),
    ])
    func outOfRangeRequestBytesAreRefused(offset: Int, value: UInt8, name: String) {
        var bytes = ThumbnailRequest(id: 1, width: 10, height: 10).encode()
        bytes[offset] = value
        #expect(requestError(bytes) == .badField(name: name, value: UInt64(value)))
    }

    @Test(arguments: [
        (20, 0, "width"), (20, 2049, "width"), (24, 0, "height"), (24, 4096, "height"),
        (28, 0, "jpegQuality"), (28, 101, "jpegQuality"), (32, 1, "reserved"), (36, 1, "reserved"),
    ])
    func outOfRangeRequestFieldsAreRefused(offset: Int, value: UInt32, name: String) {
        var bytes = ThumbnailRequest(id: 1, width: 10, height: 10).encode()
        setU32(&bytes, at: offset, value)
        let expected: UInt64 = offset == 36 ? UInt64(value) << 32 : UInt64(value)
        #expect(requestError(bytes) == .badField(name: name, value: expected))
    }

    @Test(arguments: [(16, 3, "status"), (17, 2, "format"), (18, 2, "flags"), (19, 1, "reserved")])
    func outOfRangeResponseBytesAreRefused(offset: Int, value: UInt8, name: String) {
        var bytes = ThumbnailResponse(id: 1, status: .ok, image: [1]).encode()
        bytes[offset] = value
        #expect(responseError(bytes) == .badField(name: name, value: UInt64(value)))
    }

    @Test func aFailedDecoderStaysFailed() throws {
        var decoder = ThumbnailFrameDecoder<ThumbnailRequest>()
        #expect(throws: ThumbnailProtocolError.self) { try decoder.feed(Array("XXXX".utf8)) }
        #expect(throws: ThumbnailProtocolError.self) { try decoder.feed(ThumbnailRequest(id: 1, width: 1, height: 1).encode()) }
    }
}
