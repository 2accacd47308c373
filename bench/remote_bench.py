#!/usr/bin/env python3
"""Polling benchmark for photod on a FUSE root (issue 31), in one run.

A bindfs mount over a folder of FOLDERS x PER photos is photod's root; every change is made in
the backing folder, behind the mount's back, so inotify sees nothing and only polling finds it.

  unchanged  wall time of one poll pass over the whole tree (photod's debug log) and photod's
             CPU time per pass (/proc/PID/stat over several passes, divided by their count)
  changed    the same with one photo added to one folder before each pass; and the latency from
             the write in the backing folder to a `photoctl watch` subscriber receiving the
             insert, next to the poll interval (expected: up to one interval plus one pass)

Needs root, bindfs and /dev/fuse (scripts/install-deps --test). REMOTE_BIN: the folder holding
photod and photoctl (default .build/release).
"""
import io
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from PIL import Image

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("REMOTE_BIN", os.path.join(REPO, ".build", "release"))
PASS = re.compile(r"polled remote folder .+? in ([\d.e-]+) (seconds|milliseconds|ms|µs|microseconds) over \d+ files "
                  r"\((every file stat-ed|\d+ unchanged folders listed by name)\)")
UNITS = {"seconds": 1, "milliseconds": 1e-3, "ms": 1e-3, "µs": 1e-6, "microseconds": 1e-6}


def tiny_jpeg():
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8)).save(buffer, "JPEG")
    return buffer.getvalue()


class Library:
    """A photod whose only root is a bindfs mount of `backing`, polled every `interval` s."""

    def __init__(self, base, interval):
        self.base, self.interval = base, interval
        self.backing, self.mount = os.path.join(base, "backing"), os.path.join(base, "library")
        os.makedirs(self.mount)
        self.env = dict(os.environ, XDG_CONFIG_HOME=base + "/config", XDG_STATE_HOME=base + "/state",
                        XDG_CACHE_HOME=base + "/cache", XDG_RUNTIME_DIR=base + "/run",
                        PHOTOD_SOCKET=base + "/run/photod/io.photod", HOME=base)
        os.makedirs(base + "/config/photod")
        with open(base + "/config/photod/photod.toml", "w") as config:
            config.write('roots = ["%s"]\nlog_level = "debug"\nremote_poll_interval = %d\n' % (self.mount, interval))
        self.log = base + "/photod.log"

    def start(self):
        self.bindfs = subprocess.Popen(["bindfs", "-f", self.backing, self.mount])
        while self.mount not in open("/proc/self/mountinfo").read():
            time.sleep(0.05)
        self.photod = subprocess.Popen([BIN + "/photod"], env=self.env, stderr=open(self.log, "w"))
        while True:
            result = self.photoctl("status", "--json")
            if result.returncode == 0 and json.loads(result.stdout)["state"] == "ready":
                return json.loads(result.stdout)
            time.sleep(0.2)

    def photoctl(self, *arguments):
        return subprocess.run([BIN + "/photoctl", *arguments], env=self.env, capture_output=True, text=True)

    def cpu(self):
        fields = open("/proc/%d/stat" % self.photod.pid).read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def passes(self, kind=None):
        """Each pass's wall time; with `kind`, only full passes ("full") or ones that listed
        unchanged folders by name ("by name")."""
        found = [(float(m.group(1)) * UNITS[m.group(2)], m.group(3) == "every file stat-ed")
                 for m in PASS.finditer(open(self.log).read())]
        return [wall for wall, full in found if kind is None or full == (kind == "full")]

    def stop(self):
        self.photod.terminate()
        self.photod.wait()
        subprocess.run(["fusermount", "-u", self.mount])
        self.bindfs.wait()


def measure(library, passes, before_each=None):
    """Over `passes` passes: the median wall time of those that listed unchanged folders by name
    and of full ones (None when there was none), and the CPU per pass of all."""
    full, by_name = len(library.passes("full")), len(library.passes("by name"))
    start_count, start_cpu = len(library.passes()), library.cpu()
    while len(library.passes()) < start_count + passes:
        if before_each:
            before_each()
        time.sleep(1)
    median = lambda walls: statistics.median(walls) if walls else None
    cpu = (library.cpu() - start_cpu) / (len(library.passes()) - start_count)
    return median(library.passes("by name")[by_name:]), median(library.passes("full")[full:]), cpu


def seconds(value):
    return "-" if value is None else "%.3f s" % value


def main():
    folders = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    per = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    interval = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    jpeg = tiny_jpeg()
    base = tempfile.mkdtemp(prefix="remote-bench-")
    library = Library(base, interval)
    for folder in range(folders):
        os.makedirs("%s/f%04d" % (library.backing, folder))
        for photo in range(per):
            with open("%s/f%04d/p%04d.jpg" % (library.backing, folder, photo), "wb") as out:
                out.write(jpeg)
    try:
        status = library.start()
        print("photod %s, %d photos in %d folders on %s, remote_poll_interval %d s" % (
            BIN, status["assets"], folders, status["roots"][0].get("fileSystem"), interval))
        time.sleep(interval * 2 + 1)
        # Eleven passes take in at least one full pass (every tenth stats every file).
        by_name, full, cpu = measure(library, 11)
        print("unchanged tree: pass listing unchanged folders by name %s wall, full pass %s wall; %.3f s CPU a pass"
              % (seconds(by_name), seconds(full), cpu))
        added = iter(range(10**6))
        by_name, full, cpu = measure(library, 5, lambda: open("%s/f0000/new%d.jpg" % (library.backing, next(added)), "wb").write(jpeg))
        print("one folder changed: pass listing unchanged folders by name %s wall, full pass %s wall; %.3f s CPU a pass"
              % (seconds(by_name), seconds(full), cpu))
        watch = subprocess.Popen([BIN + "/photoctl", "watch", "--json"], env=library.env, stdout=subprocess.PIPE, text=True)
        time.sleep(1)
        latencies = []
        for n in range(8):
            started = time.monotonic()
            with open("%s/f0001/late%d.jpg" % (library.backing, n), "wb") as out:
                out.write(jpeg)
            while '"inserted":["' not in watch.stdout.readline().replace(" ", ""):
                pass
            latencies.append(time.monotonic() - started)
            time.sleep(interval * 0.37)
        watch.terminate()
        print("backing write to subscriber: min %.2f s, median %.2f s, max %.2f s (interval %d s)" % (
            min(latencies), statistics.median(latencies), max(latencies), interval))
    finally:
        library.stop()
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
