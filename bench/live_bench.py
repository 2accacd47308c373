#!/usr/bin/env python3
"""Live-watching benchmark for photod, side by side with the raw inotify floor, in one run.

  latency  a writer creates N files at RATE/s; for each, the time from the writer's close()
           returning to a varlink subscriber receiving the change that inserted it (p50, p99),
           next to `exifidx latency` (inotify event delivery alone, no parsing or database)
  burst    1,000 and 10,000 photos copied in with `cp -r`; from the copy's end to the last
           change received, next to `exifidx watch` (inotify + libexif + SQLite in plain C)
  memory   photod's resident memory after the 10,000-photo burst
"""
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import varlink

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(REPO), "shared")
# LIVE_PHOTOD: another photod to measure (an older build, side by side in one session).
PHOTOD = os.environ.get("LIVE_PHOTOD", os.path.join(REPO, ".build", "release", "photod"))


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def status_rss(pid):
    with open("/proc/%d/status" % pid) as status:
        fields = dict(line.split(":", 1) for line in status)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


class Photod:
    def __init__(self, work, library):
        self.socket = os.path.join(work, "photod.sock")
        env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"))
        # The subscriber is this script: trust it as an owner, or photod answers it
        # AuthorizationRequired like any other app (the bench broke that way when permissions came).
        os.makedirs(os.path.join(work, "config", "photod"), exist_ok=True)
        with open(os.path.join(work, "config", "photod", "photod.toml"), "w") as config:
            config.write('[permissions]\ntrusted = ["script:*/live_bench.py"]\n')
        self.process = subprocess.Popen(
            [PHOTOD, "--root", library, "--database", os.path.join(work, "photod.sqlite"),
             "--socket", self.socket, "--log-level", "warning"], env=env, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with varlink.Client(address="unix:" + self.socket) as client, \
                        client.open("io.photod.Library") as library_api:
                    if library_api.Status()["state"] in ("ready", "degraded"):
                        return
            except Exception:
                pass
            time.sleep(0.05)
        sys.exit("bench: photod did not become ready")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)


class Subscriber(threading.Thread):
    """Records when each inserted id arrives."""

    def __init__(self, socket):
        super().__init__(daemon=True)
        self.socket = socket
        self.arrivals = {}
        self.ready = threading.Event()

    def run(self):
        try:
            with varlink.Client(address="unix:" + self.socket) as client, client.open("io.photod.Library") as api:
                for reply in api.Subscribe(_more=True):
                    now = time.monotonic()
                    self.ready.set()
                    for asset_id in reply["change"]["inserted"]:
                        self.arrivals.setdefault(asset_id, now)
        except (BrokenPipeError, ConnectionError):
            pass  # photod stopped at the end of a run

    def wait_for(self, count, timeout):
        deadline = time.monotonic() + timeout
        while len(self.arrivals) < count and time.monotonic() < deadline:
            time.sleep(0.001)
        return len(self.arrivals) >= count


def paths_of(socket, ids):
    result = {}
    with varlink.Client(address="unix:" + socket) as client, client.open("io.photod.Library") as api:
        for start in range(0, len(ids), 1000):
            for asset in api.GetAssets(ids=ids[start:start + 1000])["assets"]:
                result[asset["id"]] = asset["path"]
    return result


def photod_latency(work, sample, count, rate):
    library = os.path.join(work, "latency-lib")
    os.makedirs(library)
    os.makedirs(os.path.join(work, "latency"))
    photod = Photod(os.path.join(work, "latency"), library)
    subscriber = Subscriber(photod.socket)
    subscriber.start()
    subscriber.ready.wait(10)
    closed = {}
    interval = 1.0 / rate
    start = time.monotonic()
    for i in range(count):
        path = os.path.join(library, "f-%d.jpg" % i)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.write(fd, sample)
        os.close(fd)
        closed[path] = time.monotonic()
        next_at = start + (i + 1) * interval
        pause = next_at - time.monotonic()
        if pause > 0:
            time.sleep(pause)
    if not subscriber.wait_for(count, 30):
        sys.exit("bench: the subscriber saw %d of %d files" % (len(subscriber.arrivals), count))
    paths = paths_of(photod.socket, list(subscriber.arrivals))
    latencies = [(subscriber.arrivals[i] - closed[p]) * 1000 for i, p in paths.items() if p in closed]
    photod.stop()
    return latencies


