import Foundation
import PhotoTestSupport

/// A third-party app: a Python script using the reference `varlink` package. photod knows it as
/// `script:<python>:<path>`, the same for every run of the script.
struct PythonApp {
    let socket: String
    let script: String
    let directory: TemporaryDirectory

    static let source = """
        import base64, hashlib, json, sys, varlink
        address, command = "unix:" + sys.argv[1], sys.argv[2]
        def emit(value):
            print(json.dumps(value), flush=True)
        try:
            with varlink.Client(address=address) as client:
                if command == "call":
                    interface, method = sys.argv[3].rsplit(".", 1)
                    with client.open(interface) as proxy:
                        emit(getattr(proxy, method)(**json.loads(sys.argv[4])))
                elif command == "request":
                    label = sys.argv[4] if len(sys.argv) > 4 else "Test Viewer"
                    with client.open("io.photod.Authorization") as auth:
                        for reply in auth.RequestAuthorization(sys.argv[3], label, _more=True):
                            emit(reply)
                elif command == "needs":
                    with client.open("io.photod.Authorization") as auth:
                        for reply in auth.RequestAuthorization(needs=json.loads(sys.argv[3]), label="Test Viewer", _more=True):
                            emit(reply)
                elif command == "watch":
                    with client.open("io.photod.Authorization") as auth:
                        for reply in auth.Watch(_more=True):
                            emit(reply["event"])
                elif command == "describe":
                    description = sys.argv[4] if len(sys.argv) > 4 else None
                    with client.open("io.photod.Library") as library:
                        for reply in library.SetDescription(json.loads(sys.argv[3]), description, _more=True):
                            emit(reply)
                elif command == "pick":
                    limit = int(sys.argv[4]) if len(sys.argv) > 4 else None
                    with client.open("io.photod.Library") as library:
                        for reply in library.Pick(sys.argv[3], "Test Viewer", limit, None, _more=True):
                            emit(reply)
                elif command == "original":
                    with client.open("io.photod.Library") as library:
                        data, offsets, size = b"", [], None
                        for reply in library.OpenOriginal(sys.argv[3], False, True, _more=True):
                            offsets.append(reply["offset"])
                            size = reply["size"]
                            data += base64.b64decode(reply["data"])
                        emit({"count": len(data), "size": size, "offsets": offsets,
                              "sha256": hashlib.sha256(data).hexdigest()})
                elif command == "subscribe":
                    with client.open("io.photod.Library") as library:
                        for reply in library.Subscribe(_more=True):
                            emit(reply["change"])
        except varlink.VarlinkError as error:
            emit({"error": error.error(), "parameters": error.parameters()})
        """

    /// Writes the script into `directory` (under a name of its own) for the daemon at `socket`.
    init(socket: String, directory: TemporaryDirectory, name: String = "viewer.py") throws {
        self.socket = socket
        self.directory = directory
        self.script = try directory.write(name, Array(Self.source.utf8))
    }

    /// One call; the reply or `{"error", "parameters"}`.
    func call(_ method: String, _ parameters: String = "{}") async throws -> [String: Any] {
        let result = try await ProcessRunner.run("/usr/bin/env", ["python3", script, socket, "call", method, parameters])
        guard let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw PythonAppError.noReply(method: method, stdout: result.stdout, stderr: result.stderr)
        }
        return object
    }

    /// The error name of a call that failed, or nil when it succeeded.
    func error(of method: String, _ parameters: String = "{}") async throws -> String? {
        try await call(method, parameters)["error"] as? String
    }

    /// OpenOriginal of `id` as streamed bytes: `{count, size, offsets, sha256}` or `{"error", "parameters"}`.
    func streamedOriginal(_ id: String) async throws -> [String: Any] {
        let result = try await ProcessRunner.run("/usr/bin/env", ["python3", script, socket, "original", id])
        guard let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw PythonAppError.noReply(method: "OpenOriginal", stdout: result.stdout, stderr: result.stderr)
        }
        return object
    }

    /// A streaming run (`request REASON [LABEL]`, `pick REASON [LIMIT]` or `subscribe`) in the background.
    func stream(_ arguments: [String], name: String) throws -> StreamingProcess {
        try StreamingProcess("/usr/bin/env", ["python3", script, socket] + arguments, directory: directory, name: name)
    }

    /// The same code run with `python3 -c` rather than from its file, as photod sees an
    /// interpreter without a script (`exe:…/python3.N`, which carries a warning).
    func inlineStream(_ arguments: [String], name: String) throws -> StreamingProcess {
        try StreamingProcess("/usr/bin/env", ["python3", "-c", Self.source, socket] + arguments, directory: directory, name: name)
    }

    /// The app id photod gives this script.
    var appID: String {
        get async throws { try await Self.appID(ofScript: script) }
    }

    /// The app id photod gives any Python script at `script`: `script:<python>:<path>`.
    static func appID(ofScript script: String) async throws -> String {
        let result = try await ProcessRunner.run("/usr/bin/env", ["python3", "-c", "import os, sys; print(os.path.realpath(sys.executable))"])
        return "script:" + result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + ":" + script
    }
}

enum PythonAppError: Error {
    case noReply(method: String, stdout: String, stderr: String)
}
