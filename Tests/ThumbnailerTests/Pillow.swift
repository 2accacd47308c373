import Foundation
import PhotoTestSupport

/// Makes fixtures and reads results back with Python Pillow, an implementation independent of libvips.
/// Runs through `PillowFixture.run`, so both test modules use the same interpreter.
enum Pillow {
    /// Runs `script` with `arguments` as sys.argv[1...]; returns its stdout.
    @discardableResult
    static func run(_ script: String, _ arguments: [String] = []) async throws -> String {
        try await PillowFixture.run(script, arguments, timeout: 120)
    }

    /// Writes a `width`×`height` image with a horizontal gradient (so encoders cannot shortcut it) to `path`.
    static func gradient(_ path: String, width: Int, height: Int, format: String) async throws {
        try await run("""
            import sys
            from PIL import Image
            w, h = int(sys.argv[2]), int(sys.argv[3])
            row = Image.linear_gradient('L').rotate(90).resize((w, h))
            im = Image.merge('RGB', (row, row.transpose(Image.Transpose.FLIP_LEFT_RIGHT), row))
            im.save(sys.argv[1], sys.argv[4])
            """, [path, String(width), String(height), format])
    }

    /// The size of an encoded image and its RGB values at `probes` (x, y), decoded by Pillow.
    static func inspect(_ bytes: [UInt8], in folder: TemporaryDirectory,
                        probes: [(Int, Int)] = []) async throws -> (width: Int, height: Int, pixels: [[Int]]) {
        let path = try folder.write("result-\(UUID().uuidString)", bytes)
        let output = try await run("""
            import sys, json
            from PIL import Image
            im = Image.open(sys.argv[1]).convert('RGB')
            probes = json.loads(sys.argv[2])
            print(json.dumps([im.size[0], im.size[1], [list(im.getpixel(tuple(p))) for p in probes]]))
            """, [path, "[" + probes.map { "[\($0.0),\($0.1)]" }.joined(separator: ",") + "]"])
        guard let json = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [Any],
              json.count == 3, let width = json[0] as? Int, let height = json[1] as? Int,
              let pixels = json[2] as? [[Int]] else { throw PillowError(stderr: "unreadable: \(output)") }
        return (width, height, pixels)
    }
}
