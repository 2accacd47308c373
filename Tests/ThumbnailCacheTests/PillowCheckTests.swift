import FileSystem
import Foundation
import PhotoTestSupport
import Testing
import ThumbnailCache

/// An independent reader's view of what the cache writes: Python's Pillow (python3-pil, in
/// `scripts/install-deps --test`) decodes the whole image and lists its text chunks.
@Suite struct PillowCheckTests {
    private static let script = """
        import json, sys
        from PIL import Image
        im = Image.open(sys.argv[1])
        im.load()
        print(json.dumps({"format": im.format, "size": list(im.size), "text": im.text}))
        """

    private func pillow(_ path: String) async throws -> [String: Any] {
        let output = try await PillowFixture.run(Self.script, [path])
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8))
        return try #require(object as? [String: Any])
    }

    @Test func storedThumbnailPassesTheStandard() async throws {
        let fixture = try CacheFixture()
        let source = "/home/jens/photos/été 1#.png"
        try fixture.cache.store(png: CacheFixture.thumbnail(width: 256, height: 170), path: PathBytes(source),
                                mtime: 1_712_345_678, fileSize: 4_567_890, size: .large)
        let seen = try await pillow(fixture.thumbnailPath(source, .large))
        #expect(seen["format"] as? String == "PNG")
        #expect(seen["size"] as? [Int] == [256, 170])
        let text = try #require(seen["text"] as? [String: String])
        #expect(text["Thumb::URI"] == "file:///home/jens/photos/%C3%A9t%C3%A9%201%23.png")
        #expect(text["Thumb::MTime"] == "1712345678")
        #expect(text["Thumb::Size"] == "4567890")
        #expect(text["Software"] == "photod 1.2")
    }

    @Test func failureMarkerDecodes() async throws {
        let fixture = try CacheFixture()
        let source = PathBytes("/photos/broken.cr3")
        try fixture.cache.markFailed(path: source, mtime: 42, fileSize: 9)
        let marker = String(decoding: try #require(fixture.cache.failureMarkerPath(path: source)), as: UTF8.self)
        let seen = try await pillow(marker)
        #expect(seen["size"] as? [Int] == [1, 1])
        let text = try #require(seen["text"] as? [String: String])
        #expect(text["Thumb::URI"] == "file:///photos/broken.cr3")
        #expect(text["Thumb::MTime"] == "42")
        #expect(text["Thumb::Size"] == "9")
    }
}
