#!/usr/bin/env python3
"""Bytes per photo of a photod index, table by table and index by index (SQLite's dbstat).

    python3 bench/index_size.py INDEX.sqlite [INDEX2.sqlite ...]

Reads a copy of each file (the index is never opened for writing), so it is safe on the index
of a running photod. Prints, per file: the photo count, the file's bytes per photo, and each
table's and index's pages (their whole size, free space inside them included) per photo,
largest first, with the FTS5 shadow tables under their own names.
"""
import os
import shutil
import sqlite3
import sys
import tempfile


def breakdown(path):
    with tempfile.TemporaryDirectory() as work:
        copy = os.path.join(work, "index.sqlite")
        shutil.copyfile(path, copy)
        if os.path.exists(path + "-wal"):
            shutil.copyfile(path + "-wal", copy + "-wal")
        db = sqlite3.connect(copy)
        photos = db.execute("SELECT count(*) FROM assets").fetchone()[0]
        rows = db.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC").fetchall()
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()
        return photos, os.path.getsize(copy), rows


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        photos, size, rows = breakdown(path)
        per = max(photos, 1)
        print("%s: %d photos, %.1f MB, %.0f bytes per photo" % (path, photos, size / 1e6, size / per))
        for name, pages in rows:
            if pages / per >= 0.5:
                print("  %-32s %8.1f" % (name, pages / per))


if __name__ == "__main__":
    main()
