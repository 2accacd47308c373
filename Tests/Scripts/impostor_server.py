"""A Unix socket server for tests that run it as another user (setpriv --reuid=65534): it
stands where photod's socket should be, accepts one connection, reads one varlink call (up to
its NUL, or until the client hangs up), prints how many bytes it received and, when given
reply parameters as JSON, answers the call with them.

usage: python3 -c "$(cat impostor_server.py)" SOCKET [PARAMETERS_JSON]
"""
import json, socket, sys

path = sys.argv[1]
parameters = json.loads(sys.argv[2]) if len(sys.argv) > 2 else None
listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
listener.bind(path)
listener.listen(1)
print("listening", flush=True)
connection, _ = listener.accept()
connection.settimeout(20)
received = b""
while not received.endswith(b"\0"):
    chunk = connection.recv(4096)
    if not chunk:
        break
    received += chunk
print(len(received), flush=True)
if received and parameters is not None:
    connection.sendall(json.dumps({"parameters": parameters}).encode() + b"\0")
connection.close()
