#!/usr/bin/env python3
"""Write benchmark for photod (issue 28): descriptions written back, and photos added, each
next to its peer in one run.

  describe  N JPEGs given one description: photod's SetDescription over all N in one call, and
            one call per photo (each reply comes once the index has the new group), next to
            `exiftool -overwrite_original -ImageDescription=…` run once over the same N (batch
            mode, its fastest) and once per file (timed over PER_FILE files, scaled to N)
  import    N JPEGs added: `photoctl import` (one process; each file passed as a descriptor,
            checked, written, synced and indexed before the next), next to `cp` of the same
            files into the library plus the time photod's watcher takes to index them
Every tree is a fresh copy of the same made photos, read once before it is timed.
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import varlink

from index_bench import warm

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(REPO), "shared")
RELEASE = os.path.join(REPO, ".build", "release")
PER_FILE = 200


def jpegs(tree):
    return sorted(os.path.join(folder, name) for folder, _, files in os.walk(tree) for name in files
                  if name.lower().endswith(".jpg"))


class Photod:
    """A release photod over `library`; this script is trusted as the owner."""

    def __init__(self, work, library):
        # The socket's folder and the runtime folder must be private (photod and photoctl check).
        runtime = os.path.join(work, "run")
        os.makedirs(runtime, mode=0o700)
        self.socket = os.path.join(runtime, "photod", "io.photod")
        self.env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"), PHOTOD_SOCKET=self.socket,
                        XDG_RUNTIME_DIR=runtime)
        os.makedirs(os.path.join(work, "config", "photod"), exist_ok=True)
        with open(os.path.join(work, "config", "photod", "photod.toml"), "w") as config:
            config.write('[permissions]\ntrusted = ["script:*/write_bench.py"]\n')
        self.process = subprocess.Popen(
            [os.path.join(RELEASE, "photod"), "--root", library, "--database", os.path.join(work, "photod.sqlite"),
             "--socket", self.socket, "--log-level", "warning"], env=self.env, stderr=subprocess.DEVNULL)
        self.wait(lambda status: status["state"] == "ready", 120)

    def status(self):
        with varlink.Client(address="unix:" + self.socket) as client, client.open("io.photod.Library") as api:
            return api.Status()

    def wait(self, condition, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if condition(self.status()):
                    return time.monotonic()
            except Exception:
                pass
            time.sleep(0.005)
        sys.exit("bench: photod did not get there in %d s" % timeout)

    def ids(self):
        with varlink.Client(address="unix:" + self.socket) as client, client.open("io.photod.Library") as api:
            return [asset["id"] for asset in api.ListAssets(limit=10000)["assets"]]

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)


def describe(work, made, count):
    library = os.path.join(work, "describe-library")
    shutil.copytree(made, library)
    warm(library)
    photod = Photod(os.path.join(work, "describe"), library)
    ids = photod.ids()
    assert len(ids) == count, (len(ids), count)
    with varlink.Client(address="unix:" + photod.socket) as client, client.open("io.photod.Library") as api:
        start = time.monotonic()
        reply = api.SetDescription(ids=ids, description="Bench batch")
        batch = time.monotonic() - start
        assert len(reply["assets"]) == count and not reply["failed"], reply["failed"][:3]
        start = time.monotonic()
        for asset_id in ids:
            api.SetDescription(ids=[asset_id], description="Bench one by one")
        single = time.monotonic() - start
    photod.stop()

    batch_tree = os.path.join(work, "exiftool-batch")
    shutil.copytree(made, batch_tree)
    warm(batch_tree)
    start = time.monotonic()
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-ImageDescription=Bench batch", "-r", batch_tree],
                   check=True, stdout=subprocess.DEVNULL)
    exiftool_batch = time.monotonic() - start
    one_tree = os.path.join(work, "exiftool-one")
    shutil.copytree(made, one_tree)
    files = jpegs(one_tree)[:PER_FILE]
    warm(one_tree)
    start = time.monotonic()
    for path in files:
        subprocess.run(["exiftool", "-q", "-overwrite_original", "-ImageDescription=Bench one", path],
                       check=True, stdout=subprocess.DEVNULL)
    exiftool_one = (time.monotonic() - start) / len(files) * count
    print("describe %d JPEGs" % count)
    print("  photod SetDescription, one call      %7.3f s  (%6.0f photos/s, index updated)" % (batch, count / batch))
    print("  exiftool -overwrite_original, batch  %7.3f s  (%6.0f photos/s)  photod %.2fx faster"
          % (exiftool_batch, count / exiftool_batch, exiftool_batch / batch))
    print("  photod SetDescription, one per photo %7.3f s  (%6.2f ms each)" % (single, single / count * 1000))
    print("  exiftool once per file               %7.3f s  (%6.2f ms each, %d files timed)  photod %.1fx faster"
          % (exiftool_one, exiftool_one / count * 1000, len(files), exiftool_one / single))


def import_photos(work, made, count):
    library = os.path.join(work, "import-library")
    os.makedirs(library)
    photod = Photod(os.path.join(work, "import"), library)
    files = jpegs(made)
    warm(made)
    start = time.monotonic()
    result = subprocess.run([os.path.join(RELEASE, "photoctl"), "import"] + files, env=photod.env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    imported = time.monotonic() - start
    if result.returncode != 0:
        sys.exit("bench: photoctl import failed: " + result.stderr[-2000:])
    assert photod.status()["assets"] == count
    target = os.path.join(library, "copied")
    start = time.monotonic()
    subprocess.run(["cp", "-r", made, target], check=True)
    copied = time.monotonic() - start
    indexed = photod.wait(lambda status: status["assets"] == 2 * count, 120) - start
    # photoctl import syncs each photo before it names it; cp does not: the sync that would
    # make the copies as durable, timed on its own.
    start = time.monotonic()
    os.sync()
    synced = time.monotonic() - start
    photod.stop()
    print("import %d JPEGs" % count)
    print("  photoctl import                      %7.3f s  (%6.0f photos/s, each indexed before the next)"
          % (imported, count / imported))
    print("  cp -r + photod indexing them         %7.3f s  (cp alone %.3f s)  photoctl import %.2fx of it"
          % (indexed, copied, imported / indexed))
    print("  cp -r + indexing + sync              %7.3f s  (sync alone %.3f s)  photoctl import %.2fx of it"
          % (indexed + synced, synced, imported / (indexed + synced)))


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    if not os.path.exists(os.path.join(SHARED, "tools", "make-photos")):
        sys.exit("bench: needs ../shared/tools beside this checkout")
    work = tempfile.mkdtemp(prefix="photod-write-bench-")
    try:
        made = os.path.join(work, "made")
        subprocess.run([os.path.join(SHARED, "tools", "make-photos"), made, str(count), "--seed", "28"],
                       check=True, stdout=subprocess.DEVNULL)
        for name in os.listdir(made):
            if not os.path.isdir(os.path.join(made, name)) and not name.lower().endswith(".jpg"):
                os.remove(os.path.join(made, name))
        describe(work, made, count)
        import_photos(work, made, count)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
