#!/usr/bin/env bash
# Builds the ssalens server into bin/ssalens, to be bundled in the .vsix. Skipped (with a note)
# when Go is not installed: the extension then needs ssalens on PATH or ssalens.server.path.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v go >/dev/null 2>&1; then
	echo "build-server: go not found; packaging without a bundled server" >&2
	rm -f bin/ssalens
	exit 0
fi
mkdir -p bin
go build -trimpath -ldflags='-s -w' -o bin/ssalens ../../cmd/ssalens
echo "build-server: built bin/ssalens ($(./bin/ssalens version))" >&2
