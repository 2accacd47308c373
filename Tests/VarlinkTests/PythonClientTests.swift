import Foundation
import PhotoTestSupport
import Testing

@testable import Varlink

/// The reference Python client (`pip install varlink`), run as a subprocess.
enum PythonVarlink {
    /// Whether python3 can import the varlink package; looked at once, by the first suite that asks.
    static let available = Task<Bool, Never> {
        guard let result = try? await run(["python3", "-c", "import varlink"]) else {
            print("skipping Python client tests: python3 cannot be run")
            return false
        }
        if result.status != 0 {
            print("skipping Python client tests: the Python varlink package is not installed (\(result.stderr))")
        }
        return result.status == 0
    }

    struct Output: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `python3 …` with output in files, so a chatty child cannot block on a full pipe.
    /// Waits for its end without holding a thread of Swift's pool (the child's waiter thread
    /// resumes it), which would starve the server the child is talking to.
    static func run(_ arguments: [String]) async throws -> Output {
        let files = try OutputFiles()
        defer { files.remove() }
        let process = try files.process(arguments)
        guard let status = await process.exited(within: .seconds(30)) else {
            await process.kill()
            throw PythonVarlinkTimeout(arguments: arguments)
        }
        return try files.output(status: status)
    }

    /// The child still ran after its time.
    struct PythonVarlinkTimeout: Error, CustomStringConvertible {
        let arguments: [String]
        var description: String { "still running after 30 s, killed: \(arguments.joined(separator: " "))" }
    }

    private struct OutputFiles {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vl-py-\(UUID().uuidString)")
        var out: URL { self.folder.appendingPathComponent("out") }
        var err: URL { self.folder.appendingPathComponent("err") }

        init() throws {
            try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
            try Data().write(to: self.out)
            try Data().write(to: self.err)
        }

        func process(_ arguments: [String]) throws -> TestChild {
            try TestChild("/usr/bin/env", arguments, output: .file(self.out.path), error: .file(self.err.path))
        }

        func output(status: Int32) throws -> Output {
            Output(
                status: status,
                stdout: try String(contentsOf: self.out, encoding: .utf8),
                stderr: try String(contentsOf: self.err, encoding: .utf8)
            )
        }

        func remove() {
            try? FileManager.default.removeItem(at: self.folder)
        }
    }
}

/// The project's own interface files, found from this source file (main repository) or the
/// shared contract folder.
func photodInterfaceText(_ name: String) throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let candidates = [
        root.appendingPathComponent("Sources/PhotoAPI/interface/\(name).varlink").path,
        "/work/shared/interface/\(name).varlink",
    ]
    guard let path = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: candidates[0]])
    }
    return try String(contentsOfFile: path, encoding: .utf8)
}

/// A small interface in the style of io.photod.Library: nullable fields, inline enums, arrays,
/// maps and nested types.
private enum Sample {
    static let idl = """
        # A sample for the Python reference client.
        interface org.example.sample

        # What an item is.
        type Kind (photo, video)

        type Child (
          name: string,
          ratio: float,
          flags: ?[]bool
        )

        # One item, with every kind of field.
        type Item (
          id: string,
          # Null when the item has no label.
          label: ?string,
          kind: Kind,
          state: (fresh, stale),
          tags: []string,
          size: ?int,
          children: []Child,
          attributes: [string]string,
          parent: ?Child
        )

        method Get(id: string, kind: ?Kind, sort: ?(name, size)) -> (item: Item, sibling: ?Item)

        method List(limit: ?int) -> (items: []Item, cursor: ?string)

        # Needs "more".
        method Watch(count: int) -> (item: Item)

        method Find(id: string) -> (item: Item)

        error NotFound (id: string)
        """

    struct Child: Codable, Sendable { var name: String; var ratio: Double; var flags: [Bool]? }
    struct Item: Codable, Sendable {
        var id: String
        var label: String?
        var kind: String
        var state: String
        var tags: [String]
        var size: Int?
        var children: [Child]
        var attributes: [String: String]
        var parent: Child?
    }
    struct GetRequest: Decodable { var id: String; var kind: String?; var sort: String? }
    struct GetReply: Encodable, Sendable { var item: Item; var sibling: Item? }
    struct ListRequest: Decodable { var limit: Int? }
    struct ListReply: Encodable, Sendable { var items: [Item]; var cursor: String? }
    struct WatchRequest: Decodable { var count: Int }
    struct ItemReply: Encodable, Sendable { var item: Item }
    struct FindRequest: Decodable { var id: String }

    static func item(_ id: String, kind: String = "photo") -> Item {
        Item(
            id: id, label: nil, kind: kind, state: "fresh", tags: ["a", "b"], size: nil,
            children: [Child(name: "c", ratio: 0.5, flags: [true, false]), Child(name: "d", ratio: 2, flags: nil)],
            attributes: ["camera": "X100"], parent: nil
        )
    }

