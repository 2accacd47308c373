#!/usr/bin/env python3
"""Image benchmark for photod, side by side with its peers, in one run.

  throughput  256-px thumbnails of every file (10,000 make-photos JPEGs, 640x480; then the real
              corpus) through photod's RequestImage (highQuality, JPEG, 4 clients at once),
              next to `vipsthumbnail -s 256` (libvips-tools, one process over all files) and
              ImageMagick `convert -thumbnail 256x256` (one process per file, on a sample)
  latency     from a warm daemon, one client: `fast` 256-px requests (p50, p99) and
              `highQuality` 256-px requests (p50, p99)
  memory      the worker's peak RSS (VmHWM) after the largest corpus image at 256 and 2048 px,
              and photod's own RSS before and after all the image work

  bench/run images [N]     N: make-photos JPEGs (default 10000)
"""
import base64
import json
import os
import random
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
RELEASE = os.path.join(REPO, ".build", "release")
PHOTOD = os.path.join(RELEASE, "photod")


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def rss_kib(pid, field="VmRSS"):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def children(pid):
    found = []
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/children" % (pid, task)) as listing:
                found += [int(child) for child in listing.read().split()]
        except OSError:
            pass
    return found


class Connection:
    """A raw varlink connection: one call at a time, no interface lookups."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = b""

    def call(self, method, parameters):
        self.sock.sendall(json.dumps({"method": method, "parameters": parameters}).encode() + b"\0")
        while b"\0" not in self.buffer:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise RuntimeError("photod closed the connection")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        reply = json.loads(message)
        if "error" in reply:
            raise RuntimeError("%s %s" % (reply["error"], reply.get("parameters")))
        return reply["parameters"]

    def close(self):
        self.sock.close()


class Photod:
    def __init__(self, work, library, workers=0):
        self.socket = os.path.join(work, "photod.sock")
        self.cache = os.path.join(work, "cache")
        config = os.path.join(work, "config", "photod")
        os.makedirs(config, exist_ok=True)
        with open(os.path.join(config, "photod.toml"), "w") as file:
            file.write('[permissions]\ntrusted = ["script:*/image_bench.py"]\n'
                       '[thumbnails]\ncache_folder = "%s"\nworkers = %d\n' % (os.path.join(self.cache, "thumbnails"), workers))
        env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"))
        self.process = subprocess.Popen(
            [PHOTOD, "--root", library, "--database", os.path.join(work, "photod.sqlite"),
             "--socket", self.socket, "--log-level", "warning"], env=env, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                connection = Connection(self.socket)
                state = connection.call("io.photod.Library.Status", {})["state"]
                connection.close()
                if state in ("ready", "degraded"):
                    return
            except (OSError, RuntimeError):
                pass
            time.sleep(0.05)
        sys.exit("bench: photod did not become ready")

    def ids(self):
        connection = Connection(self.socket)
        ids, cursor = [], None
        while True:
            parameters = {"limit": 10000, "sort": "path"}
            if cursor:
                parameters["cursor"] = cursor
            page = connection.call("io.photod.Library.ListAssets", parameters)
            ids += [(asset["id"], asset["path"]) for asset in page["assets"]]
            cursor = page.get("cursor")
            if not cursor:
                break
        connection.close()
        return ids

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)


def request(connection, asset, size, mode, fmt="jpeg", height=None):
    return connection.call("io.photod.Library.RequestImage", {
        "id": asset, "width": size, "height": height or size, "deliveryMode": mode, "format": fmt})


def photod_throughput(photod, ids, clients=4, height=None):
    queue = list(ids)
    lock = threading.Lock()
    failures = []

    def worker():
        connection = Connection(photod.socket)
        while True:
            with lock:
                if not queue:
                    break
                asset = queue.pop()
            try:
                reply = request(connection, asset, 256, "highQuality", height=height)
                base64.b64decode(reply["data"])
            except RuntimeError as error:
                failures.append(str(error))
        connection.close()

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    start = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.monotonic() - start, failures


def vipsthumbnail(paths, out):
    os.makedirs(out, exist_ok=True)
    start = time.monotonic()
    result = subprocess.run(["vipsthumbnail", "-s", "256", "-o", os.path.join(out, "%s.jpg")] + paths,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.monotonic() - start
    made = len(os.listdir(out))
    return elapsed, made, result.returncode


def convert(paths, out):
    os.makedirs(out, exist_ok=True)
    start = time.monotonic()
    made = 0
    for index, path in enumerate(paths):
        target = os.path.join(out, "%d.jpg" % index)
        if subprocess.run(["convert", path + "[0]", "-thumbnail", "256x256", target],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
            made += 1
    return time.monotonic() - start, made


def warm(paths):
    for path in paths:
        with open(path, "rb") as file:
            while file.read(1 << 20):
                pass


def latencies(photod, ids, mode, count):
    connection = Connection(photod.socket)
    sample = random.Random(7).sample(ids, min(count, len(ids)))
    times = []
    for asset in sample:
        start = time.perf_counter()
        request(connection, asset, 256, mode)
        times.append((time.perf_counter() - start) * 1000)
    connection.close()
    return percentile(times, 0.5), percentile(times, 0.99)


def section(title, photod, entries, sample_size):
    ids = [asset for asset, _ in entries]
    paths = [path for _, path in entries]
    with tempfile.TemporaryDirectory(prefix="photod-image-bench-out-") as out:
        warm(paths)
        vips_s, vips_made, _ = vipsthumbnail(paths, os.path.join(out, "vips"))
        warm(paths)
        photod_s, failures = photod_throughput(photod, ids)
        warm(paths)
        # A 256x255 box is no cache size: the same work without the PNG copy for the cache.
        plain_s, _ = photod_throughput(photod, ids, height=255)
        sample = paths[:sample_size]
        warm(sample)
        convert_s, convert_made = convert(sample, os.path.join(out, "magick"))
    n = len(ids)
    print("%s: %d files" % (title, n))
    print("  photod RequestImage highQuality 256 px (4 clients): %7.2f s  %7.0f images/s  (%d failed)"
          % (photod_s, n / photod_s, len(failures)))
    print("    the same at 256x255, no cache copy:              %7.2f s  %7.0f images/s"
          % (plain_s, n / plain_s))
    print("  vipsthumbnail -s 256 (one process):                 %7.2f s  %7.0f images/s  (%d made)"
          % (vips_s, n / vips_s, vips_made))
    print("  photod against vipsthumbnail, cache copy included:  %7.2fx  (target >= 1.5x)" % (vips_s / photod_s))
    print("  convert -thumbnail 256x256 (per file, %d sampled):  %7.2f s  %7.0f images/s  (%d made)"
          % (len(sample), convert_s, len(sample) / convert_s, convert_made))
    return failures


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    if not os.path.isdir(SHARED):
        sys.exit("bench: needs ../shared (make-photos and the corpus)")
    for tool in ("vipsthumbnail", "convert"):
        if shutil.which(tool) is None:
            sys.exit("bench: %s is missing (scripts/install-deps --bench)" % tool)
    work = tempfile.mkdtemp(prefix="photod-image-bench-")
    try:
        library = os.path.join(work, "library")
        subprocess.run([os.path.join(SHARED, "tools", "make-photos"), library, str(count), "--seed", "5"],
                       check=True, stdout=subprocess.DEVNULL)
        photod = Photod(work, library)
        try:
            entries = photod.ids()
            before = rss_kib(photod.process.pid)
            section("make-photos", photod, entries, 300)
            fast = latencies(photod, [asset for asset, _ in entries], "fast", 2000)
            quality = latencies(photod, [asset for asset, _ in entries], "highQuality", 500)
            print("latency, warm daemon, one client, 256 px:")
            print("  fast         p50 %6.2f ms  p99 %6.2f ms   (target p99 < 5 ms)" % fast)
            print("  highQuality  p50 %6.2f ms  p99 %6.2f ms   (target p50 < 20 ms)" % quality)
            after = rss_kib(photod.process.pid)
            print("photod RSS: %.1f MiB before image work, %.1f MiB after %d images"
                  % (before / 1024, after / 1024, 2 * len(entries) + 2500))
        finally:
            photod.stop()

        corpus = os.path.join(SHARED, "corpus", "images")
        corpus_library = os.path.join(work, "corpus")
        shutil.copytree(corpus, corpus_library)
        shutil.rmtree(os.path.join(work, "cache"), ignore_errors=True)
        os.remove(os.path.join(work, "photod.sqlite"))
        photod = Photod(work, corpus_library)
        try:
            entries = photod.ids()
            failures = section("real corpus", photod, entries, 259)
            reasons = {}
            for failure in failures:
                reasons[failure.split(" ")[0]] = reasons.get(failure.split(" ")[0], 0) + 1
            print("  photod failures by error: %s" % (reasons or "none"))
        finally:
            photod.stop()
        worker_memory(work, corpus_library)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def worker_memory(work, corpus_library):
    """Peak RSS of one fresh worker per image, for the largest corpus images by pixels."""
    with open(os.path.join(SHARED, "corpus", "manifest.json")) as file:
        manifest = json.load(file)
    sized = [entry for entry in manifest if entry.get("image_width") and entry.get("image_height")]
    largest = sorted(sized, key=lambda entry: entry["image_width"] * entry["image_height"], reverse=True)[:4]
    worst = 0
    print("worker peak RSS (VmHWM), a fresh worker per image (target <= 150 MiB at 256 px):")
    for entry in largest:
        scratch = os.path.join(work, "memory-" + entry["file"])
        library = os.path.join(scratch, "library")
        os.makedirs(library)
        shutil.copy(os.path.join(corpus_library, entry["file"]), library)
        photod = Photod(scratch, library, workers=1)
        try:
            asset = photod.ids()[0][0]
            connection = Connection(photod.socket)
            peaks = []
            for size in (256, 2048):
                try:
                    request(connection, asset, size, "highQuality")
                    outcome = "ok"
                except RuntimeError as error:
                    outcome = str(error).split(" ")[0]
                peaks.append((max([rss_kib(child, "VmHWM") for child in children(photod.process.pid)] or [0]), outcome))
            connection.close()
            print("  %-40s %5dx%-5d %s: %6.1f MiB at 256 px (%s), %6.1f MiB at 2048 px (%s)"
                  % (entry["file"], entry["image_width"], entry["image_height"], entry["format"],
                     peaks[0][0] / 1024, peaks[0][1], peaks[1][0] / 1024, peaks[1][1]))
            worst = max(worst, peaks[0][0])
        finally:
            photod.stop()
    print("  largest worker peak at 256 px: %.1f MiB" % (worst / 1024))


if __name__ == "__main__":
    main()
