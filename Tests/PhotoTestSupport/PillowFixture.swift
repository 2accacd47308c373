import Foundation

/// Real, decodable images made by Python's Pillow (python3-pil), and their pixels read back,
/// for tests that need an image a decoder accepts (the fixtures in this module only look real
/// to metadata readers).
///
/// The picture is asymmetric so orientation mistakes show: upright it is red on the left half,
/// blue on the right, with a green top-left quadrant. With `orientation` the stored pixels are
/// turned so that applying that EXIF orientation makes the picture upright again.
public enum PillowFixture {
    /// What a probe of an image found.
    public struct Probe: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var format: String
        /// Colour names ("red", "green", "blue", "other") at the probe points, in order.
        public var colours: [String]
    }

    /// Probe points as fractions of the width and height: top-left, top-right, bottom-left, bottom-right.
    public static let corners: [(Double, Double)] = [(0.15, 0.15), (0.85, 0.15), (0.15, 0.85), (0.85, 0.85)]
    /// The colours an upright picture shows at `corners`.
    public static let uprightCorners = ["green", "blue", "red", "blue"]

    /// Writes an image of `width`x`height` (as displayed) to `path` in `format` (JPEG, PNG,
    /// WEBP, TIFF, GIF), with the EXIF orientation and description given.
    public static func write(_ path: String, width: Int, height: Int, format: String = "JPEG",
                             orientation: Int? = nil, description: String? = nil) async throws {
        let script = """
            import sys
            from PIL import Image
            path, w, h, fmt, orientation, description = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), sys.argv[6]
            im = Image.new("RGB", (w, h), (220, 0, 0))
            im.paste((0, 0, 220), (w // 2, 0, w, h))
            im.paste((0, 200, 0), (0, 0, w // 2, h // 2))
            inverse = {2: Image.FLIP_LEFT_RIGHT, 3: Image.ROTATE_180, 4: Image.FLIP_TOP_BOTTOM, 5: Image.TRANSPOSE,
                       6: Image.ROTATE_90, 7: Image.TRANSVERSE, 8: Image.ROTATE_270}
            if orientation in inverse:
                im = im.transpose(inverse[orientation])
            exif = Image.Exif()
            if orientation:
                exif[0x0112] = orientation
            if description:
                exif[0x010E] = description
            options = {"exif": exif.tobytes()} if fmt in ("JPEG", "PNG", "WEBP", "TIFF") and (orientation or description) else {}
            if fmt == "GIF":
                im = im.convert("P")
            im.save(path, fmt, **options)
            """
        try await run(script, [path, "\(width)", "\(height)", format, "\(orientation ?? 0)", description ?? ""])
    }

    /// Runs a Pillow `script` with `arguments` as sys.argv[1...] and returns what it printed.
    /// Always Debian's /usr/bin/python3, the interpreter python3-pil (scripts/install-deps
    /// --test) installs Pillow for, never whichever python3 comes first on PATH.
    @discardableResult
    public static func run(_ script: String, _ arguments: [String] = [], timeout: TimeInterval = 60) async throws -> String {
        let result = try await ProcessRunner.run("/usr/bin/python3", ["-c", script] + arguments, timeout: timeout)
        guard result.status == 0 else { throw PillowError(stderr: result.stderr + result.stdout) }
        return result.stdout
    }

    /// Decodes `bytes` with Pillow and names the colours at `points`.
    public static func probe(_ bytes: [UInt8], points: [(Double, Double)] = corners) async throws -> Probe {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pillow-probe-\(UUID().uuidString)")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1])
            fmt = im.format
            im = im.convert("RGB")
            names = []
            for pair in sys.argv[2:]:
                fx, fy = (float(v) for v in pair.split(","))
                r, g, b = im.getpixel((int(fx * im.width), int(fy * im.height)))
                names.append("red" if r > 150 and g < 90 and b < 90 else "green" if g > 130 and r < 90 and b < 90
                              else "blue" if b > 150 and r < 90 and g < 90 else "other")
            print(im.width, im.height, fmt, *names)
            """
        let output = try await run(script, [file.path] + points.map { "\($0.0),\($0.1)" })
        let fields = output.split(separator: " ").map(String.init)
        guard fields.count == 3 + points.count, let width = Int(fields[0]), let height = Int(fields[1])
        else { throw PillowError(stderr: "unreadable: " + output) }
        return Probe(width: width, height: height, format: fields[2].trimmingCharacters(in: .whitespacesAndNewlines),
                     colours: fields[3...].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
    }
}

/// Pillow failed (python3-pil missing: scripts/install-deps --test installs it).
public struct PillowError: Error, CustomStringConvertible {
    public var stderr: String
    public var description: String { "python3 with Pillow failed: \(stderr)" }

    /// The failure with what Python said (or what could not be read).
    public init(stderr: String) { self.stderr = stderr }
}