    static var interface: VarlinkInterface {
        VarlinkInterface(name: "org.example.sample", description: idl) { call, _, replier in
            switch call.methodName {
            case "Get":
                let request = try call.parameters(GetRequest.self)
                var item = item(request.id, kind: request.kind ?? "photo")
                item.label = request.sort.map { "sorted by \($0)" }
                try await replier.reply(GetReply(item: item, sibling: nil))
            case "List":
                let limit = try call.parameters(ListRequest.self).limit ?? 2
                try await replier.reply(ListReply(items: (0..<limit).map { item("i\($0)") }, cursor: nil))
            case "Watch":
                let count = try call.parameters(WatchRequest.self).count
                for index in 0..<count {
                    try await replier.reply(ItemReply(item: item("w\(index)")), continues: index < count - 1)
                }
            case "Find":
                throw VarlinkError("org.example.sample.NotFound", parameters: ["id": try call.parameters(FindRequest.self).id])
            default:
                throw VarlinkError.methodNotImplemented(call.method)
            }
        }
    }
}

/// Canned answers for the real io.photod.Library interface, enough to exercise its types.
private enum LibraryStub {
    struct Group: Encodable, Sendable { var name: String; var count: Int; var fallback: Bool; var latest: String? }
    struct Groups: Encodable, Sendable { var groups: [Group] }
    struct Asset: Encodable, Sendable {
        var id = "A1", path = "/p/a.jpg", pathBytes: String? = nil, group = "Beach", description: String? = "Beach"
        var descriptionSource: String? = "exif", format = "jpeg", taken: String? = nil
        var width: Int? = 640, height: Int? = 480, orientation: Int? = nil, make: String? = nil, model: String? = nil
        var size = 1234, modified = "2024-01-01T00:00:00Z"
    }
    struct Assets: Encodable, Sendable { var assets: [Asset]; var cursor: String? }

    static func interface(_ idl: String) -> VarlinkInterface {
        VarlinkInterface(name: "io.photod.Library", description: idl) { call, _, replier in
            switch call.methodName {
            case "ListGroups":
                try await replier.reply(Groups(groups: [
                    Group(name: "Beach", count: 2, fallback: false, latest: "2024-05-01T10:00:00+02:00"),
                    Group(name: "Other", count: 1, fallback: true, latest: nil),
                ]))
            case "ListAssets":
                try await replier.reply(Assets(assets: [Asset()], cursor: nil))
            default:
                throw VarlinkError.methodNotImplemented(call.method)
            }
        }
    }
}

