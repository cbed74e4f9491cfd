#!/usr/bin/env bash
# Builds the extension's four .vsix packages in editors/vscode/:
#
#   ssalens-linux-x64.vsix, ssalens-linux-arm64.vsix, ssalens-win32-x64.vsix
#       marked with their VS Code target platform (vsce --target), each bundling the server
#       cross-compiled with cgo for that platform (scripts/build-server.sh TARGET);
#   ssalens-universal.vsix
#       for every platform (macOS included), bundling no server: it runs `ssalens` from PATH or
#       the ssalens.server.path setting.
#
# Needs Go, gcc, Node 20 and npm. Installs the missing cross compilers with apt-get when it can;
# a target whose compiler cannot be installed is skipped with a message (the other packages are
# still built). bin/ is put back as it was found. scripts/test-platforms.sh tests the result.
set -euo pipefail
cd "$(dirname "$0")/.."   # editors/vscode
# shellcheck source=SCRIPTDIR/targets.sh
. scripts/targets.sh

log() { printf 'package-all: %s\n' "$*" >&2; }

command -v go >/dev/null || { log "go not found: it builds the servers"; exit 1; }
[ -x node_modules/.bin/vsce ] || npm ci --no-audit --no-fund

# Every package is rebuilt: remove the old ones so none is left over from an earlier run.
for target in "${TARGETS[@]}" universal; do
	rm -f "ssalens-$target.vsix"
done

# The C compilers, installed together when some are missing.
missing=()
for target in "${TARGETS[@]}"; do
	target_toolchain "$target"
	if ! command -v "$CC" >/dev/null; then
		read -ra pkgs <<<"$DEB_PACKAGES"
		missing+=("${pkgs[@]}")
	fi
done
if [ ${#missing[@]} -gt 0 ]; then
	log "installing the C cross compilers: ${missing[*]}"
	apt_install "${missing[@]}" || log "could not install ${missing[*]} with apt-get"
fi

# build-server.sh TARGET replaces bin/; keep the developer's bin/ (from `npm run package`) aside.
saved=$(mktemp -d)
[ ! -e bin ] || mv bin "$saved/bin"
restore_bin() {
	rm -rf bin
	[ ! -e "$saved/bin" ] || mv "$saved/bin" bin
	rm -rf "$saved"
}
trap restore_bin EXIT

built=() skipped=()
for target in "${TARGETS[@]}"; do
	target_toolchain "$target"
	if ! command -v "$CC" >/dev/null; then
		log "SKIP $target: its C compiler $CC is not installed and could not be (Debian: apt-get install $DEB_PACKAGES)"
		skipped+=("$target")
		continue
	fi
	log "$target: building the server"
	bash scripts/build-server.sh "$target"
	log "$target: packaging"
	npm run --silent vsix -- --target "$target" -o "ssalens-$target.vsix" >/dev/null
	built+=("ssalens-$target.vsix")
done

log "universal: packaging (no server)"
rm -rf bin
npm run --silent vsix -- -o ssalens-universal.vsix >/dev/null
built+=(ssalens-universal.vsix)

ls -l "${built[@]}"
if [ ${#skipped[@]} -gt 0 ]; then
	log "skipped: ${skipped[*]} (see above)"
fi
