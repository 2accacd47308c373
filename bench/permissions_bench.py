#!/usr/bin/env python3
"""Cost of permission checks: the same calls as the owner and as a limited app, in one run.

Makes N photos with ../shared/tools/make-photos, starts the release photod on them with this
script trusted as an owner, lets a second script (the app) be limited to one group plus 100
single photos, and times each call (median over many runs, on one kept-open connection,
speaking varlink directly so no client library overhead is counted):
  Status, ListGroups, ListAssets (first page of 1000, and of the limited group),
  GetAssets (1000 ids, most of them hidden from the app)
The owner's figures are the peer: the same daemon answering without any filtering.
Then the side channel: the app asks for hidden things and for things that never existed
(1000 hidden ids vs 1000 made-up ids; a hidden group vs a made-up group name). Both must
answer alike, in content and in time: the difference should be noise, not a signal.
"""
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(REPO), "shared")
RELEASE = os.path.join(REPO, ".build", "release")

APP = r'''
import json, socket, statistics, sys, time
sys.path.insert(0, sys.argv[2])
from permissions_bench import Varlink, paired, timed
v = Varlink(sys.argv[1])
calls = json.loads(sys.argv[3])
print(json.dumps(paired(v, calls) if sys.argv[4:] == ["paired"] else timed(v, calls)))
'''


