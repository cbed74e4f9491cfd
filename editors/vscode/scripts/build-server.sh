#!/usr/bin/env bash
# Builds the ssalens server into bin/, to be bundled in the .vsix.
#
#   build-server.sh          for this machine, into bin/ssalens (what `npm run package` bundles).
#                            Skipped (with a note) when Go is not installed: the extension then
#                            needs ssalens on PATH or ssalens.server.path.
#   build-server.sh TARGET   cross-compiled with cgo for the VS Code target linux-x64, linux-arm64
#                            (bin/ssalens, statically linked: it runs on any Linux distribution)
#                            or win32-x64 (bin/ssalens.exe). Needs Go and the target's C compiler
#                            (scripts/targets.sh names the Debian packages; package-all.sh
#                            installs them).
set -euo pipefail
cd "$(dirname "$0")/.."   # editors/vscode

if [ $# -eq 0 ]; then
	if ! command -v go >/dev/null 2>&1; then
		echo "build-server: go not found; packaging without a bundled server" >&2
		rm -f bin/ssalens
		exit 0
	fi
	mkdir -p bin
	go build -trimpath -ldflags='-s -w' -o bin/ssalens ../../cmd/ssalens
	echo "build-server: built bin/ssalens ($(./bin/ssalens version))" >&2
	exit 0
fi

# shellcheck source=SCRIPTDIR/targets.sh
. scripts/targets.sh
target=$1
target_toolchain "$target"
if ! command -v go >/dev/null 2>&1; then
	echo "build-server: go not found; cannot build the server for $target" >&2
	exit 1
fi
if ! command -v "$CC" >/dev/null 2>&1; then
	echo "build-server: $CC not found; cannot build the server for $target (Debian: apt-get install $DEB_PACKAGES)" >&2
	exit 1
fi

ldflags='-s -w'
tags=
if [ "$GOOS" = linux ]; then
	# A static binary needs no particular glibc. netgo and osusergo keep the net and os/user
	# packages off glibc's NSS, which cannot be linked statically.
	ldflags="$ldflags -linkmode external -extldflags -static"
	tags=netgo,osusergo
fi
rm -rf bin
mkdir -p bin
CGO_ENABLED=1 CC="$CC" GOOS="$GOOS" GOARCH="$GOARCH" \
	go build -trimpath -tags="$tags" -ldflags="$ldflags" -o "bin/$EXE" ../../cmd/ssalens
echo "build-server: built bin/$EXE for $target ($GOOS/$GOARCH, CC=$CC)" >&2
