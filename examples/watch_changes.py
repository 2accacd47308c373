#!/usr/bin/env python3
"""Print photod's library changes as they happen, with the photos' paths and groups.

An example of another tool receiving photod's change notifications over varlink, with
the reference Python client (pip install varlink). Usage:

    python3 watch_changes.py [SOCKET] [--since TOKEN]

It asks the owner for access first (answer with `photoctl permissions prompt`); a limited
answer shows only the chosen photos' changes.

SOCKET defaults to $PHOTOD_SOCKET, else $XDG_RUNTIME_DIR/photod/io.photod. Each change is
printed as one JSON line: {"token", "added": [paths], "removed": [ids], "updated": [paths],
"moved": [[from, to]], "groups": [names]}. Resume after a restart with --since and the
last token printed; a "resync" line means: list everything again.
"""
import argparse
import json
import os
import sys

import varlink


def default_socket():
    if os.environ.get("PHOTOD_SOCKET"):
        return os.environ["PHOTOD_SOCKET"]
    runtime = os.environ.get("XDG_RUNTIME_DIR") or "/tmp/photod-runtime-%d" % os.getuid()
    return os.path.join(runtime, "photod", "io.photod")


def ask_for_access(client):
    """Asks the owner once; returns when allowed, exits with the daemon's answer otherwise."""
    with client.open("io.photod.Authorization") as authorization:
        status = "notDetermined"
        for reply in authorization.RequestAuthorization(
                "show library changes as they happen", "watch_changes example", _more=True):
            if reply["pending"]:
                print("watch_changes: waiting for the owner (photoctl permissions prompt)...",
                      file=sys.stderr, flush=True)
            status = reply["status"]
        if status in ("authorized", "limited"):
            return
        if status == "denied":
            app = authorization.Status()["app"]["id"]
            sys.exit("watch_changes: denied; the owner can run: photoctl permissions reset '%s'" % app)
        sys.exit("watch_changes: %s (the owner did not allow it)" % status)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("socket", nargs="?", default=default_socket())
    parser.add_argument("--since", type=int)
    args = parser.parse_args()

    address = "unix:" + args.socket
    parameters = {} if args.since is None else {"since": args.since}
    with varlink.Client(address=address) as client:
        ask_for_access(client)
    # One connection streams changes; a second one looks up the paths of changed photos.
    with varlink.Client(address=address) as client, \
            client.open("io.photod.Library") as changes, client.open("io.photod.Library") as library:
        for reply in changes.Subscribe(_more=True, **parameters):
            change = reply["change"]
            if change["resync"]:
                print(json.dumps({"token": change["token"], "resync": True}), flush=True)
                continue
            wanted = change["inserted"] + change["updated"]
            paths = {}
            if wanted:
                for asset in library.GetAssets(ids=wanted)["assets"]:
                    paths[asset["id"]] = asset["path"]
            print(json.dumps({
                "token": change["token"],
                "added": [paths.get(i, i) for i in change["inserted"]],
                "removed": change["removed"],
                "updated": [paths.get(i, i) for i in change["updated"]],
                "moved": [[m["from"], m["to"]] for m in change["moved"]],
                "groups": change["groupsChanged"] + change["groupsRemoved"],
            }), flush=True)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(0)
    except (ConnectionError, FileNotFoundError) as error:
        sys.exit("watch_changes: cannot reach photod: %s" % error)
