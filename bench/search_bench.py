#!/usr/bin/env python3
"""Finding photos at scale: Search and ListAssets' time filters, next to the sqlite3 CLI, in one run.

Makes N photos (default 100,000) with ../shared/tools/make-photos --seed 7 once, and keeps them
and photod's index in $SEARCH_BENCH_DIR (default .build-bench/search-N): the first run indexes
them, later runs start photod over the same library and index (an unchanged restart). The page
cache is warmed (the index files read through) right before each timed section. Then, side by side:
  - Search over varlink (this script speaking varlink directly, one kept-open connection), a page
    of 50, p50/p99 over many calls of four kinds of query: a common word, a rare word (one file
    name), an accented query, a two-letter query;
  - photoctl find as a whole process (start to exit, --limit 50), per kind: target under 30 ms;
  - ListAssets with since/until (a day, a month, a year; oldest first and --reverse), and
    photoctl list --since ... --limit 50 as a whole process;
  - the sqlite3 CLI running the same SQL photod runs (StoreSearch and SearchPlan: the two-letter
    term lookup, the candidates, the page; StoreListing), values inlined, on the same index file:
    as a whole process, and the statements alone (.timer).
The CLI's rows are checked against photod's reply, so both answered the same question.
"""
import calendar
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time

from permissions_bench import Varlink  # one NUL-terminated JSON message per call, one reply

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(REPO), "shared")
RELEASE = os.path.join(REPO, ".build", "release")
PAGE = 50

# photod's AssetRowDecoder.assetColumns and joins; the id comes out as hex (it is stored as its 10 bytes).
COLUMNS = ("hex(a.id), f.path, a.name, a.device, a.inode, a.size, a.mtime_ns, a.sidecar, g.name, g.key, a.spelling, "
           "a.description, a.description_source, a.format, a.taken, a.taken_key, a.width, a.height, "
           "a.orientation, c.make, c.model")
JOINS = ("JOIN groups g ON g.id = a.group_id JOIN folders f ON f.id = a.folder "
         "LEFT JOIN cameras c ON c.id = a.camera")
ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"


def asset_id(hex_id):
    """An id as photod shows it, from the hex of its 10 stored bytes."""
    number = int(hex_id, 16)
    return "".join(ALPHABET[(number >> (5 * (15 - i))) & 31] for i in range(16))


def percentiles(samples):
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]


def warm(*paths):
    for path in paths:
        if os.path.exists(path):
            with open(path, "rb") as f:
                while f.read(1 << 20):
                    pass


def sql_text(value):
    return "'" + value.replace("'", "''") + "'"


def fold(text):
    """photod's SearchText.fold for the queries below (ASCII and Latin accents)."""
    import unicodedata
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).lower())
    return "".join(c for c in decomposed if unicodedata.category(c) not in ("Mn", "Me", "Cf"))


class Index:
    """The index file, read with the sqlite3 CLI (and Python's sqlite3 for the query plan only)."""

    def __init__(self, path):
        self.path = path

    def cli(self, script):
        """Runs `script` in a fresh `sqlite3 -readonly`: (wall ms, statement ms from .timer, output lines)."""
        start = time.perf_counter()
        result = subprocess.run(["sqlite3", "-readonly", "-batch", self.path],
                                input=".timer on\nPRAGMA cache_size = -16384;\n" + script,
                                capture_output=True, text=True, check=True)
        wall = (time.perf_counter() - start) * 1000
        timers = [float(m) * 1000 for m in re.findall(r"Run Time: real ([0-9.]+)", result.stdout)]
        lines = [line for line in result.stdout.splitlines() if not line.startswith("Run Time:")]
        return wall, sum(timers[1:]), lines

    def scalar(self, sql):
        return self.cli(sql + ";\n")[2][-1]


