#!/usr/bin/env python3
"""photod at scale, each figure next to its peer or floor from the same run (issue 16's table).

  bench/scale_bench.py [N] [--package]      (bench/run scale [N]; N defaults to 100,000)

The library: N make-photos JPEGs (--seed 7). At N = 100,000 the search benchmark's library is
reused when it exists (.build-bench/search-100000, here or in ../main); otherwise the photos are
made once into .build-bench/scale-N and kept. Past SCALE_TINY_ABOVE (200,000) files, each photo
gets a 64x48 picture instead of 640x480 (the same EXIF, a small body): 1,000,000 of them take
about 4 GB of disk blocks instead of 45 GB. The page cache is warmed right before each section.

Rows, photod on the right, the peer on the left, and photod / peer:
  first index              exifidx index (the C floor) vs photod on an empty index, start to "ready"
  peak RSS while indexing  exifidx's VmHWM vs photod's VmHWM at "ready"
  idle RSS                 photod's VmRSS SCALE_SETTLE seconds after "ready", and after a Rescan
  restart, unchanged       find -printf '%p %s %T@\\n' over the library vs photod over its index
  photoctl groups          the whole process, vs the sqlite3 CLI running photod's query on the same
                           index and vs a Swift program on the standard library alone doing the
                           same varlink round trip (bench/scale/ListGroups.swift)
  photoctl status, list --limit 100, find beach --limit 50, show ID
                           the whole process, vs the sqlite3 CLI running the SQL photod runs for it
                           (bench/scale_commands.py)
  index size               the index file (and WAL) per photo after photod stopped
  root renamed while down  photod over a copy of its index in which the library's folders are
                           recorded under another name, start to "ready" (every photo found by its
                           inode and moved, keeping its id), next to the first index
  packaged                 photoctl, photod and the newest .deb in dist/ or .build-bench/package
                           (--package builds one first with packaging/build-deb: minutes)
SCALE_RUNS repetitions of the first index (default 3, 1 past 200,000), twice as many restarts.
SCALE_BINARIES measures the photod and photoctl in another folder (an older build, side by side).
"""
import glob
import importlib.machinery
import importlib.util
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from index_bench import build_exifidx, warm
from permissions_bench import Varlink
import scale_commands

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(REPO), "shared")
# The photod and photoctl to measure (SCALE_BINARIES: another folder holding both, e.g. an older build).
RELEASE = os.environ.get("SCALE_BINARIES", os.path.join(REPO, ".build", "release"))
BENCH = os.path.join(REPO, ".build-bench")
TINY_ABOVE = int(os.environ.get("SCALE_TINY_ABOVE", "200000"))
SETTLE = float(os.environ.get("SCALE_SETTLE", "3"))
# photod's own query for ListGroups (StoreReader.groups()).
GROUPS_SQL = "SELECT key, name, count, latest_taken, latest_mtime_ns FROM groups ORDER BY name, key;"


def proc_status(pid):
    """VmRSS and VmHWM of a process, in KiB."""
    with open("/proc/%d/status" % pid) as status:
        fields = dict(line.split(":", 1) for line in status if ":" in line)
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def rss_split(pid):
    """Anonymous and file-backed resident KiB (smaps_rollup), to say where idle memory is."""
    fields = {}
    with open("/proc/%d/smaps_rollup" % pid) as rollup:
        for line in rollup:
            parts = line.split()
            if len(parts) >= 2 and parts[0].endswith(":") and parts[1].isdigit():
                fields[parts[0][:-1]] = int(parts[1])
    return fields.get("Anonymous", 0), fields.get("Rss", 0) - fields.get("Anonymous", 0)


