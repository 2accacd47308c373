#!/usr/bin/env python3
"""Metadata extraction cost per file, per container format, side by side with ExifTool, in one run.

Inputs: every file in ../shared/corpus/images, grouped by the manifest's `format` (ExifTool's
FileType), plus 1,000 photos from ../shared/tools/make-photos (--seed 7).

  photod    bench/metadata/*.swift built with swiftc -O against Sources/Metadata/*.swift: per file
            open(O_RDONLY) + fstat + MetadataReader.read(fileDescriptor:fileSize:) + close, timed
            with CLOCK_MONOTONIC; one untimed pass, then PHOTOD_REPEATS passes (default 21);
            the file's figure is its median
  exiftool  one `exiftool -stay_open True -@ -` process; per file the request
            `-fast2 -j -IFD0:ImageDescription -XMP-dc:Description -IPTC:Caption-Abstract FILE`
            `-execute`, timed from writing it to reading its {ready} line; one untimed pass, then
            EXIFTOOL_REPEATS passes (default 7); the file's figure is its median

A format's figure is the median of its files' figures. The page cache is warmed right before
each side is timed. ExifTool's figures include its pipe round trip, printed separately (the
median of a trivial `-ver` request) so it can be set against the parse time.
"""
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(REPO), "shared")
CORPUS = os.path.join(SHARED, "corpus")
MAKE_PHOTOS = os.path.join(SHARED, "tools", "make-photos")
BUILD = os.path.join(REPO, ".build-bench")
BINARY = os.path.join(BUILD, "metadata-bench")

PHOTOD_REPEATS = int(os.environ.get("PHOTOD_REPEATS", "21"))
EXIFTOOL_REPEATS = int(os.environ.get("EXIFTOOL_REPEATS", "7"))
MAKE_PHOTOS_COUNT = int(os.environ.get("MAKE_PHOTOS_COUNT", "1000"))
EXIFTOOL_ARGS = ["-fast2", "-j", "-IFD0:ImageDescription", "-XMP-dc:Description", "-IPTC:Caption-Abstract"]

# The table's rows, from the manifest's `format` (ExifTool FileType). Formats not named here
# share the last row.
TIFF_RAWS = ["DNG", "NEF", "NRW", "CR2", "ARW", "SR2", "SRF", "RW2", "RAW", "RWL", "ORF", "PEF",
             "SRW", "IIQ", "ERF", "3FR", "MOS", "DCR", "KDC", "MEF"]
ROWS = [
    ("JPEG (corpus)", ["JPEG"]),
    ("TIFF", ["TIFF"]),
    ("BigTIFF", ["BTF"]),
    ("TIFF-based raw", TIFF_RAWS),
    ("CR3", ["CR3"]),
    ("PNG", ["PNG"]),
    ("WebP", ["WEBP", "Extended WEBP"]),
    ("HEIC", ["HEIC"]),
    ("HEIF", ["HEIF"]),
    ("AVIF", ["AVIF"]),
    ("JXL", ["JXL"]),
]
MAKE_PHOTOS_ROW = "JPEG (make-photos)"


def warm(paths):
    for path in paths:
        with open(path, "rb") as f:
            while f.read(1 << 20):
                pass


def sources():
    files = glob.glob(os.path.join(REPO, "bench", "metadata", "*.swift"))
    files += glob.glob(os.path.join(REPO, "Sources", "Metadata", "*.swift"))
    for module in ("CExif", "CZlib"):
        files += glob.glob(os.path.join(REPO, "Sources", module, "*"))
    return files


