"""The Debian package: how big each packaged program and the .deb are, what they load, and how
fast the packaged photod starts and how much memory it holds once ready on an empty library.

Rows:
  each program     its size in the package (static Swift runtime, stripped), whether it carries
                   ICU's data (full Foundation), and the libraries it names (ELF NEEDED)
  .deb             its size, next to the issue 16 target of 16 MB
  start-up         exec until READY=1 (sd_notify) on an empty library, median of N, and VmRSS
                   0.5 s after, for the packaged photod next to `true` (a C program's floor)
usage: package_bench.py DEB [N]   (bench/run package builds DEB with packaging/build-deb first)
"""
import os, socket, statistics, subprocess, sys, tempfile, time

DEB = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 20
PROGRAMS = ["usr/bin/photod", "usr/bin/photoctl", "usr/libexec/photod/photod-notify", "usr/libexec/photod/photod-thumbnailer"]


def start(command, folder):
    """Seconds from exec to READY=1 (None when it sends none) and VmRSS in KiB after."""
    notify = folder + "/notify"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(notify)
    listener.settimeout(20)
    env = dict(os.environ, NOTIFY_SOCKET=notify, HOME=folder, XDG_CONFIG_HOME=folder + "/config",
               XDG_CACHE_HOME=folder + "/cache")
    began = time.monotonic()
    process = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL)
    ready = None
    if command[0] != "true":
        while "READY=1" not in listener.recv(4096).decode():
            pass
        ready = time.monotonic() - began
        time.sleep(0.5)
        status = dict(line.split(":", 1) for line in open("/proc/%d/status" % process.pid))
        rss = int(status["VmRSS"].split()[0])
        process.terminate()
    else:
        rss = 0
    process.wait()
    if ready is None:
        ready = time.monotonic() - began
    listener.close()
    os.unlink(notify)
    return ready, rss


def main():
    tree = tempfile.mkdtemp(prefix="package-bench-")
    subprocess.run(["dpkg-deb", "-x", DEB, tree], check=True)
    print("%-40s %10s  %-9s %s" % ("program", "bytes", "ICU data", "needs"))
    for program in PROGRAMS:
        path = os.path.join(tree, program)
        data = open(path, "rb").read()
        dynamic = subprocess.run(["readelf", "-d", path], capture_output=True, text=True).stdout
        libraries = [line.split("[")[1].rstrip("]") for line in dynamic.splitlines() if "(NEEDED)" in line]
        print("%-40s %10d  %-9s %s" % (program, len(data), "yes" if b"icudt" in data else "no", " ".join(libraries)))
    size = os.path.getsize(DEB)
    print("%-40s %10d  (target 16,000,000: %s)" % (os.path.basename(DEB), size, "met" if size <= 16_000_000 else "NOT met"))

    runs = {"photod": [], "true": []}
    for _ in range(N):
        for name in runs:
            folder = tempfile.mkdtemp(prefix="package-bench-run-")
            os.makedirs(folder + "/library")
            command = ["true"] if name == "true" else [
                os.path.join(tree, "usr/bin/photod"), "--root", folder + "/library",
                "--database", folder + "/index.sqlite", "--socket", folder + "/photod.sock"]
            runs[name].append(start(command, folder))
            subprocess.run(["rm", "-rf", folder])
    photod, floor = runs["photod"], runs["true"]
    print("start-up to READY=1, empty library: photod p50 %.1f ms (min %.1f), `true` p50 %.1f ms: %.1fx"
          % (statistics.median(r[0] for r in photod) * 1000, min(r[0] for r in photod) * 1000,
             statistics.median(r[0] for r in floor) * 1000,
             statistics.median(r[0] for r in photod) / statistics.median(r[0] for r in floor)))
    print("photod VmRSS 0.5 s after READY=1: p50 %.1f MiB (min %.1f)"
          % (statistics.median(r[1] for r in photod) / 1024, min(r[1] for r in photod) / 1024))
    subprocess.run(["rm", "-rf", tree])


main()