def make_tiny_photos(library, count):
    """make-photos itself, with a 64x48 base picture: same EXIF, same tree, a far smaller body."""
    loader = importlib.machinery.SourceFileLoader("make_photos", os.path.join(SHARED, "tools", "make-photos"))
    spec = importlib.util.spec_from_loader("make_photos", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    render = module.render_base
    module.render_base = lambda rng: render(rng, 64, 48)
    argv = sys.argv
    sys.argv = ["make-photos", library, str(count), "--seed", "7", "--bases", "4"]
    try:
        module.main()
    finally:
        sys.argv = argv


def library_for(count):
    """The photos (made once and kept) and a work folder for this run's indexes."""
    work = os.path.join(BENCH, "scale-%d" % count)
    candidates = [os.path.join(base, ".build-bench", "search-%d" % count)
                  for base in (REPO, os.path.join(os.path.dirname(REPO), "main"))] + [work]
    for folder in candidates:
        if os.path.exists(os.path.join(folder, "photos.made")):
            return os.path.join(folder, "photos"), work
    library = os.path.join(work, "photos")
    tiny = count > TINY_ABOVE
    print("making %d photos%s in %s (once; later runs reuse them)"
          % (count, " (64x48 pictures)" if tiny else "", library), flush=True)
    shutil.rmtree(library, ignore_errors=True)
    os.makedirs(work, exist_ok=True)
    if tiny:
        with open(os.devnull, "w") as quiet:
            stdout, sys.stdout = sys.stdout, quiet
            try:
                make_tiny_photos(library, count)
            finally:
                sys.stdout = stdout
    else:
        subprocess.run([os.path.join(SHARED, "tools", "make-photos"), library, str(count), "--seed", "7"],
                       check=True, stdout=subprocess.DEVNULL)
    open(os.path.join(work, "photos.made"), "w").close()
    return library, work


class Photod:
    """The release photod on `library`, from start until "ready"; its log drained in a thread."""

    def __init__(self, library, run, sock, env):
        started = time.monotonic()
        self.process = subprocess.Popen(
            [os.path.join(RELEASE, "photod"), "--root", library, "--database", os.path.join(run, "index.sqlite"),
             "--socket", sock, "--log-level", "info"], stderr=subprocess.PIPE, text=True, env=env)
        self.reconciled = ""
        for line in self.process.stderr:
            if "reconciled" in line:
                self.reconciled = line.strip()
            if "ready:" in line:
                break
        else:
            self.process.wait()
            sys.exit("photod exited before it was ready")
        self.seconds = time.monotonic() - started
        self.rss, self.hwm = proc_status(self.process.pid)
        self.drain = threading.Thread(target=lambda: [None for _ in self.process.stderr], daemon=True)
        self.drain.start()

    def idle_rss(self):
        """VmRSS once photod has had SETTLE seconds of quiet, with its anonymous/file split (KiB)."""
        time.sleep(SETTLE)
        return proc_status(self.process.pid)[0], rss_split(self.process.pid)

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=120)
        self.drain.join(timeout=10)


def remove_index(run):
    for path in glob.glob(os.path.join(run, "index.sqlite*")):
        os.remove(path)


