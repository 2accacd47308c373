#!/usr/bin/env python3
"""Index benchmark for photod, side by side with its peers, in one run.

Makes N photos with ../shared/tools/make-photos, warms the page cache, then times:
  - exifidx index   the C floor (walk, read EXIF with libexif, insert into SQLite)
  - photod first    start on an empty index until its "ready" log line
  - photod restart  start again over the unchanged library until "ready"
  - exiftool        exiftool -r -fast2 -j -ImageDescription over the same tree
Prints files/s, the ratios the issue sets as targets, and photod's peak RSS (VmHWM).
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(REPO), "shared")
PHOTOD = os.path.join(REPO, ".build", "release", "photod")


def warm(tree):
    for folder, _, files in os.walk(tree):
        for name in files:
            with open(os.path.join(folder, name), "rb") as f:
                while f.read(1 << 20):
                    pass


def make_library(work, count):
    library = os.path.join(work, "photos")
    subprocess.run([os.path.join(SHARED, "tools", "make-photos"), library, str(count), "--seed", "7"],
                   check=True, stdout=subprocess.DEVNULL)
    return library


def build_exifidx(work):
    binary = os.path.join(work, "exifidx")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libexif", "sqlite3"],
                           check=True, capture_output=True, text=True).stdout.split()
    subprocess.run(["gcc", "-O2", "-o", binary, os.path.join(SHARED, "tools", "exifidx.c")] + flags, check=True)
    return binary


def time_exifidx(binary, library, work):
    db = os.path.join(work, "exifidx.sqlite")
    start = time.monotonic()
    subprocess.run([binary, "index", library, db], check=True, capture_output=True)
    return time.monotonic() - start


def time_photod(library, work, label):
    """Starts photod, returns (seconds to ready, peak RSS in KiB, the ready log line)."""
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"))
    args = [PHOTOD, "--root", library, "--database", os.path.join(work, "photod.sqlite"),
            "--socket", os.path.join(work, "photod.sock"), "--log-level", "info"]
    start = time.monotonic()
    process = subprocess.Popen(args, stderr=subprocess.PIPE, text=True, env=env)
    reconciled = ""
    ready_at = None
    for line in process.stderr:
        if "reconciled" in line:
            reconciled = line.strip()
        if "ready:" in line:
            ready_at = time.monotonic()
            break
    if ready_at is None:
        process.wait()
        sys.exit("photod (%s) exited before it was ready" % label)
    with open("/proc/%d/status" % process.pid) as status:
        hwm = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:"))
    process.send_signal(signal.SIGTERM)
    process.communicate(timeout=30)
    return ready_at - start, hwm, reconciled


def time_exiftool(library):
    start = time.monotonic()
    subprocess.run(["exiftool", "-r", "-fast2", "-j", "-ImageDescription", library],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - start


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    if not os.path.exists(os.path.join(SHARED, "tools", "make-photos")):
        sys.exit("bench: needs ../shared/tools beside this checkout")
    work = tempfile.mkdtemp(prefix="photod-bench-")
    try:
        library = make_library(work, count)
        exifidx = build_exifidx(work)
        files = sum(len(f) for _, _, f in os.walk(library))
        warm(library)
        # Warm-up runs, not counted: the first touch of binaries and libraries.
        time_exifidx(exifidx, library, work)
        floor = min(time_exifidx(exifidx, library, work) for _ in range(3))
        firsts, restarts, peaks = [], [], []
        for _ in range(3):
            for leftover in ("photod.sqlite", "photod.sqlite-wal", "photod.sqlite-shm"):
                path = os.path.join(work, leftover)
                if os.path.exists(path):
                    os.remove(path)
            warm(library)
            seconds, hwm, line = time_photod(library, work, "first index")
            firsts.append(seconds)
            peaks.append(hwm)
            seconds, hwm, restart_line = time_photod(library, work, "restart")
            restarts.append(seconds)
            peaks.append(hwm)
        warm(library)
        exiftool = time_exiftool(library) if shutil.which("exiftool") else None

        first, restart = sorted(firsts)[1], sorted(restarts)[1]
        rate = lambda seconds: files / seconds
        print("\nphotod index benchmark: %d photos (make-photos --seed 7), warm page cache, %d cores"
              % (files, os.cpu_count()))
        print("%-34s %10s %12s" % ("run", "seconds", "files/s"))
        print("%-34s %10.3f %12.0f" % ("exifidx index (C floor)", floor, rate(floor)))
        print("%-34s %10.3f %12.0f" % ("photod first index (median of 3)", first, rate(first)))
        print("%-34s %10.3f %12.0f" % ("photod restart, unchanged", restart, rate(restart)))
        if exiftool:
            print("%-34s %10.3f %12.0f" % ("exiftool -r -fast2 -j", exiftool, rate(exiftool)))
        print()
        if exiftool:
            print("photod first index vs exiftool:  %6.1fx   (target >= 50x)" % (exiftool / first))
        print("photod first index vs C floor:   %6.2fx slower (target <= 3x)" % (first / floor))
        print("restart / first index:           %6.2f    (target < 0.25)" % (restart / first))
        print("photod peak RSS:                 %6.1f MiB (target < 60 MiB)" % (max(peaks) / 1024))
        print("photod said: %s" % line)
        print("photod said on restart: %s" % restart_line)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
