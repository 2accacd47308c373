#!/usr/bin/env python3
"""The picker at scale (issue 29): an app's Pick waiting, the owner runs `photoctl pick` on a
pseudo-terminal over N photos (default 100,000, made once as scale_bench makes them).

  first screen   photoctl started to the picker showing the loaded group list, next to the
                 whole `photoctl groups` process (the same list, printed and gone)
  open a group   Enter on the first group listed to its first page of photos shown
  page to page   PgDn to the next page shown (RUNS times, p50 and p99), next to the whole
                 `photoctl list GROUP --limit PAGE` process (one page, printed and gone)
The terminal answers the device-attributes request at once and not the kitty query, as a
plain terminal does, so the text view is timed. The page cache is warmed right before.
"""
import json
import os
import pty
import re
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import fcntl
import termios

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from index_bench import warm  # noqa: E402
from scale_bench import Photod, RELEASE, library_for  # noqa: E402

RUNS = 50
ROWS, COLUMNS = 40, 120
APP = r'''
import json, sys, varlink
with varlink.Client(address="unix:" + sys.argv[1]) as client:
    with client.open("io.photod.Library") as library:
        for reply in library.Pick("benchmark", "cover", 1000, None, _more=True):
            print(json.dumps(reply), flush=True)
'''


class Screen:
    """photoctl pick on a pty of ROWS x COLUMNS; reads what it draws."""

    def __init__(self, env):
        self.started = time.perf_counter()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(os.path.join(RELEASE, "photoctl"), ["photoctl", "pick"], env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        self.seen = b""
        self.answered = False

    def until(self, pattern, since):
        """Reads until `pattern` (a regex of bytes) matches after offset `since`; the match."""
        deadline = time.time() + 60
        while True:
            found = re.compile(pattern).search(self.seen, since)
            if found:
                return found
            ready, _, _ = select.select([self.fd], [], [], max(0.0, deadline - time.time()))
            if not ready:
                sys.exit("picker: no %r; the screen shows %r" % (pattern, self.seen[-2000:]))
            self.seen += os.read(self.fd, 1 << 20)
            if not self.answered and b"\x1b[c" in self.seen:
                self.answered = True
                os.write(self.fd, b"\x1b[?62;22c")

    def type(self, keys):
        mark = len(self.seen)
        os.write(self.fd, keys)
        return mark

    def close(self):
        os.write(self.fd, b"q")
        os.waitpid(self.pid, 0)


def process_ms(arguments, env, runs=20):
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(arguments, env=env, check=True, stdout=subprocess.DEVNULL)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    library, _ = library_for(count)
    with tempfile.TemporaryDirectory(prefix="picker-bench-") as run:
        sock = os.path.join(run, "photod.sock")
        env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(run, "config"), XDG_CACHE_HOME=os.path.join(run, "cache"),
                   PHOTOD_SOCKET=sock, TERM="xterm-256color")
        print("picker benchmark: %d photos; indexing, then warming the page cache" % count, flush=True)
        photod = Photod(library, run, sock, env)
        try:
            script = os.path.join(run, "app.py")
            with open(script, "w") as f:
                f.write(APP)
            app = subprocess.Popen([sys.executable, script, sock], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                   text=True)
            if "pending" not in app.stdout.readline():
                sys.exit("the app's Pick did not wait for the owner")
            listed = subprocess.run([os.path.join(RELEASE, "photoctl"), "--json", "groups"], env=env,
                                    check=True, capture_output=True, text=True).stdout
            groups = json.loads(listed)["groups"]
            warm(library)
            figures(env, groups)
            app.kill()
        finally:
            photod.stop()


def figures(env, groups):
    screen = Screen(env)
    screen.until(rb"Groups \(\d+\)", 0)
    first = (time.perf_counter() - screen.started) * 1000
    started = time.perf_counter()
    mark = screen.type(b"\r")
    header = screen.until(rb"(\d+)\xe2\x80\x93(\d+) of (\d+)", mark)
    opened = (time.perf_counter() - started) * 1000
    page = int(header.group(2)) - int(header.group(1)) + 1
    total = int(header.group(3))
    group = screen.seen[:header.start()].rsplit(b"\n", 1)[-1].split(b":")[0].decode(errors="replace").strip()
    steps = []
    shown = int(header.group(1))
    for _ in range(min(RUNS, total // page - 1)):
        started = time.perf_counter()
        mark = screen.type(b"\x1b[6~")
        shown += page
        screen.until(rb"%d\xe2\x80\x93\d+ of" % shown, mark)
        steps.append((time.perf_counter() - started) * 1000)
    screen.close()
    photoctl = os.path.join(RELEASE, "photoctl")
    peer_groups = process_ms([photoctl, "groups"], env)
    peer_page = process_ms([photoctl, "list", group, "--limit", str(page)], env)
    steps.sort()
    print("\npicker over %d groups; the opened group holds %d photos, %d a page (%dx%d terminal)"
          % (len(groups), total, page, COLUMNS, ROWS))
    print("%-44s %10s   %s" % ("measure", "picker", "peer"))
    print("%-44s %8.1f ms   photoctl groups (whole process): %.1f ms" % ("start to the group list shown", first, peer_groups))
    print("%-44s %8.1f ms" % ("Enter to the group's first page shown", opened))
    print("%-44s %8.1f ms   photoctl list --limit %d (whole process): %.1f ms"
          % ("PgDn to the next page, p50 of %d" % len(steps), steps[len(steps) // 2], page, peer_page))
    p99 = steps[min(len(steps) - 1, round(0.99 * (len(steps) - 1)))]
    print("%-44s %8.1f ms   (a terminal user expects under 50 ms)" % ("PgDn to the next page, p99", p99))


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    main()
