import Foundation
import PhotoAPI
import PhotoClient
import PhotoTestSupport
import Testing

/// PhotoClient's image calls and OriginalsClient against the real photod.
@Suite(.serialized) struct OriginalsClientTests {
    private func daemonWithPhoto() async throws -> (DaemonHarness, String) {
        let daemon = try DaemonHarness()
        try daemon.add("a.jpg", ThumbnailedPhoto.jpeg())
        try await daemon.start()
        return await (daemon, try #require(try daemon.photoctlJSON(["list"]).ids(relativeTo: daemon.library)["a.jpg"]))
    }

    @Test func openOriginalPassesAReadableDescriptorOfTheFile() async throws {
        let (daemon, id) = try await daemonWithPhoto()
        let original = try OriginalsClient.openOriginal(id: id, socketPath: daemon.socket)
        #expect(original.reply.name == "a.jpg")
        #expect(original.reply.size == ThumbnailedPhoto.jpeg().count)
        let descriptor = try #require(original.fileDescriptor)
        var bytes = [UInt8](repeating: 0, count: original.reply.size + 1)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        #expect(Array(bytes.prefix(max(count, 0))) == ThumbnailedPhoto.jpeg())
    }

    @Test func withoutAcceptingDescriptorsTheHintPointsToRequestImage() async throws {
        let (daemon, id) = try await daemonWithPhoto()
        let client = try OriginalsClient.connect(socketPath: daemon.socket)
        defer { client.close() }
        let thrown = #expect(throws: PhotoClientError.self) {
            _ = try client.call(OpenOriginalParameters(id: id, acceptFileDescriptors: nil))
        }
        guard case .daemon(let error)? = thrown else {
            Issue.record("expected an error reply, got \(String(describing: thrown))")
            return
        }
        #expect(error.name == LibraryInterface.Error.fileDescriptorsRequired)
        #expect(error.parameters(FileDescriptorsRequiredError.self)?.hint.contains("RequestImage") == true)
        // An error reply leaves the connection usable.
        #expect(try client.open(id: id).reply.name == "a.jpg")
    }

    @Test func anUnknownIdIsAssetNotFound() async throws {
        let (daemon, _) = try await daemonWithPhoto()
        let thrown = #expect(throws: PhotoClientError.self) {
            _ = try OriginalsClient.openOriginal(id: "00000000deadbeef", socketPath: daemon.socket)
        }
        guard case .daemon(let error)? = thrown else {
            Issue.record("expected an error reply, got \(String(describing: thrown))")
            return
        }
        #expect(error.name == LibraryInterface.Error.assetNotFound)
        #expect("\(thrown.map(String.init(describing:)) ?? "")".contains("00000000deadbeef"))
    }

    @Test func requestImageFastIsTheEmbeddedThumbnail() async throws {
        let (daemon, id) = try await daemonWithPhoto()
        let client = try await PhotoClient.connect(socketPath: daemon.socket)
        let reply = try await client.requestImage(RequestImageParameters(id: id, width: 160, height: 160,
                                                                         deliveryMode: .fast))
        #expect(reply.source == .embedded)
        #expect(Data(base64Encoded: reply.data).map(Array.init) == ThumbnailedPhoto.thumbnail)
        var streamed: [RequestImageReply] = []
        for try await image in client.requestImages(RequestImageParameters(id: id, width: 160, height: 160,
                                                                           deliveryMode: .fast)) {
            streamed.append(image)
        }
        #expect(streamed == [reply])
        await client.close()
    }
}