def timed(arguments, env=None):
    started = time.perf_counter()
    subprocess.run(arguments, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def exifidx_run(binary, library, run):
    """Seconds and VmHWM (KiB, from its own summary line) of one `exifidx index`."""
    started = time.monotonic()
    result = subprocess.run([binary, "index", library, os.path.join(run, "exifidx.sqlite")],
                            check=True, capture_output=True, text=True)
    seconds = time.monotonic() - started
    hwm = int(result.stderr.rsplit("maxrss_kb=", 1)[1].split()[0])
    return seconds, hwm


def process_ms(arguments, env, runs=50):
    """p50 and p99 milliseconds of a whole process, after one untimed run."""
    timed(arguments, env)
    samples = sorted(timed(arguments, env) * 1000 for _ in range(runs))
    return statistics.median(samples), samples[min(len(samples) - 1, round(0.99 * (len(samples) - 1)))]


def build_list_groups():
    """bench/scale/ListGroups.swift, built with swiftc -O (stdlib and Glibc only); skipped when up to date."""
    source = os.path.join(REPO, "bench", "scale", "ListGroups.swift")
    binary = os.path.join(BENCH, "scale-bin", "ListGroups")
    if not os.path.exists(binary) or os.path.getmtime(binary) < os.path.getmtime(source):
        os.makedirs(os.path.dirname(binary), exist_ok=True)
        subprocess.run(["swiftc", "-O", "-parse-as-library", "-module-cache-path",
                        os.path.join(BENCH, "scale-bin", "module-cache"), source, "-o", binary], check=True)
    return binary


def package(build):
    """The .deb (built now with --package into .build-bench/package, else the newest in dist/ or
    there), its binaries' sizes, and the packaged photoctl --help time; None when there is none."""
    # Where `make deb` and `bench/run package` put it.
    places = [os.path.join(REPO, "dist"), os.path.join(BENCH, "package")]
    if build:
        subprocess.run([os.path.join(REPO, "packaging", "build-deb"), places[1]], check=True, stdout=subprocess.DEVNULL)
        places = places[1:]
    debs = [deb for place in places for deb in glob.glob(os.path.join(place, "photod_*.deb"))]
    if not debs:
        return None
    deb = max(debs, key=os.path.getmtime)
    unpacked = tempfile.mkdtemp(prefix="photod-scale-deb-")
    try:
        subprocess.run(["dpkg-deb", "-x", deb, unpacked], check=True)
        sizes = {name: os.path.getsize(os.path.join(unpacked, "usr", "bin", name)) for name in ("photoctl", "photod")}
        help_ms = process_ms([os.path.join(unpacked, "usr", "bin", "photoctl"), "--help"], None, 30)[0]
    finally:
        shutil.rmtree(unpacked, ignore_errors=True)
    return deb, os.path.getsize(deb), sizes, help_ms


def renamed_copy(database, library, renamed):
    """A copy of photod's index (made with its WAL by the sqlite3 CLI) in which every folder under
    `library` is recorded under `library`-before-rename: photod started on it over the library
    finds every photo moved there while it was down, as after `mv` of a configured folder. (The
    rewrite marks the folders' fingerprints unknown, by a trigger of the index's, so the start
    compares file by file, as after a real rename, where nothing is recorded under the new path.)"""
    for path in glob.glob(renamed + "*"):
        os.remove(path)
    subprocess.run(["sqlite3", database, ".backup '%s'" % renamed], check=True)
    old, new = library.rstrip("/") + "/", library.rstrip("/") + "-before-rename/"
    subprocess.run(["sqlite3", renamed, "UPDATE folders SET path = CAST('%s' || substr(CAST(path AS TEXT), %d) AS BLOB) "
                    "WHERE substr(CAST(path AS TEXT), 1, %d) = '%s';" % (new, len(old) + 1, len(old), old)], check=True)


def changed_restarts(library, run, sock, env):
    """find's walk, then photod's restart with a copy of one photo added in its folder, then
    photod's restart once the copy is gone again (seconds each)."""
    source = next(os.path.join(folder, name) for folder, _, names in sorted(os.walk(library))
                  for name in sorted(names) if name.lower().endswith(".jpg"))
    added = os.path.join(os.path.dirname(source), "zz-scale-bench-added.jpg")
    shutil.copyfile(source, added)
    try:
        walk = timed(["find", library, "-printf", "%p %s %T@\\n"])
        daemon = Photod(library, run, sock, env)
        with_added = daemon.seconds
        daemon.stop()
    finally:
        os.remove(added)
    daemon = Photod(library, run, sock, env)
    removed = daemon.seconds
    daemon.stop()
    return walk, with_added, removed


def row(name, peer, peer_value, value, ratio, target):
    print("%-32s %-30s %11s %11s %8s   %s" % (name, peer, peer_value, value, ratio, target))


def mib(kib):
    return "%.1f MiB" % (kib / 1024)


def main():
    arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
    count = int(arguments[0]) if arguments else 100000
    if not os.path.exists(os.path.join(SHARED, "tools", "make-photos")):
        sys.exit("bench: needs ../shared/tools beside this checkout")
    library, work = library_for(count)
    run = os.path.join(work, "run")
    shutil.rmtree(run, ignore_errors=True)
    os.makedirs(os.path.join(run, "config", "photod"))
    list_groups = build_list_groups()
    with open(os.path.join(run, "config", "photod", "photod.toml"), "w") as config:
        config.write('[permissions]\ntrusted = ["script:*/scale_bench.py", "%s"]\n' % list_groups)
    sock = os.path.join(run, "photod.sock")
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(run, "config"), XDG_CACHE_HOME=os.path.join(run, "cache"),
               PHOTOD_SOCKET=sock)
    exifidx = build_exifidx(run)
    runs = int(os.environ.get("SCALE_RUNS", "3" if count <= TINY_ABOVE else "1"))
    print("scale benchmark: %s, %d runs; warming the page cache" % (library, runs), flush=True)
    warm(library)
    exifidx_run(exifidx, library, run)  # untimed: binaries, libraries, the tree's dentries

    floors, floor_hwms, firsts, hwms, idles, rescanned, splits = [], [], [], [], [], [], []
    for _ in range(runs):
        warm(library)
        seconds, hwm = exifidx_run(exifidx, library, run)
        floors.append(seconds)
        floor_hwms.append(hwm)
        remove_index(run)
        warm(library)
        daemon = Photod(library, run, sock, env)
        firsts.append(daemon.seconds)
        hwms.append(daemon.hwm)
        first_line = daemon.reconciled
        try:
            rss, split = daemon.idle_rss()
            idles.append(rss)
            splits.append(split)
            Varlink(sock).call("io.photod.Library.Rescan")
            rescanned.append(daemon.idle_rss()[0])
        finally:
            daemon.stop()

    walks, restarts, restart_hwms = [], [], []
    timed(["find", library, "-printf", "%p %s %T@\\n"])  # untimed
    for _ in range(2 * runs + 1):
        walks.append(timed(["find", library, "-printf", "%p %s %T@\\n"]))
        daemon = Photod(library, run, sock, env)
        restarts.append(daemon.seconds)
        restart_hwms.append(daemon.hwm)
        restart_line = daemon.reconciled
        daemon.stop()

    # A restart after a photo was added while photod was down (its folder's fingerprint differs:
    # that folder's stem is compared file by file), and the one after it was removed again.
    changed = changed_restarts(library, run, sock, env)

    daemon = Photod(library, run, sock, env)
    try:
        assets = Varlink(sock).call("io.photod.Library.Status")["assets"]
        database = os.path.join(run, "index.sqlite")
        for path in (database, database + "-wal"):
            if os.path.exists(path):
                with open(path, "rb") as f:
                    while f.read(1 << 20):
                        pass
        photoctl = os.path.join(RELEASE, "photoctl")
        groups = process_ms([photoctl, "groups"], env)
        sqlite = process_ms(["sqlite3", "-readonly", "-batch", database, GROUPS_SQL], env)
        stdlib = process_ms([list_groups, sock], env)
        photoctl_help = process_ms([photoctl, "--help"], env)
        commands = scale_commands.rows(photoctl, database, library, env, assets)
    finally:
        daemon.stop()
    index_bytes = sum(os.path.getsize(p) for p in glob.glob(os.path.join(run, "index.sqlite")) +
                      glob.glob(os.path.join(run, "index.sqlite-wal")))
    packaged = package("--package" in sys.argv)
    renamed = os.path.join(run, "renamed", "index.sqlite")
    os.makedirs(os.path.dirname(renamed), exist_ok=True)
    renamed_copy(os.path.join(run, "index.sqlite"), os.path.realpath(library), renamed)
    warm(library)
    daemon = Photod(library, os.path.dirname(renamed), sock, env)
    rename_seconds, rename_line, rename_hwm = daemon.seconds, daemon.reconciled, daemon.hwm
    daemon.stop()

    median = statistics.median
    first, floor, restart, walk = median(firsts), median(floors), median(restarts), median(walks)
    print("\nphotod at scale: %d photos (make-photos --seed 7%s), %d cores, warm page cache; medians of %d runs "
          "(restart: %d)" % (assets, ", 64x48 pictures" if count > TINY_ABOVE else "", os.cpu_count(), runs,
                             len(restarts)))
    row("measure", "peer / floor", "peer", "photod", "ratio", "target")
    row("first index", "exifidx index (C floor)", "%.2f s" % floor, "%.2f s" % first, "%.2fx" % (first / floor),
        "<= 0.8x the floor (<= 1.0x at 1,000,000)")
    row("", "files/s", "%.0f" % (assets / floor), "%.0f" % (assets / first), "", "")
    row("peak RSS while indexing", "exifidx VmHWM", mib(median(floor_hwms)), mib(max(hwms)),
        "%.1fx" % (max(hwms) / median(floor_hwms)), "<= 64 MiB (worst of the runs)")
    anon, files = splits[len(splits) // 2]
    row("idle RSS after ready", "", "", mib(median(idles)), "", "<= 20 MiB (%s anonymous, %s files)"
        % (mib(anon), mib(files)))
    row("idle RSS after a rescan", "", "", mib(median(rescanned)), "", "<= 20 MiB")
    row("restart, nothing changed", "find -printf walk + stat", "%.3f s" % walk, "%.3f s" % restart,
        "%.2fx" % (restart / walk), "<= 1.0x the walk (peak RSS %s)" % mib(max(restart_hwms)))
    row("restart, a photo added while down", "find -printf walk + stat", "%.3f s" % changed[0], "%.3f s" % changed[1],
        "%.2fx" % (changed[1] / changed[0]), "(its folder compared; the photo removed again: %.3f s)" % changed[2])
    row("photoctl groups, whole process", "sqlite3 CLI, same query", "%.1f ms" % sqlite[0], "%.1f ms" % groups[0],
        "%.1fx" % (groups[0] / sqlite[0]), "<= 5 ms (p99 %.1f ms)" % groups[1])
    row("", "Swift, stdlib only, ListGroups", "%.1f ms" % stdlib[0], "", "%.1fx" % (groups[0] / stdlib[0]), "")
    for name, peer, peer_ms, photoctl_ms in commands:
        row("photoctl %s" % name, peer, "%.1f ms" % peer_ms[0], "%.1f ms" % photoctl_ms[0],
            "%.1fx" % (photoctl_ms[0] / peer_ms[0]), "<= 8 ms (p99 %.1f ms)" % photoctl_ms[1])
    row("photoctl --help", "", "", "%.1f ms" % photoctl_help[0], "", "")
    row("index file size", "", "", "%.0f B/photo" % (index_bytes / assets), "",
        "<= 300 B/photo (%.1f MB)" % (index_bytes / 1e6))
    if packaged:
        deb, deb_size, sizes, help_ms = packaged
        row("packaged photoctl", "", "", "%.1f MB" % (sizes["photoctl"] / 1e6), "", "<= 16 MB")
        row("packaged photod", "", "", "%.1f MB" % (sizes["photod"] / 1e6), "", "")
        row("the .deb", "", "", "%.1f MB" % (deb_size / 1e6), "", "<= 16 MB (%s)" % os.path.relpath(deb, REPO))
        row("packaged photoctl --help", "", "", "%.1f ms" % help_ms, "", "")
    else:
        row("packaged sizes", "", "", "-", "", "no .deb: make deb, bench/run package, or --package")
    row("root renamed while down", "photod's first index", "%.2f s" % first, "%.2f s" % rename_seconds,
        "%.2fx" % (rename_seconds / first), "every photo moved, ids kept (peak RSS %s)" % mib(rename_hwm))
    print("first index, photod said: %s" % first_line)
    print("root renamed, photod said: %s" % rename_line)
    print("restart, photod said: %s" % restart_line)
    shutil.rmtree(run, ignore_errors=True)


if __name__ == "__main__":
    main()
