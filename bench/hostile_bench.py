#!/usr/bin/env python3
"""Hostile clients: does the owner still get served quickly, and does photod's memory stay bounded?

Starts photod (release, or debug with BUILD=debug) on a temporary library, socket and database,
then for ATTACK_SECONDS (default 60) keeps HOSTILE (default 1000) hostile connections open from
this process, a quarter of each kind, re-opening any that photod closes (REOPEN_RATE a second,
default 500; 0: as fast as it can, a connect flood):
  idle       connect and send nothing
  slow       pipeline calls whose replies are large (GetInterfaceDescription) and a Subscribe,
             and never read a byte
  oversize   a message of 2 MiB with no NUL terminator, sent slowly
  garbage    random bytes with NULs in them
Meanwhile the owner runs `photoctl status` every 200 ms (the whole process, start to exit), and
photod's resident memory is sampled every 100 ms. Prints status latency (p50, p99, max, before
and during the attack), peak RSS, and what happened to the hostile connections; exits 1 when a
status call fails, the status p99 reaches 100 ms or the peak RSS reaches 100 MiB.
Beside them, SEARCH_FLOOD (default 8) connections of one app allowed to see everything call
Search("q z") back to back, following cursors: one-letter words the index cannot narrow, so every
page checks photos one by one (PHOTOS, default 200, photos in the library); and IMAGE_FLOOD
(default 50) connections of another app ask for 2000x2000 images back to back, reading each
reply, of BIG_PHOTOS (default 8) 4000x3000 JPEGs added to the library (made with Pillow). The owner also runs `photoctl thumbnail` (256 px, a different photo each
time, so a worker decodes it) every 200 ms; its p50/p99/max are printed before and during.
With HOSTILE_UID=N (as root), the hostile side runs as uid N, a user other than photod's: the
socket and its folder are opened to others for the run, as a system service's socket would be.
Hostile traffic goes only to the temporary Unix socket.
"""
import json
import os
import random
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(REPO), "shared")
BIN = os.path.join(REPO, ".build", os.environ.get("BUILD", "release"))
HOSTILE = int(os.environ.get("HOSTILE", "1000"))
ATTACK_SECONDS = float(os.environ.get("ATTACK_SECONDS", "60"))
# Run the hostile side as this uid (needs root): the system-service case, a client of another user.
HOSTILE_UID = int(os.environ["HOSTILE_UID"]) if os.environ.get("HOSTILE_UID") else None
# Connections re-opened per second after the first HOSTILE (0: as fast as this process can).
REOPEN_RATE = float(os.environ.get("REOPEN_RATE", "500"))
# Connections of one app flooding photod with one-letter searches during the attack (0: none).
SEARCH_FLOOD = int(os.environ.get("SEARCH_FLOOD", "8"))
PHOTOS = int(os.environ.get("PHOTOS", "200"))
# Connections of one app asking for 2000-px images back to back during the attack (0: none).
IMAGE_FLOOD = int(os.environ.get("IMAGE_FLOOD", "50"))
# 4000x3000 JPEGs the image flood asks for, so each of its requests is a real decode.
BIG_PHOTOS = int(os.environ.get("BIG_PHOTOS", "8"))
STATUS_TARGET_MS = 100
RSS_TARGET_MIB = 150
KINDS = ["idle", "slow", "oversize", "garbage"]


def raise_fd_limit(needed):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        sys.exit("the open-file limit is %d; this benchmark needs %d (raise the hard limit)" % (soft, needed))


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Sampler(threading.Thread):
    """Samples photod's resident memory until stopped; keeps the peak."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.peak, self.stopped = pid, 0, threading.Event()

    def run(self):
        while not self.stopped.is_set():
            try:
                self.peak = max(self.peak, rss_kib(self.pid))
            except OSError:
                return
            time.sleep(0.1)


class Owner(threading.Thread):
    """Runs `photoctl status`, then `photoctl thumbnail` of the next photo, every 200 ms until
    stopped, timing each run."""

    def __init__(self, env, ids, work):
        super().__init__(daemon=True)
        self.env, self.samples, self.failures, self.stopped = env, [], [], threading.Event()
        self.ids, self.work, self.next_id, self.thumbnails = ids, work, 0, []

    def photoctl_ms(self, arguments):
        start = time.perf_counter()
        done = subprocess.run([os.path.join(BIN, "photoctl")] + arguments, env=self.env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        elapsed = (time.perf_counter() - start) * 1000
        if done.returncode != 0:
            self.failures.append("%s: exit %d: %s" % (arguments[0], done.returncode, done.stderr.strip()[:200]))
        return elapsed

    def status_ms(self):
        return self.photoctl_ms(["status"])

    def thumbnail_ms(self):
        """A 256-px thumbnail of a photo not asked for before (a worker decodes it)."""
        photo = self.ids[self.next_id % len(self.ids)]
        self.next_id += 1
        return self.photoctl_ms(["thumbnail", photo, "--size", "256", "--force",
                                 "-o", os.path.join(self.work, "owner-thumbnail.jpg")])

    def run(self):
        while not self.stopped.is_set():
            self.samples.append(self.status_ms())
            if self.ids:
                self.thumbnails.append(self.thumbnail_ms())
            time.sleep(0.2)


class LogReader(threading.Thread):
    """Drains photod's stderr (a full pipe would stall its logging) and counts what it says."""

    def __init__(self, stream):
        super().__init__(daemon=True)
        self.stream, self.ready, self.lines, self.counts = stream, threading.Event(), 0, {}

    def run(self):
        for line in self.stream:
            self.lines += 1
            if "ready:" in line:
                self.ready.set()
            for key in ("connection limit", "idle varlink connection", "stopped reading", "protocol violation"):
                if key in line:
                    self.counts[key] = self.counts.get(key, 0) + 1


