import Foundation
import PhotoAPI
import PhotoClient
import PhotoTestSupport
import Testing

/// The real photod and its sandboxed workers over every corpus file, against an independent
/// oracle: the vips command line (`vipsthumbnail -s '256x256>'`, libvips-tools, unsandboxed).
/// Every file it thumbnails with a loader photod allows (JPEG, PNG, TIFF, WebP, GIF, HEIF/AVIF,
/// JPEG XL, JPEG 2000) photod thumbnails too, at exactly the same size; every other file gets a
/// clear ImageUnavailable; no file takes a worker's failure further than its own request.
@Suite(.serialized)
struct ImageConformanceTests {
    /// The loaders photod's worker keeps (ImageMagick, PDF, SVG and the like are blocked).
    static let allowedLoaders = ["jpegload", "pngload", "webpload", "tiffload", "gifload", "heifload", "jxlload", "jp2kload"]

    /// What the vips command line makes of `path`: its size, or nil when it cannot (or only
    /// with a loader photod blocks).
    static func oracle(_ path: String, scratch: String) async throws -> (width: Int, height: Int)? {
        let loader = try await ProcessRunner.run("/usr/bin/vipsheader", ["-f", "vips-loader", path])
        let name = loader.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard loader.status == 0, allowedLoaders.contains(where: name.hasPrefix) else { return nil }
        let output = scratch + "/oracle.png"
        try? FileManager.default.removeItem(atPath: output)
        guard try await ProcessRunner.run("/usr/bin/vipsthumbnail", [path, "-s", "256x256>", "-o", output]).status == 0,
            let width = await Int(try ProcessRunner.run("/usr/bin/vipsheader", ["-f", "width", output]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)),
            let height = await Int(try ProcessRunner.run("/usr/bin/vipsheader", ["-f", "height", output]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines))
        else { return nil }
        return (width, height)
    }

    @Test(.enabled(if: Corpus.available, "../shared/corpus is not beside this checkout; conformance skipped"))
    func photodThumbnailsEveryFileTheVipsCommandLineCanAtTheSameSize() async throws {
        let daemon = try DaemonHarness()
        let images = Corpus.folder.appendingPathComponent("images").path
        for name in try FileManager.default.contentsOfDirectory(atPath: images) {
            try FileManager.default.copyItem(atPath: images + "/" + name, toPath: daemon.library + "/" + name)
        }
        try await daemon.start(timeout: 120)
        let client = try await PhotoClient.connect(socketPath: daemon.socket)
        let assets = try await client.allAssets(group: nil)
        await client.close()
        #expect(assets.count == (try Corpus.manifest()).count)
        // A few lanes, each with its own connection and scratch file: one file at a time leaves a
        // core idle while each child process starts, and this test is the longest of the run.
        let sorted = assets.sorted(by: { $0.path < $1.path })
        let lanes = 3
        let (socket, scratch) = (daemon.socket, daemon.dir.path)
        let results = try await withThrowingTaskGroup(of: Lane.self) { group in
            for lane in 0..<lanes {
                let share = stride(from: lane, to: sorted.count, by: lanes).map { sorted[$0] }
                group.addTask { try await Self.thumbnail(share, socket: socket, scratch: scratch + "/lane\(lane)") }
            }
            return try await group.reduce(into: Lane()) { $0.merge($1) }
        }
        let (problems, madeByFormat, refused) = (results.problems, results.madeByFormat, results.refused)
        #expect(daemon.isRunning, "no file may take photod down")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        for format in ["jpeg", "png", "tiff", "webp", "gif", "heif", "avif", "jxl", "jp2"] {
            #expect(madeByFormat[format, default: 0] > 0, "no \(format) thumbnail made: \(madeByFormat)")
        }
        let status = try await daemon.photoctlJSON(["status"])
        #expect(((status["thumbnails"] as? [String: Any])?["failed"] as? Int) == refused)
        print("image conformance: made \(madeByFormat), refused \(refused)")
    }

    /// What one lane of the corpus found.
    struct Lane: Sendable {
        var problems: [String] = []
        var madeByFormat: [String: Int] = [:]
        var refused = 0

        mutating func merge(_ other: Lane) {
            problems += other.problems
            madeByFormat.merge(other.madeByFormat, uniquingKeysWith: +)
            refused += other.refused
        }
    }

    /// Asks photod for a thumbnail of each of `assets` over its own connection and compares it
    /// with the oracle's, the image's own size and the refusals the oracle agrees with.
    static func thumbnail(_ assets: [Asset], socket: String, scratch: String) async throws -> Lane {
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let client = try await PhotoClient.connect(socketPath: socket)
        var lane = Lane()
        for asset in assets {
            let name = (asset.path as NSString).lastPathComponent
            let expected = try await oracle(asset.path, scratch: scratch)
            do {
                let reply = try await client.requestImage(RequestImageParameters(id: asset.id, width: 256, height: 256))
                lane.madeByFormat[asset.format, default: 0] += 1
                let probe = try await PillowFixture.probe(Array(Data(base64Encoded: reply.data) ?? Data()), points: [])
                if probe.width != reply.width || probe.height != reply.height {
                    lane.problems.append("\(name): the reply says \(reply.width)x\(reply.height), the image is \(probe.width)x\(probe.height)")
                }
                if let expected, (expected.width, expected.height) != (reply.width, reply.height) {
                    lane.problems.append("\(name): \(reply.width)x\(reply.height), vipsthumbnail \(expected.width)x\(expected.height)")
                }
            } catch PhotoClientError.daemon(let error) where error.name == LibraryInterface.Error.imageUnavailable {
                lane.refused += 1
                if let expected {
                    lane.problems.append("\(name): refused (\(error.parameters(ImageUnavailableError.self)?.reason ?? "?")), "
                                         + "vipsthumbnail made \(expected.width)x\(expected.height)")
                }
            }
        }
        await client.close()
        return lane
    }

    /// `fast` on a HEIC that carries a thumbnail item (as iPhones write them) scales that item,
    /// not the full picture: `source` says embedded.
    @Test(.enabled(if: Corpus.available, "../shared/corpus is not beside this checkout; conformance skipped"))
    func fastUsesAHEICsThumbnailItem() async throws {
        let daemon = try DaemonHarness()
        let images = Corpus.folder.appendingPathComponent("images").path
        for name in ["ep_heic_spring_1440x960.heic", "me_heic_cheers_1440x960.heic"] {
            try FileManager.default.copyItem(atPath: images + "/" + name, toPath: daemon.library + "/" + name)
        }
        try await daemon.start()
        let client = try await PhotoClient.connect(socketPath: daemon.socket)
        let assets = try await client.allAssets(group: nil)
        #expect(assets.count == 2)
        for asset in assets {
            let fast = try await client.requestImage(RequestImageParameters(id: asset.id, width: 128, height: 128,
                                                                            deliveryMode: .fast))
            #expect(fast.source == .embedded && fast.width == 128 && fast.height == 85, "\(asset.path): \(fast.source)")
            let full = try await client.requestImage(RequestImageParameters(id: asset.id, width: 128, height: 128,
                                                                            format: .jpeg))
            #expect(full.source == .decoded && full.width == 128)
        }
        await client.close()
    }
}
