# photod: the commands the README promises. Each installs what it needs first.
.PHONY: run test build release bench clean deb install uninstall generate

PREFIX ?= $(HOME)/.local

# Run the daemon on your pictures folder ($XDG_PICTURES_DIR, else ~/Pictures), with the index in
# ~/.local/state/photod/index.sqlite and the socket in $XDG_RUNTIME_DIR/photod/io.photod.
run:
	scripts/install-deps
	swift build -c release
	.build/release/photod

# Every test: unit (in process, in parallel), integration (the real photod + photoctl + the
# Python varlink client), the varlink certification both ways and, when ../shared/corpus is
# beside this checkout, corpus conformance; see scripts/run-tests for how they share the cores.
# The package is then built, checked with lintian, installed with dpkg -i, used and removed
# (packaging/test-deb; it says SKIPPED without root).
test:
	scripts/install-deps --test
	scripts/run-tests
	packaging/test-deb

build:
	scripts/install-deps
	swift build

# PhotoAPI's wire types from the IDL (Sources/PhotoAPI/interface); CodegenTests fails until this
# has run after the IDL changed.
generate:
	swift run varlink-codegen

release:
	scripts/install-deps
	swift build -c release

# Speed, latency and memory next to the C floor, raw inotify and ExifTool (see bench/README.md).
bench:
	scripts/install-deps --bench
	bench/run

clean:
	rm -rf .build .build-static dist

# The Debian package, in dist/ (Swift runtime linked statically; see packaging/README.md).
deb:
	scripts/install-deps --package
	packaging/build-deb dist

# A user-local install without a package (PREFIX=~/.local by default), and its removal.
install:
	scripts/install-deps
	packaging/install install $(PREFIX)

uninstall:
	packaging/install uninstall $(PREFIX)