def search_script(index, text, total):
    """The statements photod runs for Search(text, limit: 50) (StoreSearch / SearchPlan), as SQL text;
    and how many photos match (counted apart, for the table) and which plan photod takes."""
    words = []
    for word in sorted(fold(text).split(), key=len, reverse=True):
        if not any(word in kept for kept in words):
            words.append(word)
    script, parts = "", []
    trigrams = []
    for word in words:
        if len(word) >= 3:
            # The index keeps no positions: a word is all of its trigrams (SearchMatch).
            for start in range(len(word) - 2):
                if word[start:start + 3] not in trigrams and len(trigrams) < 64:
                    trigrams.append(word[start:start + 3])
        elif len(word) == 2:
            upper = word[:-1] + chr(ord(word[-1]) + 1)
            lookup = "SELECT term FROM search_terms WHERE term >= %s AND term < %s LIMIT 257" % (
                sql_text(word), sql_text(upper))
            script += lookup + ";\n"
            terms = index.cli(lookup + ";\n")[2]
            parts.append("(" + " OR ".join('"%s"' % t.replace('"', '""') for t in terms) + ")")
    few = int((total * (PAGE + 1) / 6) ** 0.5)
    rowids = None
    if len(trigrams) > 1:
        # photod looks up only the rare trigrams when there are some (StoreSearch), and with no
        # two-letter word takes the photos in all their lists as the candidates.
        bound = int((total * (PAGE + 1)) ** 0.5)
        rare = []
        for trigram in trigrams:
            probe = "SELECT rowid FROM search_text WHERE search_text MATCH %s LIMIT %d" % (
                sql_text('"%s"' % trigram.replace('"', '""')), bound + 1)
            script += probe + ";\n"
            found = [int(line) for line in index.cli(probe + ";\n")[2]]
            if len(found) <= bound:
                rare.append((trigram, set(found)))
        if rare:
            trigrams = [trigram for trigram, _ in rare]
            candidates = set.intersection(*(found for _, found in rare))
            if not parts and len(candidates) <= few:
                rowids = sorted(candidates)
    parts = ['"%s"' % t.replace('"', '""') for t in trigrams] + parts
    expression = " AND ".join(parts)
    if rowids is None:
        candidates = "SELECT rowid FROM search_text WHERE search_text MATCH %s LIMIT %d" % (sql_text(expression), few + 1)
        rowids = [int(line) for line in index.cli(candidates + ";\n")[2]]
        script += candidates + ";\n"
    walk = len(rowids) > few
    # photod checks each photo the index finds against its text and stops after a page; the
    # CLI takes the index's first page as it is (the same rows unless a photo holds every
    # trigram of a word but not the word).
    if walk:
        page = ("SELECT %s FROM assets a INDEXED BY assets_by_taken %s "
                "WHERE a.rowid IN (SELECT rowid FROM search_text WHERE search_text MATCH %s) "
                "ORDER BY a.taken_key DESC, a.id DESC LIMIT %d"
                % (COLUMNS, JOINS, sql_text(expression), PAGE + 1))
    else:
        page = ("SELECT %s FROM assets a %s "
                "WHERE a.rowid IN (SELECT value FROM json_each(%s)) ORDER BY a.taken_key DESC, a.id DESC LIMIT %d"
                % (COLUMNS, JOINS, sql_text(json.dumps(rowids, separators=(",", ":"))), PAGE + 1))
    matches = int(index.scalar("SELECT count(*) FROM search_text WHERE search_text MATCH %s" % sql_text(expression)))
    return script + page + ";\n", matches, "walk" if walk else "rowids"


def local_bound(text, end):
    """TimeFilter.bound for a date (YYYY-MM-DD) in this machine's zone: (wall text, wall ns, instant ns)."""
    year, month, day = map(int, text.split("-"))
    wall = calendar.timegm((year, month, day, 0, 0, 0)) + (86400 if end else 0)
    instant = int(time.mktime(time.gmtime(wall)[:8] + (-1,)))
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(wall)), wall * 10 ** 9, instant * 10 ** 9