def build():
    """Builds the Metadata module as a static library, then the timing main against it (as the
    daemon links it: one module boundary, whole-module optimized). Skipped when up to date."""
    if os.path.exists(BINARY):
        built = os.path.getmtime(BINARY)
        if all(os.path.getmtime(path) < built for path in sources()):
            return
    os.makedirs(BUILD, exist_ok=True)
    started = time.time()
    includes = ["-I", os.path.join(REPO, "Sources", "CExif")]
    libraries = ["-lexif"]
    if os.path.isdir(os.path.join(REPO, "Sources", "CZlib")):
        includes += ["-I", os.path.join(REPO, "Sources", "CZlib")]
        libraries += ["-lz"]
    common = ["swiftc", "-O", "-wmo", "-parse-as-library", "-module-cache-path", os.path.join(BUILD, "module-cache")]
    library = sorted(glob.glob(os.path.join(REPO, "Sources", "Metadata", "*.swift")))
    main = sorted(glob.glob(os.path.join(REPO, "bench", "metadata", "*.swift")))
    print("metadata bench: building %s (swiftc -O, %d reader files)" % (os.path.relpath(BINARY, REPO), len(library)),
          file=sys.stderr)
    subprocess.run(common + ["-module-name", "Metadata", "-emit-module",
                             "-emit-module-path", os.path.join(BUILD, "Metadata.swiftmodule"),
                             "-emit-library", "-static", "-o", os.path.join(BUILD, "libMetadata.a")]
                   + includes + library, check=True)
    subprocess.run(common + ["-module-name", "MetadataBench", "-I", BUILD] + includes + main
                   + ["-L", BUILD, "-lMetadata"] + libraries + ["-o", BINARY], check=True)
    os.utime(BINARY, (started, started))  # a source saved during the build is newer: next run rebuilds


def time_photod(paths):
    """Per file: (median ns, reader's format, {source: found})."""
    run = subprocess.run([BINARY, str(PHOTOD_REPEATS)], input="".join(p + "\n" for p in paths),
                         capture_output=True, text=True, check=True)
    results = [None] * len(paths)
    for line in run.stdout.splitlines():
        record = json.loads(line)
        if "error" in record:
            sys.exit("metadata bench: %s: %s" % (paths[record["index"]], record["error"]))
        results[record["index"]] = record
    return results


