import Testing
@testable import ThumbnailProtocol

@Suite struct FrameCodingTests {
    static let request = ThumbnailRequest(id: 0x0102_0304_0506_0708, mode: .embedded, fit: .fill, format: .png,
                                          wantsCacheCopy: true, width: 256, height: 2048, jpegQuality: 90)
    static let response = ThumbnailResponse(
        id: 42, status: .ok, format: .jpeg, usedEmbedded: true, width: 256, height: 171, sourceWidth: 600,
        sourceHeight: 400, peakRSSKiB: 123_456, image: Array(0..<200).map { UInt8($0) }, cache: [9, 8, 7])

    @Test func requestLayoutIsTheDocumentedOne() {
        let bytes = Self.request.encode()
        #expect(bytes.count == 40)
        #expect(Array(bytes[0..<4]) == Array("PTR1".utf8))
        #expect(Array(bytes[4..<8]) == [32, 0, 0, 0])
        #expect(Array(bytes[8..<16]) == [8, 7, 6, 5, 4, 3, 2, 1])
        #expect(Array(bytes[16..<20]) == [1, 1, 1, 1])
        #expect(Array(bytes[20..<24]) == [0, 1, 0, 0])
        #expect(Array(bytes[24..<28]) == [0, 8, 0, 0])
        #expect(Array(bytes[28..<32]) == [90, 0, 0, 0])
        #expect(Array(bytes[32..<40]) == [0, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func requestRoundTrips() throws {
        var decoder = ThumbnailFrameDecoder<ThumbnailRequest>()
        let frames = try decoder.feed(Self.request.encode() + Self.request.encode())
        #expect(frames == [Self.request, Self.request])
        #expect(decoder.bufferedCount == 0)
    }

    @Test func responseRoundTrips() throws {
        var decoder = ThumbnailFrameDecoder<ThumbnailResponse>()
        let bytes = Self.response.encode()
        #expect(bytes.count == 8 + 44 + 203)
        #expect(Array(bytes[4..<8]) == [247, 0, 0, 0])
        #expect(try decoder.feed(bytes) == [Self.response])
    }

    @Test func everySplitOfTwoFramesDecodesTheSame() throws {
        let stream = Self.response.encode() + ThumbnailResponse.hello("hi", peakRSSKiB: 1).encode()
        for split in 0...stream.count {
            var decoder = ThumbnailFrameDecoder<ThumbnailResponse>()
            let frames = try decoder.feed(stream[..<split]) + decoder.feed(stream[split...])
            #expect(frames.count == 2, "split at \(split)")
            #expect(frames.first == Self.response)
        }
    }

    @Test func byteByByteFeedingYieldsEachFrameOnItsLastByte() throws {
        let frame = Self.request.encode()
        var decoder = ThumbnailFrameDecoder<ThumbnailRequest>()
        for (index, byte) in (frame + frame).enumerated() {
            let frames = try decoder.feed([byte])
            #expect(frames.count == ((index + 1) % frame.count == 0 ? 1 : 0), "byte \(index)")
        }
    }

    @Test func failureMessagesAreCleanedAndBounded() throws {
        let response = ThumbnailResponse.failure(id: 7, status: .undecodable,
                                                 message: "bad\u{1B}[31m\nfile " + String(repeating: "é", count: 900),
                                                 peakRSSKiB: 0)
        #expect(response.image.count <= 1024)
        #expect(response.message.hasPrefix("bad [31m file é"))
        #expect(!response.message.unicodeScalars.contains { $0.properties.generalCategory == .control })
        var decoder = ThumbnailFrameDecoder<ThumbnailResponse>()
        #expect(try decoder.feed(response.encode()) == [response])
    }
}