def listing_script(since, until, reverse):
    """The statement photod runs for ListAssets(since, until, reverse, limit: 50) (StoreListing)."""
    slack = 15 * 3600 * 10 ** 9
    s_wall, s_ns, s_instant = local_bound(since, False)
    u_wall, u_ns, u_instant = local_bound(until, True)
    direction = " DESC" if reverse else ""
    return ("SELECT %s FROM assets a %s WHERE a.taken_key >= %d AND "
            "(CASE WHEN a.taken IS NULL THEN a.taken_key >= %d WHEN a.taken = '' THEN a.taken_key >= %d "
            "ELSE substr(a.taken, 1, 19) >= %s END) AND a.taken_key < %d AND "
            "(CASE WHEN a.taken IS NULL THEN a.taken_key < %d WHEN a.taken = '' THEN a.taken_key < %d "
            "ELSE substr(a.taken, 1, 19) < %s END) ORDER BY a.taken_key%s, a.id%s LIMIT %d;\n"
            % (COLUMNS, JOINS, min(s_ns - slack, s_instant), s_instant, s_ns, sql_text(s_wall),
               max(u_ns + slack, u_instant), u_instant, u_ns, sql_text(u_wall), direction, direction, PAGE + 1))


def timed_calls(varlink, method, parameters, runs):
    varlink.call(method, parameters)
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        reply = varlink.call(method, parameters)
        samples.append((time.perf_counter() - start) * 1000)
    return samples, reply


def timed_process(arguments, env, runs):
    subprocess.run(arguments, env=env, check=True, stdout=subprocess.DEVNULL)
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(arguments, env=env, check=True, stdout=subprocess.DEVNULL)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def start_photod(work, library, database, sock, env):
    started = time.monotonic()
    daemon = subprocess.Popen([os.path.join(RELEASE, "photod"), "--root", library, "--database", database,
                               "--socket", sock], stderr=subprocess.PIPE, text=True, env=env)
    reconciled = ""
    for line in daemon.stderr:
        if "reconciled" in line:
            reconciled = line.strip()
        if "ready:" in line:
            return daemon, time.monotonic() - started, reconciled
    daemon.wait()
    sys.exit("photod exited before it was ready")


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    runs = int(os.environ.get("SEARCH_RUNS", "50"))
    work = os.environ.get("SEARCH_BENCH_DIR", os.path.join(REPO, ".build-bench", "search-%d" % count))
    library, database = os.path.join(work, "photos"), os.path.join(work, "index.sqlite")
    made = os.path.join(work, "photos.made")
    if not os.path.exists(made):
        print("making %d photos in %s (once; later runs reuse them)" % (count, library), flush=True)
        subprocess.run(["rm", "-rf", library, database, database + "-wal", database + "-shm"], check=True)
        os.makedirs(work, exist_ok=True)
        subprocess.run([os.path.join(SHARED, "tools", "make-photos"), library, str(count), "--seed", "7"],
                       check=True, stdout=subprocess.DEVNULL)
        open(made, "w").close()
    os.makedirs(os.path.join(work, "config", "photod"), exist_ok=True)
    with open(os.path.join(work, "config", "photod", "photod.toml"), "w") as config:
        config.write('[permissions]\ntrusted = ["script:*/search_bench.py"]\n')
    sock = os.path.join(work, "photod.sock")
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"), PHOTOD_SOCKET=sock, COLUMNS="200")
    fresh = not os.path.exists(database)
    daemon, seconds, reconciled = start_photod(work, library, database, sock, env)
    print("photod ready in %.1f s (%s): %s" % (seconds, "first index" if fresh else "index reused", reconciled))
    try:
        measure(Varlink(sock), Index(database), database, env, runs)
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.communicate(timeout=60)


