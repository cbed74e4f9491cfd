#!/usr/bin/env bash
# CI for the VS Code extension, from a clean checkout with Go, Node 20 and npm:
#   1. unit tests of the client wiring (no VS Code);
#   2. the .vsix (`npm run package`, which bundles a freshly built server in bin/);
#   3. protocol tests: the real server driven by vscode-languageserver-protocol;
#   4. end to end: the .vsix in code-server (a real VS Code), driven in Debian's Chromium;
#   5. the per-platform packages (scripts/package-all.sh: linux-x64, linux-arm64 and win32-x64
#      with servers cross-compiled with cgo, and the universal one), tested with
#      scripts/test-platforms.sh (the servers under qemu-user and wine) and in code-server.
# Big installs (code-server) are cached in ${XDG_CACHE_HOME:-~/.cache}/ssalens-editors; the cross
# compilers, qemu-user-static and wine64 are installed with apt-get by the scripts that need them.
set -euo pipefail
cd "$(dirname "$0")/.."   # editors/vscode

step() { printf '\n== vscode: %s\n' "$*"; }

# Debian packages the end-to-end test needs: Chromium, and ripgrep + Kerberos headers for
# code-server's install.
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v rg >/dev/null || missing+=(ripgrep)
command -v pkg-config >/dev/null || missing+=(pkg-config)
[ -f /usr/include/krb5.h ] || missing+=(libkrb5-dev)
if [ ${#missing[@]} -gt 0 ]; then
	step "apt-get install ${missing[*]}"
	if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

step "npm ci"
npm ci --no-audit --no-fund

step "typecheck"
npm run --silent typecheck

step "package the .vsix"
npm run --silent package
ls -l ssalens.vsix
export SSALENS_BIN="$PWD/bin/ssalens"
export SSALENS_VSIX="$PWD/ssalens.vsix"

step "unit and protocol tests"
npm run --silent test

step "install code-server (cached)"
CODE_SERVER=$(bash scripts/install-code-server.sh)
export CODE_SERVER

step "end-to-end test in code-server + Chromium"
npm run --silent test:e2e

step "per-platform packages"
bash scripts/package-all.sh

step "per-platform servers under qemu-user and wine"
bash scripts/test-platforms.sh

step "end-to-end test of the per-platform packages in code-server"
npm run --silent test:e2e-platforms
