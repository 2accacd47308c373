import Foundation
import PhotoTestSupport

/// An app that adds photos, as a sandboxed one would: a Python script on a raw socket that
/// passes the photo's descriptor with `socket.send_fds` (or, for `data`, its bytes in the call;
/// for `import-pipe`, a pipe that delivers only part of it).
/// photod knows it as `script:<python>:<path>`, the same for every run.
struct ImportApp {
    let socket: String
    let script: String

    static let source = """
        import base64, json, os, socket, sys
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(sys.argv[1])
        command = sys.argv[2]
        def send(method, parameters, fds=(), more=False):
            message = {"method": method, "parameters": parameters}
            if more:
                message["more"] = True
            data = json.dumps(message).encode() + b"\\0"
            if fds:
                socket.send_fds(sock, [data], list(fds))
            else:
                sock.sendall(data)
        def replies():
            buffer = b""
            while True:
                chunk = sock.recv(1 << 16)
                if not chunk:
                    return
                buffer += chunk
                while b"\\0" in buffer:
                    message, buffer = buffer.split(b"\\0", 1)
                    reply = json.loads(message)
                    print(json.dumps(reply), flush=True)
                    if not reply.get("continues"):
                        return
        if command == "request":
            send("io.photod.Authorization.RequestAuthorization",
                 {"reason": sys.argv[3], "label": "Memes", "level": sys.argv[4]}, more=True)
        elif command == "import-fd":
            fd = os.open(sys.argv[3], os.O_RDONLY)
            parameters = {"acceptFileDescriptors": True, "name": sys.argv[4]}
            if len(sys.argv) > 5:
                parameters["description"] = sys.argv[5]
            send("io.photod.Library.Import", parameters, fds=[fd])
            os.close(fd)
        elif command == "import-pipe":
            # Only the photo's first COUNT bytes go into a pipe whose write end stays open
            # (until the script ends): photod reads them, then waits for more that never come.
            with open(sys.argv[3], "rb") as photo:
                head = photo.read(int(sys.argv[5]))
            read_end, write_end = os.pipe()
            send("io.photod.Library.Import", {"acceptFileDescriptors": True, "name": sys.argv[4]}, fds=[read_end])
            os.close(read_end)
            os.write(write_end, head)
            print(json.dumps({"written": len(head)}), flush=True)
        elif command == "import-data":
            with open(sys.argv[3], "rb") as photo:
                data = base64.b64encode(photo.read()).decode()
            send("io.photod.Library.Import", {"data": data, "name": sys.argv[4]})
        elif command == "call":
            send(sys.argv[3], json.loads(sys.argv[4]))
        replies()
        """

    /// Writes the script into `directory` under `name`, for the daemon at `socket`.
    init(socket: String, directory: TemporaryDirectory, name: String = "memes.py") throws {
        self.socket = socket
        self.script = try directory.write(name, Array(Self.source.utf8))
    }

    /// Runs the script with `arguments`; the last reply, as JSON.
    func run(_ arguments: [String]) async throws -> [String: Any] {
        let result = try await ProcessRunner.run("/usr/bin/env", ["python3", script, socket] + arguments)
        let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        guard let object = try? JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any] else {
            throw PythonAppError.noReply(method: arguments.first ?? "", stdout: result.stdout, stderr: result.stderr)
        }
        return object
    }

    /// Imports the file at `path` under `name`, passing its descriptor.
    func importFile(_ path: String, name: String, description: String? = nil) async throws -> [String: Any] {
        try await run(["import-fd", path, name] + (description.map { [$0] } ?? []))
    }

    /// Imports the file at `path` with its bytes in the call.
    func importBytes(_ path: String, name: String) async throws -> [String: Any] {
        try await run(["import-data", path, name])
    }

    /// One call's reply.
    func call(_ method: String, _ parameters: String = "{}") async throws -> [String: Any] {
        try await run(["call", method, parameters])
    }

    /// The app id photod gives this script.
    var appID: String {
        get async throws { try await PythonApp.appID(ofScript: script) }
    }
}

extension Dictionary where Key == String, Value == Any {
    /// The varlink error name of a reply, nil for a reply that is no error.
    var varlinkError: String? { self["error"] as? String }
    /// A reply's parameters.
    var replyParameters: [String: Any] { self["parameters"] as? [String: Any] ?? [:] }
}