FLOOD = r'''
import json, random, socket, sys, threading, time
path, connections, seconds, kind = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
ids = sys.argv[5].split(",") if len(sys.argv) > 5 else []
if kind == "search":
    stats = {"searches": 0, "pages stopped at the budget": 0, "busy": 0, "other errors": 0}
else:
    stats = {"images": 0, "image MB": 0.0, "busy": 0, "other errors": 0}
lock = threading.Lock()

def call(cursor):
    # Search follows its cursor; RequestImage asks for a 2000-px image of a random photo.
    if kind == "search":
        parameters = {"text": "q z", "limit": 1000}
        if cursor:
            parameters["cursor"] = cursor
        return {"method": "io.photod.Library.Search", "parameters": parameters}
    return {"method": "io.photod.Library.RequestImage",
            "parameters": {"id": random.choice(ids), "width": 2000, "height": 2000}}

def count(raw):
    reply = json.loads(raw)
    with lock:
        if "error" in reply:
            stats["busy" if reply["error"].endswith("Busy") else "other errors"] += 1
            return None
        if kind == "search":
            stats["searches"] += 1
            stats["pages stopped at the budget"] += 1 if reply["parameters"].get("stopped") else 0
            return reply["parameters"].get("cursor")
        stats["images"] += 1
        stats["image MB"] += len(raw) / 1e6
        return None

def flood():
    try:
        calls()
    except OSError:
        with lock:
            stats["closed by photod"] = stats.get("closed by photod", 0) + 1

def calls():
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    buffer, cursor, deadline = b"", None, time.monotonic() + seconds
    while time.monotonic() < deadline:
        sock.sendall(json.dumps(call(cursor)).encode() + b"\0")
        while b"\0" not in buffer:
            chunk = sock.recv(1 << 20)
            if not chunk:
                raise ConnectionResetError
            buffer += chunk
        reply, buffer = buffer.split(b"\0", 1)
        cursor = count(reply)

threads = [threading.Thread(target=flood) for _ in range(connections)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
if "image MB" in stats:
    stats["image MB"] = round(stats["image MB"], 1)
print(json.dumps(stats))
'''


