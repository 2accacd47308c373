/// A varlink client in plain Python (no packages, so any user can run it, and fast to start):
/// `python3 client.py SOCKET ask` prints the first reply to RequestAuthorization (with more),
/// `python3 client.py SOCKET groups` the reply to ListGroups, each as one JSON line.
enum RawVarlinkClient {
    static let source = #"""
        import json, socket, sys
        sock, command = sys.argv[1], sys.argv[2]
        if command == "ask":
            call = {"method": "io.photod.Authorization.RequestAuthorization", "parameters": {"reason": "r"}, "more": True}
        else:
            call = {"method": "io.photod.Library.ListGroups", "parameters": {}}
        s = socket.socket(socket.AF_UNIX)
        s.connect(sock)
        s.sendall(json.dumps(call).encode() + b"\0")
        data = b""
        while b"\0" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        print(data.split(b"\0")[0].decode())
        """#
}