@Suite("Python reference client", .enabled("python3 with the varlink package is unavailable") { await PythonVarlink.available.value }, .timeLimit(.minutes(1)))
struct PythonClientTests {
    private func withSampleServer(_ body: (RunningServer) async throws -> Void) async throws {
        let library = try photodInterfaceText("io.photod.Library")
        let server = try await RunningServer.start(interfaces: [Sample.interface, LibraryStub.interface(library)])
        do {
            try await body(server)
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()
    }

    private func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test("varlink.cli call: reply, streaming and error")
    func cliCall() async throws {
        try await withSampleServer { server in
            let get = try await PythonVarlink.run([
                "python3", "-m", "varlink.cli", "call", "unix:\(server.path)/org.example.sample.Get", #"{"id":"x1","kind":"video","sort":"size"}"#,
            ])
            #expect(get.status == 0)
            #expect(get.stderr.isEmpty, "\(get.stderr)")
            let reply = try #require(try json(get.stdout) as? [String: Any])
            let item = try #require(reply["item"] as? [String: Any])
            #expect(item["id"] as? String == "x1")
            #expect(item["kind"] as? String == "video")
            #expect(item["label"] as? String == "sorted by size")
            #expect((item["children"] as? [Any])?.count == 2)

            let watch = try await PythonVarlink.run([
                "python3", "-m", "varlink.cli", "call", "--more", "unix:\(server.path)/org.example.sample.Watch", #"{"count":3}"#,
            ])
            #expect(watch.stderr.isEmpty, "\(watch.stderr)")
            #expect(watch.stdout.components(separatedBy: "\"item\"").count - 1 == 3)

            let find = try await PythonVarlink.run([
                "python3", "-m", "varlink.cli", "call", "unix:\(server.path)/org.example.sample.Find", #"{"id":"gone"}"#,
            ])
            #expect(find.stderr.contains("org.example.sample.NotFound"))
            #expect(find.stderr.contains("gone"))

            let missing = try await PythonVarlink.run([
                "python3", "-m", "varlink.cli", "call", "unix:\(server.path)/org.example.nope.Get", "{}",
            ])
            #expect(missing.stderr.contains("InterfaceNotFound"), "\(missing.stderr)")
        }
    }

    @Test("varlink.Client parses the sample IDL and checks every reply against it")
    func typedClient() async throws {
        try await withSampleServer { server in
            let script = """
                import json, sys, varlink
                out = {}
                with varlink.Client(address=sys.argv[1]) as client:
                    with client.open("org.example.sample") as sample:
                        out["get"] = sample.Get("x2", kind="photo", sort=None)
                        out["list"] = sample.List(limit=3)
                        out["watch"] = [m["item"]["id"] for m in sample.Watch(2, _more=True)]
                        try:
                            sample.Find("nothing")
                        except varlink.VarlinkError as e:
                            out["error"] = [e.error(), e.parameters()]
                    info = client.get_interfaces()
                    out["interfaces"] = info
                print(json.dumps(out))
                """
            let result = try await PythonVarlink.run(["python3", "-c", script, "unix:\(server.path)"])
            #expect(result.status == 0, "\(result.stderr)")
            let out = try #require(try json(result.stdout) as? [String: Any])
            let get = try #require(out["get"] as? [String: Any])
            #expect((get["item"] as? [String: Any])?["attributes"] as? [String: String] == ["camera": "X100"])
            #expect((out["list"] as? [String: Any]).flatMap { $0["items"] as? [Any] }?.count == 3)
            #expect(out["watch"] as? [String] == ["w0", "w1"])
            let error = try #require(out["error"] as? [Any])
            #expect(error.first as? String == "org.example.sample.NotFound")
            #expect(error.last as? [String: String] == ["id": "nothing"])
            #expect(out["interfaces"] as? [String] == ["org.varlink.service", "org.example.sample", "io.photod.Library"])
        }
    }

    @Test("the Python client parses the real io.photod.Library IDL served by GetInterfaceDescription")
    func realLibraryIDL() async throws {
        try await withSampleServer { server in
            let help = try await PythonVarlink.run(["python3", "-m", "varlink.cli", "help", "unix:\(server.path)/io.photod.Library"])
            #expect(help.status == 0, "\(help.stderr)")
            #expect(help.stderr.isEmpty, "\(help.stderr)")
            #expect(help.stdout.contains("interface io.photod.Library"))
            let script = """
                import json, sys, varlink
                with varlink.Client(address=sys.argv[1]) as client:
                    with client.open("io.photod.Library") as library:
                        names = sorted(library._interface.members)
                        groups = library.ListGroups()
                        assets = library.ListAssets(None, "taken", 10, None)
                        try:
                            library.Rescan(None)
                            rescan = "no error"
                        except varlink.VarlinkError as e:
                            rescan = e.error()
                print(json.dumps({"members": names, "groups": groups, "assets": assets, "rescan": rescan}))
                """
            let result = try await PythonVarlink.run(["python3", "-c", script, "unix:\(server.path)"])
            #expect(result.status == 0, "\(result.stderr)")
            let out = try #require(try json(result.stdout) as? [String: Any])
            let members = try #require(out["members"] as? [String])
            for name in ["Asset", "Group", "Change", "ListGroups", "ListAssets", "Subscribe", "AuthorizationRequired"] {
                #expect(members.contains(name), "\(name) missing from the parsed interface")
            }
            let groups = try #require((out["groups"] as? [String: Any])?["groups"] as? [[String: Any]])
            #expect(groups.map { $0["name"] as? String } == ["Beach", "Other"])
            let assets = try #require((out["assets"] as? [String: Any])?["assets"] as? [[String: Any]])
            #expect(assets.first?["descriptionSource"] as? String == "exif")
            #expect(out["rescan"] as? String == "org.varlink.service.MethodNotImplemented")
        }
    }

    @Test("the Python client and org.varlink.service: GetInfo through its own IDL")
    func serviceInterfaceFromPython() async throws {
        try await withSampleServer { server in
            let info = try await PythonVarlink.run(["python3", "-m", "varlink.cli", "call", "unix:\(server.path)/org.varlink.service.GetInfo", "{}"])
            #expect(info.stderr.isEmpty, "\(info.stderr)")
            let reply = try #require(try json(info.stdout) as? [String: Any])
            #expect(reply["product"] as? String == "varlink-tests")
            #expect(reply["interfaces"] as? [String] == ["org.varlink.service", "org.example.sample", "io.photod.Library"])
        }
    }

    /// The shared contract declared both `type Status` and `method Status`; the Python client
    /// keeps one member per name, so every reply with a status failed its type check. The
    /// project's copy names the type AuthorizationStatus (type names never travel).
    @Test("the Python client decodes io.photod.Authorization replies (AuthorizationStatus is not shadowed)")
    func authorizationStatusName() async throws {
        let idl = try photodInterfaceText("io.photod.Authorization")
        #expect(idl.contains("type AuthorizationStatus ("))
        #expect(!idl.contains("type Status ("))
        struct Decision: Encodable, Sendable { var status = "denied"; var pending = false }
        let interface = VarlinkInterface(name: "io.photod.Authorization", description: idl) { _, _, replier in
            try await replier.reply(Decision())
        }
        let server = try await RunningServer.start(interfaces: [interface])
        let script = """
            import sys, json, varlink
            with varlink.Client(address=sys.argv[1]) as client:
                with client.open("io.photod.Authorization", namespaced=True) as auth:
                    reply = auth.RequestAuthorization("because", None)
                    print(json.dumps({"status": reply.status, "pending": reply.pending}))
            """
        let result = try await PythonVarlink.run(["python3", "-c", script, "unix:\(server.path)"])
        try await server.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let reply = try #require(try json(result.stdout) as? [String: Any], "\(result.stderr)")
        #expect(reply["status"] as? String == "denied")
        #expect(reply["pending"] as? Bool == false)
    }
}