class ExifTool:
    """One `exiftool -stay_open True -@ -` process; each request ends with -executeN, its answer with {readyN}."""

    def __init__(self):
        self.process = subprocess.Popen(["exiftool", "-stay_open", "True", "-@", "-"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.sequence = 0

    def request(self, arguments):
        """Returns (nanoseconds from writing the request to reading its ready line, stdout bytes)."""
        self.sequence += 1
        payload = ("\n".join(arguments) + "\n-execute%d\n" % self.sequence).encode()
        marker = b"{ready%d}\n" % self.sequence
        lines = []
        start = time.perf_counter_ns()
        self.process.stdin.write(payload)
        self.process.stdin.flush()
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit("metadata bench: exiftool exited")
            if line == marker:
                break
            lines.append(line)
        return time.perf_counter_ns() - start, b"".join(lines)

    def close(self):
        self.process.stdin.write(b"-stay_open\nFalse\n")
        self.process.stdin.flush()
        self.process.wait(timeout=30)


def time_exiftool(paths):
    """Per file: (median ns, {source: found}); and the median round trip of a `-ver` request."""
    exiftool = ExifTool()
    try:
        found = []
        for path in paths:  # untimed: loads ExifTool's modules for every format, records what it finds
            _, output = exiftool.request(EXIFTOOL_ARGS + [path])
            tags = json.loads(output.decode("utf-8", "replace"))[0] if output.strip() else {}
            found.append({"exif": "ImageDescription" in tags, "xmp": "Description" in tags,
                          "iptc": "Caption-Abstract" in tags})
        for _ in range(10):
            exiftool.request(["-ver"])
        round_trip = statistics.median(exiftool.request(["-ver"])[0] for _ in range(201))
        samples = [[] for _ in paths]
        for _ in range(EXIFTOOL_REPEATS):
            for index, path in enumerate(paths):
                samples[index].append(exiftool.request(EXIFTOOL_ARGS + [path])[0])
        return [statistics.median(s) for s in samples], found, round_trip
    finally:
        exiftool.close()


def cpu_model():
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown"


def main():
    if not os.path.exists(os.path.join(CORPUS, "manifest.json")) or not os.path.exists(MAKE_PHOTOS):
        print("metadata bench: SKIPPED: needs ../shared/corpus and ../shared/tools/make-photos beside this checkout")
        return
    if not shutil.which("swiftc"):
        sys.exit("metadata bench: needs swiftc (the Swift toolchain)")
    have_exiftool = shutil.which("exiftool") is not None
    build()

    with open(os.path.join(CORPUS, "manifest.json")) as f:
        manifest = json.load(f)
    row_of = {}
    for label, formats in ROWS:
        for name in formats:
            row_of[name] = label
    entries = [(os.path.join(CORPUS, "images", e["file"]), row_of.get(e["format"], "other"), e["format"])
               for e in manifest]
    others = sorted({name for _, row, name in entries if row == "other"})

    work = tempfile.mkdtemp(prefix="photod-metadata-bench-")
    try:
        library = os.path.join(work, "photos")
        subprocess.run([MAKE_PHOTOS, library, str(MAKE_PHOTOS_COUNT), "--seed", "7"],
                       check=True, stdout=subprocess.DEVNULL)
        made = sorted(os.path.join(folder, name) for folder, _, names in os.walk(library) for name in names)
        entries += [(path, MAKE_PHOTOS_ROW, "JPEG") for path in made]
        paths = [path for path, _, _ in entries]

        warm(paths)
        photod = time_photod(paths)
        if have_exiftool:
            warm(paths)
            exiftool_ns, exiftool_found, round_trip = time_exiftool(paths)
            version = subprocess.run(["exiftool", "-ver"], capture_output=True, text=True).stdout.strip()
    finally:
        shutil.rmtree(work, ignore_errors=True)

    labels = [ROWS[0][0], MAKE_PHOTOS_ROW] + [label for label, _ in ROWS[1:]] + ["other"]
    print("\nphotod metadata extraction per file, side by side with ExifTool%s, warm page cache, %d cores"
          % (" " + version if have_exiftool else " (not installed)", os.cpu_count()))
    print("CPU: %s" % cpu_model())
    print("photod: open + fstat + MetadataReader.read + close, median of %d runs a file (swiftc -O)" % PHOTOD_REPEATS)
    if have_exiftool:
        print("ExifTool: -stay_open request `%s FILE`, median of %d round trips a file"
              % (" ".join(EXIFTOOL_ARGS), EXIFTOOL_REPEATS))
    print("Each row: the median over its files of each file's median. ratio = ExifTool / photod.")
    print("descs: files with at least one description (EXIF, XMP or IPTC) found, photod / ExifTool.\n")
    print("%-20s %6s %11s %13s %8s %11s" % ("format", "files", "photod µs", "ExifTool µs", "ratio", "descs"))

    def found_any(flags):
        return flags["exif"] or flags["xmp"] or flags["iptc"]

    for label in labels + ["all corpus files"]:
        if label == "all corpus files":
            indices = [i for i, (_, row, _) in enumerate(entries) if row != MAKE_PHOTOS_ROW]
        else:
            indices = [i for i, (_, row, _) in enumerate(entries) if row == label]
        if not indices:
            print("%-20s %6d %11s %13s %8s %11s" % (label, 0, "-", "-", "-", "-"))
            continue
        ours = statistics.median(photod[i]["median_ns"] for i in indices) / 1000
        ours_found = sum(1 for i in indices if found_any(photod[i]))
        if have_exiftool:
            theirs = statistics.median(exiftool_ns[i] for i in indices) / 1000
            theirs_found = sum(1 for i in indices if found_any(exiftool_found[i]))
            print("%-20s %6d %11.1f %13.1f %7.0fx %11s" % (label, len(indices), ours, theirs, theirs / ours,
                                                           "%d / %d" % (ours_found, theirs_found)))
        else:
            print("%-20s %6d %11.1f %13s %8s %11s" % (label, len(indices), ours, "-", "-", "%d / -" % ours_found))

    print()
    print("TIFF-based raw: %s (as present in the corpus)" % ", ".join(
        sorted({name for _, row, name in entries if row == "TIFF-based raw"})))
    print("other: %s" % ", ".join(others))
    unknown = sum(1 for i, (_, row, _) in enumerate(entries) if photod[i]["format"] is None)
    print("files photod's reader did not recognise (format nil, cost of the sniff only): %d" % unknown)
    if have_exiftool:
        print("ExifTool's figures include its -stay_open pipe round trip: a `-ver` request takes %.1f µs (median of 201)"
              % (round_trip / 1000))
    else:
        print("ExifTool not installed (scripts/install-deps --bench installs it): photod only")


if __name__ == "__main__":
    main()
