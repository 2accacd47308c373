#!/usr/bin/env python3
"""Shell completion of the library's names, as a person pressing Tab waits for it, in one run.

  photoctl   the whole process the shell runs (`photoctl ---completion ...`: start, connect,
             photod's Complete, print) for group names and for asset ids, 10,000 photos indexed
  bash       the same through bash and photoctl's generated script (`_photoctl`), as on Tab
  peer       git, whose completion runs a process the same way: `git for-each-ref` (what it
             runs to complete a branch) and bash completing `git checkout ` with git's script
"""
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import varlink

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(REPO), "shared")
RELEASE = os.path.join(REPO, ".build", "release")
RUNS = int(os.environ.get("COMPLETION_RUNS", "100"))


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def timed(command, env, runs=RUNS, cwd=None):
    """Milliseconds per run of `command`, after two warm-up runs; its last output."""
    output = ""
    for _ in range(2):
        subprocess.run(command, env=env, cwd=cwd, capture_output=True, check=True)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        result = subprocess.run(command, env=env, cwd=cwd, capture_output=True, check=True, text=True)
        times.append((time.perf_counter() - started) * 1000)
        output = result.stdout
    return times, output


def line(label, times, note=""):
    print("  %-58s p50 %6.2f ms  p99 %6.2f ms%s" % (label, statistics.median(times), percentile(times, 0.99), note))


# bash completing the command line given as arguments, with the script $1 (after bash-completion's
# helpers, which git's script needs; photoctl's needs none), as on Tab.
BASH_COMPLETE = """
[ -n "$HELPERS" ] && source /usr/share/bash-completion/bash_completion
source "$1"; shift
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
"$COMPLETE" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\\n' "${COMPREPLY[@]}"
"""


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    work = tempfile.mkdtemp(prefix="photod-completion-")
    process = None
    try:
        library = os.path.join(work, "library")
        subprocess.run([os.path.join(SHARED, "tools", "make-photos"), library, str(count), "--seed", "7"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        socket = os.path.join(work, "photod.sock")
        env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"), PHOTOD_SOCKET=socket,
                   PATH=RELEASE + ":" + os.environ.get("PATH", ""), HELPERS="")
        # This script calls Complete itself: trust it as an owner, as photoctl is.
        os.makedirs(os.path.join(work, "config", "photod"))
        with open(os.path.join(work, "config", "photod", "photod.toml"), "w") as config:
            config.write('[permissions]\ntrusted = ["script:*/completion_bench.py"]\n')
        process = subprocess.Popen([os.path.join(RELEASE, "photod"), "--root", library, "--database",
                                    os.path.join(work, "index.sqlite"), "--socket", socket, "--log-level", "warning"],
                                   env=env, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            status = subprocess.run(["photoctl", "--json", "status"], env=env, capture_output=True, text=True)
            if '"state" : "ready"' in status.stdout:
                break
            time.sleep(0.1)
        else:
            sys.exit("bench: photod did not become ready")

        script = os.path.join(work, "photoctl.bash")
        with open(script, "w") as out:
            subprocess.run(["photoctl", "--generate-completion-script", "bash"], env=env, stdout=out, check=True)
        shell = dict(env, SAP_SHELL="bash")
        print("\nshell completion (%d cores), %d photos, %d runs each, whole processes" % (os.cpu_count(), count, RUNS))
        groups, shown = timed(["photoctl", "---completion", "list", "--", "positional@0", "2", "0",
                               "photoctl", "list", ""], shell)
        line("photoctl ---completion list ''  (group names)", groups, "  [%d offered]" % len(shown.splitlines()))
        ids, shown = timed(["photoctl", "---completion", "show", "--", "positional@0", "2", "1",
                            "photoctl", "show", "a"], shell)
        line("photoctl ---completion show a  (asset ids)", ids, "  [%d offered]" % len(shown.splitlines()))
        bash_env = dict(env, COMPLETE="_photoctl")
        tab, shown = timed(["bash", "--norc", "--noprofile", "-c", BASH_COMPLETE, "bash", script,
                            "photoctl", "list", ""], bash_env)
        line("bash + photoctl's script: photoctl list <Tab>", tab, "  [%d offered]" % len(shown.splitlines()))

        with varlink.Client(address="unix:" + socket) as client, client.open("io.photod.Library") as api:
            calls = []
            for _ in range(RUNS):
                started = time.perf_counter()
                api.Complete(kind="group", prefix="")
                calls.append((time.perf_counter() - started) * 1000)
        line("photod's Complete alone (a Python client connected once)", calls)

        print("peer: git's completion of branch names, on this repository")
        refs, _ = timed(["git", "for-each-ref", "--format=%(refname:short)", "refs/heads/"], env, cwd=REPO)
        line("git for-each-ref refs/heads/  (what it runs on Tab)", refs)
        git_env = dict(env, COMPLETE="__git_wrap__git_main", HELPERS="1")
        git_tab, shown = timed(["bash", "--norc", "--noprofile", "-c", BASH_COMPLETE, "bash",
                                "/usr/share/bash-completion/completions/git", "git", "checkout", ""], git_env, cwd=REPO)
        line("bash + git's script: git checkout <Tab>", git_tab, "  [%d offered]" % len(shown.splitlines()))
        print("target: photoctl's whole process well under 100 ms")
    finally:
        if process:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
