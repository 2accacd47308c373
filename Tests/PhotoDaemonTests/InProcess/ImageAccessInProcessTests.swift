import Foundation
import PhotoAPI
import PhotoClient
import PhotoTestSupport
import Testing
import Varlink
@testable import PhotoDaemon

/// RequestImage and OpenOriginal for a limited app: an id outside its selection is refused
/// exactly like an id that does not exist, so the refusal tells it nothing.
@Suite struct ImageAccessInProcessTests {
    private static let thumbnail = JPEGFixture.make(exif: nil, width: 160, height: 120)
    private static let unknown = "00000000deadbeef"

    private static func photo(_ description: String) -> [UInt8] {
        JPEGFixture.make(exif: ExifFixture(description: description, thumbnail: thumbnail), width: 640, height: 480)
    }

    /// The error reply `body` threw, or nil (recorded as an issue) when it threw none or another.
    private func daemonError(_ body: () async throws -> Void) async -> VarlinkError? {
        do {
            try await body()
            Issue.record("the call succeeded")
        } catch PhotoClientError.daemon(let error) {
            return error
        } catch {
            Issue.record("expected an error reply, got \(error)")
        }
        return nil
    }

    /// The error's parameters with `id` written as `unknown`: equal for a hidden and an unknown id.
    private func parameters(_ error: VarlinkError?, naming id: String) -> String {
        String(decoding: error?.parametersJSON ?? [], as: UTF8.self).replacingOccurrences(of: id, with: Self.unknown)
    }

    @Test func aLimitedAppGetsItsSelectionAndHiddenIdsLookUnknown() async throws {
        try await TestDaemon.withDaemon(prepare: { daemon in
            try daemon.add("beach.jpg", Self.photo("Beach"))
            try daemon.add("hike.jpg", Self.photo("Hike"))
        }) { daemon in
            let owner = try await daemon.client()
            let ids = Dictionary(uniqueKeysWithValues: try await owner.allAssets(group: nil).map {
                (($0.path as NSString).lastPathComponent, $0.id)
            })
            let hidden = try #require(ids["beach.jpg"])
            let selected = try #require(ids["hike.jpg"])
            let viewer = "exe:/usr/bin/viewer"
            _ = try await owner.decide(app: viewer, status: .limited, groups: ["Hike"])
            await owner.close()

            let app = try await daemon.client(as: TestDaemon.app(viewer))
            func image(_ id: String) async throws -> RequestImageReply {
                try await app.requestImage(RequestImageParameters(id: id, width: 160, height: 160, deliveryMode: .fast))
            }
            let hiddenImage = await daemonError { _ = try await image(hidden) }
            let unknownImage = await daemonError { _ = try await image(Self.unknown) }
            #expect(hiddenImage?.name == LibraryInterface.Error.assetNotFound)
            #expect(hiddenImage?.name == unknownImage?.name)
            #expect(parameters(hiddenImage, naming: hidden) == parameters(unknownImage, naming: Self.unknown))
            let shown = try await image(selected)
            #expect(shown.source == .embedded)
            #expect(Data(base64Encoded: shown.data).map(Array.init) == Self.thumbnail)
            await app.close()

            let originals = try await daemon.originals(as: TestDaemon.app(viewer))
            defer { originals.close() }
            let hiddenOriginal = await daemonError { _ = try originals.open(id: hidden) }
            let unknownOriginal = await daemonError { _ = try originals.open(id: Self.unknown) }
            #expect(hiddenOriginal?.name == LibraryInterface.Error.assetNotFound)
            #expect(hiddenOriginal?.name == unknownOriginal?.name)
            #expect(parameters(hiddenOriginal, naming: hidden) == parameters(unknownOriginal, naming: Self.unknown))
            let opened = try originals.open(id: selected)
            #expect(opened.reply.name == "hike.jpg")
            let descriptor = try #require(opened.fileDescriptor)
            var bytes = [UInt8](repeating: 0, count: opened.reply.size + 1)
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            #expect(Array(bytes.prefix(max(count, 0))) == Self.photo("Hike"))
        }
    }
}