class Varlink:
    """One varlink connection: a call is one NUL-terminated JSON message, one reply."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = b""

    def call(self, method, parameters=None, refusal=None):
        message = {"method": method, "parameters": parameters or {}}
        self.sock.sendall(json.dumps(message).encode() + b"\0")
        while b"\0" not in self.buffer:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("photod closed the connection")
            self.buffer += chunk
        reply, self.buffer = self.buffer.split(b"\0", 1)
        reply = json.loads(reply)
        if "error" in reply and reply["error"] == refusal:
            return reply
        if "error" in reply:
            raise RuntimeError("%s: %s %s" % (method, reply["error"], reply.get("parameters")))
        return reply["parameters"]


def timed(varlink, calls, runs=41):
    """Median milliseconds of each (name, method, parameters), after one warm-up call."""
    results = {}
    for name, method, parameters, *refusal in calls:
        refusal = refusal[0] if refusal else None
        varlink.call(method, parameters, refusal)
        samples = []
        for _ in range(runs):
            start = time.perf_counter()
            varlink.call(method, parameters, refusal)
            samples.append((time.perf_counter() - start) * 1000)
        results[name] = statistics.median(samples)
    return results


def paired(varlink, probes, rounds=401):
    """Median milliseconds of each pair of probes, timed alternately so drift hits both alike."""
    results = {}
    for first, second in zip(probes[0::2], probes[1::2]):
        samples = {first[0]: [], second[0]: []}
        for index in range(rounds + 1):
            for name, method, parameters, refusal in (first, second) if index % 2 else (second, first):
                start = time.perf_counter()
                varlink.call(method, parameters, refusal)
                if index:
                    samples[name].append((time.perf_counter() - start) * 1000)
        results.update({name: statistics.median(values) for name, values in samples.items()})
    return results


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    work = tempfile.mkdtemp(prefix="photod-permissions-bench-")
    try:
        run(work, count)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(work, count):
    library = os.path.join(work, "photos")
    subprocess.run([os.path.join(SHARED, "tools", "make-photos"), library, str(count), "--seed", "7"],
                   check=True, stdout=subprocess.DEVNULL)
    os.makedirs(os.path.join(work, "config", "photod"))
    with open(os.path.join(work, "config", "photod", "photod.toml"), "w") as config:
        config.write('[permissions]\ntrusted = ["script:*/permissions_bench.py"]\n')
    sock = os.path.join(work, "photod.sock")
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"), PHOTOD_SOCKET=sock)
    daemon = subprocess.Popen([os.path.join(RELEASE, "photod"), "--root", library, "--database",
                               os.path.join(work, "index.sqlite"), "--socket", sock],
                              stderr=subprocess.PIPE, text=True, env=env)
    for line in daemon.stderr:
        if "ready:" in line:
            break
    try:
        measure(work, sock, env)
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.communicate(timeout=30)


def measure(work, sock, env):
    owner = Varlink(sock)
    groups = owner.call("io.photod.Library.ListGroups")["groups"]
    groups.sort(key=lambda g: g["count"])
    group = groups[len(groups) // 2]
    everything = owner.call("io.photod.Library.ListAssets", {"limit": 10000, "sort": "path"})["assets"]
    outside = [a["id"] for a in everything if a["group"] != group["name"]]
    singles = outside[::max(1, len(outside) // 100)][:100]
    app_script = os.path.join(work, "app.py")
    with open(app_script, "w") as f:
        f.write(APP)
    app_id = "script:%s:%s" % (os.path.realpath(sys.executable), app_script)
    subprocess.run([os.path.join(RELEASE, "photoctl"), "permissions", "allow", app_id, "--group", group["name"]]
                   + sum((["--asset", i] for i in singles), []), check=True, env=env, stdout=subprocess.DEVNULL)
    ids = [a["id"] for a in everything[:1000]]
    calls = [
        ("Status", "io.photod.Library.Status", {}),
        ("ListGroups", "io.photod.Library.ListGroups", {}),
        ("ListAssets page of 1000", "io.photod.Library.ListAssets", {"limit": 1000}),
        ("ListAssets of one group", "io.photod.Library.ListAssets", {"group": group["name"], "limit": 1000}),
        ("GetAssets of 1000 ids", "io.photod.Library.GetAssets", {"ids": ids}),
    ]
    hidden = [i for i in outside if i not in set(singles)][:1000]
    made_up = ["%016x" % (0x5eed0000 + n) for n in range(len(hidden))]
    hidden_group = next(g["name"] for g in groups if g["name"] != group["name"])
    not_found = "io.photod.Library.GroupNotFound"
    probes = [
        ("GetAssets hidden ids", "io.photod.Library.GetAssets", {"ids": hidden}, None),
        ("GetAssets made-up ids", "io.photod.Library.GetAssets", {"ids": made_up}, None),
        ("ListAssets hidden group", "io.photod.Library.ListAssets", {"group": hidden_group, "limit": 10}, not_found),
        ("ListAssets made-up group", "io.photod.Library.ListAssets",
         {"group": "Q" * len(hidden_group), "limit": 10}, not_found),
    ]
    as_owner = timed(owner, calls)
    result = subprocess.run([sys.executable, app_script, sock, os.path.dirname(os.path.abspath(__file__)),
                             json.dumps(calls)], check=True, capture_output=True, text=True, env=env)
    as_app = json.loads(result.stdout)
    probed = json.loads(subprocess.run(
        [sys.executable, app_script, sock, os.path.dirname(os.path.abspath(__file__)), json.dumps(probes), "paired"],
        check=True, capture_output=True, text=True, env=env).stdout)
    visible = len(singles) + group["count"]
    print("permissions: %d photos; the app is limited to group %r (%d photos) and %d single photos (%d visible)"
          % (len(everything), group["name"], group["count"], len(singles), visible))
    print("%-26s %12s %12s %8s" % ("call (median of 41)", "owner ms", "limited ms", "ratio"))
    for name, _, _ in calls:
        print("%-26s %12.2f %12.2f %7.2fx" % (name, as_owner[name], as_app[name], as_app[name] / as_owner[name]))
    print("side channel, as the limited app (median of 401, timed alternately): hidden vs never existed")
    for (hidden_name, *_), (made_up_name, *_) in zip(probes[0::2], probes[1::2]):
        a, b = probed[hidden_name], probed[made_up_name]
        print("%-26s %9.3f ms   %-26s %9.3f ms   difference %+.1f%%" % (hidden_name, a, made_up_name, b,
                                                                     100 * (a - b) / b))


if __name__ == "__main__":
    main()