def start_app_script(work, sock, env, name, text, arguments):
    """Starts `text` as an app allowed to see everything, with the socket and `arguments`."""
    script = os.path.join(work, name)
    with open(script, "w") as f:
        f.write(text)
    app_id = "script:%s:%s" % (os.path.realpath(sys.executable), script)
    subprocess.run([os.path.join(BIN, "photoctl"), "permissions", "allow", app_id], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    return subprocess.Popen([sys.executable, script, sock] + arguments, stdout=subprocess.PIPE, text=True)


def start_flood(work, sock, env):
    """Starts the search flood as an app allowed to see everything; returns its process, or None."""
    if SEARCH_FLOOD <= 0:
        return None
    return start_app_script(work, sock, env, "search_flood.py", FLOOD, [str(SEARCH_FLOOD), str(ATTACK_SECONDS), "search"])


def start_image_flood(work, sock, env, ids):
    """Starts the image flood as another app; returns its process, or None."""
    if IMAGE_FLOOD <= 0 or not ids:
        return None
    return start_app_script(work, sock, env, "image_flood.py", FLOOD,
                            [str(IMAGE_FLOOD), str(ATTACK_SECONDS), "image", ",".join(ids)])


def make_big_photos(folder, count):
    """`count` 4000x3000 camera-sized JPEGs (smooth colour and grain, as a photo decodes)."""
    from PIL import Image, ImageFilter
    os.makedirs(folder)
    for index in range(count):
        grain = Image.effect_noise((1000, 750), 40 + index).resize((4000, 3000)).filter(ImageFilter.GaussianBlur(2))
        picture = Image.merge("RGB", (grain, Image.linear_gradient("L").resize((4000, 3000)), grain.rotate(180)))
        picture.save(os.path.join(folder, "big-%d.jpg" % index), quality=90)


def photo_ids(env, under=None):
    """The ids of the photos in the library (those under `under`, when given), in a random order."""
    listed = subprocess.run([os.path.join(BIN, "photoctl"), "list", "--json"], env=env, check=True,
                            stdout=subprocess.PIPE, text=True).stdout
    ids = [asset["id"] for asset in json.loads(listed)["assets"]
           if under is None or asset["path"].startswith(under + "/")]
    random.Random(3).shuffle(ids)
    return ids


class Hostile:
    """One hostile connection of one kind, driven without blocking."""

    SLOW_CALLS = (b'{"method":"io.photod.Library.Subscribe","more":true}\0'
                  + b'{"method":"org.varlink.service.GetInterfaceDescription",'
                    b'"parameters":{"interface":"io.photod.Library"}}\0' * 2000)

    def __init__(self, path, kind):
        self.kind = kind
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.setblocking(False)
        self.sock.connect(path)
        if kind == "slow":
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            self.pending = self.SLOW_CALLS
        elif kind == "oversize":
            self.pending = b'{"method":"io.photod.Library.Status","parameters":{"x":"' + b"a" * (2 << 20)
        elif kind == "garbage":
            self.pending = bytes(random.getrandbits(8) for _ in range(4096))
        else:
            self.pending = b""

    def pump(self):
        """Sends what the socket takes; returns False once photod has closed the connection."""
        try:
            if self.pending:
                sent = self.sock.send(self.pending[:65536])
                self.pending = self.pending[sent:]
            if self.kind != "slow":
                # Everything but the slow reader notices a close by reading (and drops what comes).
                if self.sock.recv(65536) == b"":
                    return False
            else:
                # The slow reader never reads; a close shows as a failed send or a hang-up.
                self.sock.send(b"")
        except BlockingIOError:
            pass
        except OSError:
            return False
        return True

    def close(self):
        self.sock.close()


def attack(path, seconds, count):
    """Keeps `count` hostile connections open for `seconds`; returns what became of them."""
    stats = {"opened": 0, "closed by photod": 0, "connect failed": 0}
    live = []
    start = time.monotonic()
    deadline = start + seconds
    index = 0
    while time.monotonic() < deadline:
        # The first `count` at once; after that, re-opened at REOPEN_RATE.
        allowed = count + REOPEN_RATE * (time.monotonic() - start) if REOPEN_RATE > 0 else float("inf")
        while len(live) < count and stats["opened"] < allowed and time.monotonic() < deadline:
            try:
                live.append(Hostile(path, KINDS[index % len(KINDS)]))
                stats["opened"] += 1
            except OSError:
                stats["connect failed"] += 1
                break
            index += 1
        still = []
        for hostile in live:
            if hostile.pump():
                still.append(hostile)
            else:
                stats["closed by photod"] += 1
                hostile.close()
        live = still
        time.sleep(0.05)
    stats["open at the end"] = len(live)
    for hostile in live:
        hostile.close()
    return stats


def start_attack_as(uid, sock):
    """Forks the child that runs attack() with `uid`, after opening the socket to other users;
    returns what finish_attack() needs. Called before this process starts any thread: a fork
    while the owner thread is starting photoctl would hand the child the write end of that
    photoctl's stderr pipe, and the owner's status call would then wait for the whole attack."""
    # The temporary folder and the socket's folder (both 0700) are searchable, the socket writable.
    os.chmod(os.path.dirname(os.path.dirname(sock)), 0o711)
    os.chmod(os.path.dirname(sock), 0o711)
    os.chmod(sock, 0o666)
    reader, writer = os.pipe()
    go_reader, go_writer = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(reader)
            os.close(go_writer)
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            os.read(go_reader, 1)  # the parent's measurement has started
            os.write(writer, json.dumps(attack(sock, ATTACK_SECONDS, HOSTILE)).encode())
        finally:
            os._exit(0)
    os.close(writer)
    os.close(go_reader)
    return pid, reader, go_writer


def finish_attack(child):
    """Starts the forked attack and waits for its figures."""
    pid, reader, go_writer = child
    os.write(go_writer, b"g")
    os.close(go_writer)
    with os.fdopen(reader) as result:
        text = result.read()
    os.waitpid(pid, 0)
    return json.loads(text) if text else {"error": "the hostile child failed"}


def figures(samples):
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return {"runs": len(ordered), "p50": round(statistics.median(ordered), 1), "p99": round(p99, 1),
            "max": round(ordered[-1], 1)}


def main():
    raise_fd_limit(HOSTILE + 256)
    for tool in ("photod", "photoctl"):
        if not os.path.exists(os.path.join(BIN, tool)):
            sys.exit("%s is missing: run `swift build -c release` (or set BUILD=debug)" % os.path.join(BIN, tool))
    work = tempfile.mkdtemp(prefix="photod-hostile-bench-")
    try:
        return run(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(work):
    library = os.path.join(work, "photos")
    make_photos = os.path.join(SHARED, "tools", "make-photos")
    if os.path.exists(make_photos):
        subprocess.run([make_photos, library, str(PHOTOS), "--seed", "7"], check=True, stdout=subprocess.DEVNULL)
    else:
        os.makedirs(library)
    if IMAGE_FLOOD > 0 and BIG_PHOTOS > 0:
        make_big_photos(os.path.join(library, "big"), BIG_PHOTOS)
    sock = os.path.join(work, "run", "io.photod")
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"), PHOTOD_SOCKET=sock)
    daemon = subprocess.Popen([os.path.join(BIN, "photod"), "--root", library, "--database",
                               os.path.join(work, "index.sqlite"), "--socket", sock],
                              stderr=subprocess.PIPE, text=True, env=env)
    log = LogReader(daemon.stderr)
    log.start()
    try:
        if not log.ready.wait(600):
            sys.exit("photod did not become ready")
        return measure(daemon, sock, env, log, work)
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=30)


def measure(daemon, sock, env, log, work):
    baseline_rss = rss_kib(daemon.pid)
    ids = photo_ids(env)
    big = photo_ids(env, under=os.path.join(os.path.realpath(work), "photos", "big")) or ids
    owner = Owner(env, [i for i in ids if i not in big] or ids, work)
    before = [owner.status_ms() for _ in range(20)]
    thumbnails_before = [owner.thumbnail_ms() for _ in range(min(20, len(ids)))]
    child = start_attack_as(HOSTILE_UID, sock) if HOSTILE_UID is not None else None
    sampler = Sampler(daemon.pid)
    sampler.start()
    owner.start()
    cpu_before = cpu_seconds(daemon.pid)
    flood = start_flood(work, sock, env)
    images = start_image_flood(work, sock, env, big)
    if flood or images:
        # Its connections open before the hostile ones take every slot of this uid.
        time.sleep(1)
    stats = finish_attack(child) if child is not None else attack(sock, ATTACK_SECONDS, HOSTILE)
    cpu_during = cpu_seconds(daemon.pid) - cpu_before
    flooded = json.loads(flood.communicate(timeout=ATTACK_SECONDS + 60)[0] or "{}") if flood else None
    imaged = json.loads(images.communicate(timeout=ATTACK_SECONDS + 60)[0] or "{}") if images else None
    owner.stopped.set()
    owner.join()
    sampler.stopped.set()
    sampler.join()
    after = [owner.status_ms() for _ in range(5)]
    during = figures(owner.samples)
    result = {
        "hostile connections": HOSTILE,
        "attack seconds": ATTACK_SECONDS,
        "re-open rate": REOPEN_RATE or "unlimited",
        "hostile uid": os.getuid() if HOSTILE_UID is None else HOSTILE_UID,
        "photod cpu seconds during": round(cpu_during, 1),
        "photoctl status ms before": figures(before),
        "photoctl status ms during": during,
        "photoctl status ms after": figures(after),
        "photoctl thumbnail ms before": figures(thumbnails_before) if thumbnails_before else None,
        "photoctl thumbnail ms during": figures(owner.thumbnails) if owner.thumbnails else None,
        "status failures": owner.failures[:5],
        "status failure count": len(owner.failures),
        "rss MiB at start": round(baseline_rss / 1024, 1),
        "peak rss MiB": round(sampler.peak / 1024, 1),
        "hostile": stats,
        "photos": PHOTOS,
        "search flood connections": SEARCH_FLOOD,
        "search flood": flooded,
        "image flood connections": IMAGE_FLOOD,
        "image flood": imaged,
        "photod log lines": log.lines,
        "photod log counts": log.counts,
    }
    print(json.dumps(result, indent=2))
    problems = []
    if owner.failures:
        problems.append("%d status calls failed" % len(owner.failures))
    if during["p99"] >= STATUS_TARGET_MS:
        problems.append("status p99 %.1f ms >= %d ms" % (during["p99"], STATUS_TARGET_MS))
    if sampler.peak / 1024 >= RSS_TARGET_MIB:
        problems.append("peak RSS %.1f MiB >= %d MiB" % (sampler.peak / 1024, RSS_TARGET_MIB))
    for problem in problems:
        print("MISSED: " + problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
