"""The short photoctl commands at scale, each a whole process next to the sqlite3 CLI (issue 32).

Each row is photoctl start to exit (p50 and p99 of RUNS after an untimed run), beside a fresh
`sqlite3 -readonly -batch` process running the SQL photod runs for the command on the same index:
  status             the total and per-root photo counts and the group count
  list --limit 100   ListAssets' first page by capture time (AssetRowDecoder's columns and joins)
  find WORD --limit 50  Search's statements (search_bench.search_script: term lookups, the page)
  show ID            GetAssets of one id
The peer prints the rows; photoctl also connects, is checked as trusted, and formats a table.
"""
import statistics
import subprocess
import time

from search_bench import COLUMNS, JOINS, Index, asset_id, search_script

RUNS = 50
WORD = "beach"


def process_ms(arguments, env, runs=RUNS, stdin=None):
    """p50 and p99 milliseconds of a whole process (`stdin` fed to it), after one untimed run."""
    def once():
        started = time.perf_counter()
        subprocess.run(arguments, env=env, input=stdin, text=True, check=True, stdout=subprocess.DEVNULL)
        return (time.perf_counter() - started) * 1000
    once()
    samples = sorted(once() for _ in range(runs))
    return statistics.median(samples), samples[min(len(samples) - 1, round(0.99 * (len(samples) - 1)))]


def rows(photoctl, database, library, env, total):
    """(command, peer, peer p50/p99, photoctl p50/p99) for status, list, find and show."""
    index = Index(database)
    sqlite = ["sqlite3", "-readonly", "-batch", database]
    first = index.cli("SELECT hex(a.id) FROM assets a ORDER BY a.taken_key, a.id LIMIT 1;\n")[2][-1]
    prefix = library.rstrip("/") + "/"
    above = prefix[:-1] + chr(ord("/") + 1)
    status_sql = ("SELECT count(*) FROM assets; SELECT count(*) FROM folders WHERE path >= CAST('%s' AS BLOB) "
                  "AND path < CAST('%s' AS BLOB); SELECT coalesce(sum(count), 0), count(*) FROM groups; "
                  "SELECT max(token) FROM changes;\n" % (prefix, above))
    listing = "SELECT %s FROM assets a %s ORDER BY a.taken_key, a.id LIMIT 101;\n" % (COLUMNS, JOINS)
    search = search_script(index, WORD, total)[0]
    show = "SELECT %s FROM assets a %s WHERE a.id = x'%s';\n" % (COLUMNS, JOINS, first)
    cases = [
        ("status", [photoctl, "status"], status_sql, "the counts"),
        ("list --limit 100", [photoctl, "list", "--limit", "100"], listing, "first 101 rows"),
        ("find %s --limit 50" % WORD, [photoctl, "find", WORD, "--limit", "50"], search, "Search's SQL"),
        ("show ID", [photoctl, "show", asset_id(first)], show, "one row by id"),
    ]
    return [(name, "sqlite3 CLI, " + peer, process_ms(sqlite, env, stdin=sql), process_ms(command, env))
            for name, command, sql, peer in cases]
