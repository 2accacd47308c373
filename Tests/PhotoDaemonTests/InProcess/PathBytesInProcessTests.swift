import Foundation
import PhotoAPI
import PhotoClient
import PhotoTestSupport
import Testing
import Varlink
@testable import PhotoDaemon

/// `GetAssets` with `pathBytes`: a path that is not UTF-8 found by its exact bytes, served in
/// process, as the owner and as a limited app.
@Suite struct PathBytesInProcessTests {
    private static let viewer = "exe:/usr/bin/viewer"
    /// `latin1-\xE9t\xE9.jpg` and `latin1-\xE8t\xE8.jpg`, which read the same once repaired.
    private static let names: [[UInt8]] = [0xE9, 0xE8].map { Array("latin1-".utf8) + [$0, 0x74, $0] + Array(".jpg".utf8) }

    private static func prepare(_ daemon: TestDaemon) throws {
        for (index, name) in names.enumerated() {
            let plain = try daemon.add("plain\(index).jpg", TestPhoto.jpeg("photo \(index)"))
            let exact = (Array(daemon.library.utf8) + [UInt8(ascii: "/")] + name).map { CChar(bitPattern: $0) } + [0]
            guard rename(plain, exact) == 0 else { throw POSIXError(.EIO) }
        }
    }

    private func base64(_ library: String, _ name: [UInt8]) -> String {
        Data(Array(library.utf8) + [UInt8(ascii: "/")] + name).base64EncodedString()
    }

    private func refusal(_ call: () async throws -> some Any) async -> VarlinkError? {
        do {
            _ = try await call()
            return nil
        } catch PhotoClientError.daemon(let error) {
            return error
        } catch {
            return nil
        }
    }

    @Test func eachLatin1PathIsFoundByItsBytesAndAHiddenOneIsMissingLikeAnUnknownOne() async throws {
        try await TestDaemon.withDaemon(prepare: Self.prepare) { daemon in
            let owner = try await daemon.client()
            let wanted = Self.names.map { base64(daemon.library, $0) }
            let unknown = base64(daemon.library, Array("gone-".utf8) + [0xE9])
            let reply = try await owner.getAssets(ids: [], pathBytes: wanted + [unknown])
            #expect(reply.assets.count == 2 && Set(reply.assets.map(\.id)).count == 2)
            #expect(reply.assets.map(\.pathBytes) == wanted.map { Optional($0) }, "each is the photo at those exact bytes")
            #expect(reply.missing.isEmpty && reply.missingPathBytes == [unknown])
            #expect(try await owner.getAssets(ids: []).missingPathBytes == nil, "absent when not asked")

            _ = try await owner.decide(app: Self.viewer, status: .limited, assets: [reply.assets[0].id])
            let app = try await daemon.client(as: TestDaemon.app(Self.viewer))
            let limited = try await app.getAssets(ids: [], pathBytes: wanted + [unknown])
            #expect(limited.assets.map(\.id) == [reply.assets[0].id])
            #expect(limited.missingPathBytes == [wanted[1], unknown], "hidden and unknown alike")
            for client in [owner, app] { await client.close() }
        }
    }

    @Test func pathBytesAreBounded() async throws {
        try await TestDaemon.withDaemon(prepare: Self.prepare) { daemon in
            let owner = try await daemon.client()
            let one = base64(daemon.library, Self.names[0])
            let tooLong = Data(repeating: UInt8(ascii: "a"), count: 4097).base64EncodedString()
            for bad in [["not base64!"], [""], [tooLong], Array(repeating: one, count: 10_001)] {
                let error = await refusal { try await owner.getAssets(ids: [], pathBytes: bad) }
                #expect(error?.parameters(InvalidParameterError.self)?.parameter == "pathBytes", "\(bad.first?.prefix(20) ?? "")")
            }
            await owner.close()
        }
    }
}
