#!/usr/bin/env bash
# Runs the headless Neovim test against a freshly built server.
#   SSALENS_BIN=/path/to/ssalens editors/nvim/test/run.sh   (default: build one)
set -euo pipefail
cd "$(dirname "$0")/.."   # editors/nvim

if ! command -v nvim >/dev/null 2>&1; then
	echo "nvim/test: installing Debian's neovim" >&2
	if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
	$SUDO apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq neovim >&2
fi
nvim --version | head -1

if [ -z "${SSALENS_BIN:-}" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	(cd ../.. && go build -o "$tmp/ssalens" ./cmd/ssalens)
	SSALENS_BIN="$tmp/ssalens"
fi
export SSALENS_BIN

# Headless Neovim prints through stderr; a timeout guards against a hang.
# Its last message has no newline after it, so add one: the closing 'N passed, N failed' line
# must stand alone.
status=0
timeout 120 nvim --headless --clean -u test/minimal_init.lua -c 'luafile test/ssalens_test.lua' 2>&1 || status=$?
echo
exit "$status"
