"""photod-notify: how long from an app's request to the desktop notification, side by side with
its floors, and what the notifier costs in memory.

Rows (each the median/p90/max of N requests, every one a new app):
  request, no notifier    photoctl request until photod's first reply (pending): the request itself
  request -> Notify       photoctl request until photod-notify's Notify reaches the server
  gdbus Notify (floor)    a fresh gdbus process sending one Notify: any notifier costs at least this
On a private dbus-daemon with the project's stand-in notification server (python3-dbus), the
release photod, photoctl and photod-notify from .build/release. usage: notify_bench.py [N]
"""
import os, shutil, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, ".build", "release")
SERVER = os.path.join(ROOT, "Tests", "Scripts", "notification_server.py")
N = int(sys.argv[1]) if len(sys.argv) > 1 else 30


def wait_until(condition, timeout=30):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit("timed out")
        time.sleep(0.0005)


def stats(values):
    values = sorted(values)
    return "p50 %6.1f ms  p90 %6.1f ms  max %6.1f ms" % (values[len(values) // 2], values[int(len(values) * 0.9)], values[-1])


def memory(pid):
    fields = dict(line.split(":", 1) for line in open("/proc/%d/status" % pid))
    return "RSS %.1f MiB, peak %.1f MiB" % (int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024)


def main():
    folder = tempfile.mkdtemp(prefix="notify-bench-")
    os.makedirs(folder + "/lib")
    os.makedirs(folder + "/run", mode=0o700)
    socket = folder + "/run/io.photod"
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS="unix:path=" + folder + "/bus", XDG_CACHE_HOME=folder + "/cache",
               XDG_CONFIG_HOME=folder + "/config", XDG_STATE_HOME=folder + "/state", PHOTOD_SOCKET=socket)
    record = folder + "/notifications.jsonl"
    processes = []
    try:
        processes.append(subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--address=unix:path=" + folder + "/bus"],
                                          env=env, stderr=subprocess.DEVNULL))
        wait_until(lambda: os.path.exists(folder + "/bus"))
        server = subprocess.Popen(["/usr/bin/python3", SERVER, record], env=env, stdout=subprocess.PIPE)
        processes.append(server)
        server.stdout.readline()
        photod = subprocess.Popen([BIN + "/photod", "--root", folder + "/lib", "--database", folder + "/index.sqlite",
                                   "--socket", socket], env=env, stderr=subprocess.DEVNULL)
        processes.append(photod)
        wait_until(lambda: os.path.exists(socket))

        def notifies():
            try:
                return sum('"Notify"' in line for line in open(record))
            except FileNotFoundError:
                return 0

        def ask(index, until):
            script = "%s/app%03d.sh" % (folder, index)
            with open(script, "w") as out:
                out.write('#!/bin/bash\n"%s/photoctl" request --reason "bench" --timeout 30\n' % BIN)
            start = time.perf_counter()
            app = subprocess.Popen(["/bin/bash", script], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            until(app)
            elapsed = (time.perf_counter() - start) * 1000
            subprocess.run([BIN + "/photoctl", "permissions", "deny", "app%03d.sh" % index], env=env,
                           stdout=subprocess.DEVNULL, check=True)
            app.wait()
            app.stderr.close()
            return elapsed

        # Warm up the page cache and photod before timing anything.
        ask(999, lambda app: app.stderr.readline())
        bare = [ask(i, lambda app: app.stderr.readline()) for i in range(N)]

        notifier = subprocess.Popen([BIN + "/photod-notify", "--socket", socket], env=env, stderr=subprocess.DEVNULL)
        processes.append(notifier)
        time.sleep(1)

        def notified(app):
            wait_until(lambda: notifies() > count[0])
            count[0] = notifies()
        count = [notifies()]
        with_notifier = [ask(N + i, notified) for i in range(N)]

        floor = []
        for _ in range(N):
            before = notifies()
            start = time.perf_counter()
            subprocess.Popen(["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications",
                              "--object-path", "/org/freedesktop/Notifications",
                              "--method", "org.freedesktop.Notifications.Notify",
                              "bench", "0", "", "summary", "body", "[]", "{}", "0"], env=env, stdout=subprocess.DEVNULL)
            wait_until(lambda: notifies() > before)
            floor.append((time.perf_counter() - start) * 1000)

        print("photod-notify, %d requests each (every one a new app):" % N)
        print("  request, no notifier     " + stats(bare))
        print("  request -> Notify        " + stats(with_notifier))
        print("  gdbus Notify (floor)     " + stats(floor))
        print("  photod-notify            " + memory(notifier.pid))
        print("  photod                   " + memory(photod.pid))
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)


main()