def exifidx_latency(binary, work, count, rate):
    folder = os.path.join(work, "floor-lat")
    os.makedirs(folder)
    result = subprocess.run([binary, "latency", folder, str(count), str(rate)], capture_output=True, text=True)
    return result.stdout + result.stderr


def photod_burst(work, staging, count):
    base = os.path.join(work, "burst-%d" % count)
    library = os.path.join(base, "lib")
    os.makedirs(library)
    photod = Photod(base, library)
    subscriber = Subscriber(photod.socket)
    subscriber.start()
    subscriber.ready.wait(10)
    started = time.monotonic()
    subprocess.run(["cp", "-r", staging, os.path.join(library, "in")], check=True)
    copied = time.monotonic()
    if not subscriber.wait_for(count, 120):
        sys.exit("bench: burst of %d: saw %d" % (count, len(subscriber.arrivals)))
    last = max(subscriber.arrivals.values())
    rss, hwm = status_rss(photod.process.pid)
    photod.stop()
    return last - copied, last - started, rss, hwm


def exifidx_burst(binary, work, staging, count):
    base = os.path.join(work, "floor-burst-%d" % count)
    library = os.path.join(base, "lib")
    os.makedirs(library)
    process = subprocess.Popen([binary, "watch", library, os.path.join(base, "x.sqlite")],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for line in process.stdout:
        if line.startswith("ready"):
            break
    started = time.monotonic()
    subprocess.run(["cp", "-r", staging, os.path.join(library, "in")], check=True)
    copied = time.monotonic()
    finished = None
    for line in process.stdout:
        fields = dict(part.split("=", 1) for part in line.split() if "=" in part)
        if line.startswith("commit") and int(fields.get("total", 0)) >= count:
            finished = float(fields["t"])
            break
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
    return ((finished - copied), (finished - started)) if finished else (None, None)


def main():
    count = int(os.environ.get("LATENCY_FILES", "1000"))
    rate = int(os.environ.get("LATENCY_RATE", "200"))
    work = tempfile.mkdtemp(prefix="photod-live-")
    try:
        binary = os.path.join(work, "exifidx")
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libexif", "sqlite3"],
                               check=True, capture_output=True, text=True).stdout.split()
        subprocess.run(["gcc", "-O2", "-o", binary, os.path.join(SHARED, "tools", "exifidx.c")] + flags, check=True)
        stagings = {}
        for n in (1000, 10000):
            stagings[n] = os.path.join(work, "staging-%d" % n)
            subprocess.run([os.path.join(SHARED, "tools", "make-photos"), stagings[n], str(n), "--seed", "11"],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        sample_path = next(os.path.join(d, f) for d, _, fs in os.walk(stagings[1000]) for f in fs)
        with open(sample_path, "rb") as f:
            sample = f.read()

        floor = exifidx_latency(binary, work, count, rate)
        latencies = photod_latency(work, sample, count, rate)
        bursts = {}
        for n in (1000, 10000):
            floor_after, floor_total = exifidx_burst(binary, work, stagings[n], n)
            after, total, rss, hwm = photod_burst(work, stagings[n], n)
            bursts[n] = (floor_after, floor_total, after, total, rss, hwm)

        print("\nphotod live benchmark (%d cores)" % os.cpu_count())
        print("close() to subscriber, %d files at %d/s:" % (count, rate))
        print("  photod (varlink Subscribe, Python client): p50 %.2f ms, p99 %.2f ms, max %.2f ms"
              % (statistics.median(latencies), percentile(latencies, 0.99), max(latencies)))
        print("  raw inotify floor (exifidx latency):")
        for line in floor.strip().splitlines():
            print("    " + line.strip())
        for n, (floor_after, floor_total, after, total, rss, hwm) in bursts.items():
            print("burst of %5d photos (cp -r): last change %+.3f s after the copy ended (exifidx watch %s); "
                  "from the copy's start %.3f s (exifidx watch %s, ratio %s); photod RSS %.1f MiB (peak %.1f MiB)"
                  % (n, after, "%+.3f s" % floor_after if floor_after is not None else "?", total,
                     "%.3f s" % floor_total if floor_total else "?",
                     "%.2fx" % (total / floor_total) if floor_total else "?", rss, hwm))
        print("targets: p99 < 10 ms (2 ms of gathering for editors' saves included); 1,000-photo burst within 5x exifidx watch; "
              "RSS after 10,000 < 60 MiB")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