def measure(varlink, index, database, env, runs):
    files = (database, database + "-wal")
    total = varlink.call("io.photod.Library.Status")["assets"]
    print("\nsearch benchmark: %d photos (make-photos --seed 7), %d cores, page of %d; ms" % (total, os.cpu_count(), PAGE))
    kinds = [
        ("common word", ["iphone", "canon", "family", "holidays", "beach"]),
        ("rare word (a file name)", ["img_012345", "img_054321", "img_000777", "img_099999", "img_031416"]),
        ("accented", ["Café Crème", "crème", "ZÜRICH", "Zürich 2019", "CAFÉ"]),
        ("two letters", ["zu", "ca", "ip", "gx", "x-"]),
    ]
    photoctl = os.path.join(RELEASE, "photoctl")
    print("%-24s %9s %9s %9s %9s %9s %9s %9s %9s %6s" % (
        "Search", "varlink", "p99", "find", "p99", "sqlite3", "p99", "SQL only", "matches", "plan"))
    worst_find = 0
    for kind, queries in kinds:
        warm(*files)
        samples = []
        for text in queries:
            samples += timed_calls(varlink, "io.photod.Library.Search", {"text": text, "limit": PAGE}, runs)[0]
        find = timed_process([photoctl, "find", queries[0], "--limit", str(PAGE)], env, runs)
        script, matches, plan = search_script(index, queries[0], total)
        cli = [index.cli(script) for _ in range(max(5, runs // 5))]
        expected = [a["id"] for a in varlink.call("io.photod.Library.Search", {"text": queries[0], "limit": PAGE})["assets"]]
        got = [asset_id(line.split("|")[0]) for line in cli[-1][2] if "|" in line][:PAGE]
        if got != expected:
            print("  warning: sqlite3's rows differ from photod's for %r" % queries[0])
        worst_find = max(worst_find, percentiles(find)[0])
        print("%-24s %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9d %6s" % (
            kind, *percentiles(samples), *percentiles(find), *percentiles([c[0] for c in cli]),
            statistics.median(c[1] for c in cli), matches, plan))
    print("  (varlink: every query of the kind; find, sqlite3, matches, plan: the first of each, %r etc.)" % kinds[0][1][0])
    rare = timed_process([photoctl, "find", "img_012345"], env, runs)
    common = timed_process([photoctl, "find", "zürich"], env, max(5, runs // 5))
    print("%-24s %9s %9s %9.2f %9.2f   (no --limit: every match printed)" % ("find, one match", "", "", *percentiles(rare)))
    print("%-24s %9s %9s %9.2f %9.2f   (no --limit)" % ("find zürich, all", "", "", *percentiles(common)))
    print("photoctl find --limit %d p50, worst kind: %.1f ms (target < 30 ms)" % (PAGE, worst_find))

    print("\n%-34s %9s %9s %9s %9s %9s %9s %9s %6s" % (
        "ListAssets since/until", "varlink", "p99", "photoctl", "p99", "sqlite3", "p99", "SQL only", "rows"))
    spans = [("a day", "2019-06-05", "2019-06-05"), ("a month", "2019-06-01", "2019-06-30"),
             ("a year", "2019-01-01", "2019-12-31")]
    for name, since, until in spans:
        for reverse in (False, True):
            warm(*files)
            parameters = {"since": since, "until": until, "limit": PAGE, "reverse": reverse}
            samples, reply = timed_calls(varlink, "io.photod.Library.ListAssets", parameters, runs)
            arguments = [photoctl, "list", "--since", since, "--until", until, "--limit", str(PAGE)]
            process = timed_process(arguments + (["--reverse"] if reverse else []), env, runs)
            script = listing_script(since, until, reverse)
            cli = [index.cli(script) for _ in range(max(5, runs // 5))]
            got = [asset_id(line.split("|")[0]) for line in cli[-1][2] if "|" in line][:PAGE]
            if got != [a["id"] for a in reply["assets"]]:
                print("  warning: sqlite3's rows differ from photod's for %s %s" % (name, reverse))
            print("%-34s %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %6d" % (
                "%s%s" % (name, ", newest first" if reverse else ""), *percentiles(samples), *percentiles(process),
                *percentiles([c[0] for c in cli]), statistics.median(c[1] for c in cli), len(reply["assets"])))
    plan = subprocess.run(["sqlite3", "-readonly", database, "EXPLAIN QUERY PLAN " + listing_script(*spans[1][1:], False)],
                          capture_output=True, text=True).stdout
    print("query plan of the month:", " / ".join(l.strip("|-` ") for l in plan.splitlines()[1:]))
    print("index file: %.1f MB, %.0f bytes per photo (search_text and its terms included; "
          "bench/index_size.py breaks it down)" % (os.path.getsize(database) / 1e6, os.path.getsize(database) / total))


if __name__ == "__main__":
    main()
