#!/usr/bin/env bash
# Tests the packages that package-all.sh leaves in editors/vscode/, as they would be installed:
#
#   - extension.vsixmanifest marks each with its VS Code target platform (the universal package
#     with none), and each holds exactly its server in extension/bin/ (the universal one none);
#   - each server is the right executable, checked in its header bytes: ELF x86-64 and ELF AArch64,
#     statically linked; PE32+ x86-64 console program for Windows;
#   - each server answers the LSP initialize and shutdown requests and exits with status 0 on exit,
#     and `ssalens annotate` prints testdata/annotate/design_loop.js.golden: linux-x64 natively,
#     linux-arm64 under qemu-user (Debian's qemu-user-static), win32-x64 under wine (Debian's
#     wine64).
#
# qemu-user and wine are installed with apt-get when missing. A server that cannot be run (its
# emulator does not install or run) and a package that package-all.sh skipped (its compiler did
# not install) are reported as SKIP; the test fails on any FAIL, or when there is no package.
set -euo pipefail
cd "$(dirname "$0")/.."   # editors/vscode
# shellcheck source=SCRIPTDIR/targets.sh
. scripts/targets.sh
VSCODE_DIR=$PWD
REPO=$(cd ../.. && pwd)
GOLDEN_JS=testdata/annotate/design_loop.js   # relative to REPO, where the servers run

passed=0 failed=0 skipped=0
pass() { printf 'PASS %s\n' "$*"; passed=$((passed + 1)); }
fail() { printf 'FAIL %s\n' "$*"; failed=$((failed + 1)); }
skip() { printf 'SKIP %s\n' "$*"; skipped=$((skipped + 1)); }

tmp=$(mktemp -d)
cleanup() {
	# The wineserver of our own prefix, if wine ran.
	if [ -n "${WINESERVER:-}" ] && [ -d "$tmp/wine" ]; then
		WINEPREFIX="$tmp/wine" "$WINESERVER" -k 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

if ! command -v unzip >/dev/null; then
	apt_install unzip || { echo "test-platforms: unzip is needed and could not be installed" >&2; exit 1; }
fi

# hex FILE OFFSET COUNT prints COUNT bytes of FILE from OFFSET as hex, in file order.
hex() { od -An -tx1 -v -j "$2" -N "$3" "$1" | tr -d ' \n'; }
# u32 FILE OFFSET prints the little-endian 32-bit number at OFFSET.
u32() { local h; h=$(hex "$1" "$2" 4); echo $((16#${h:6:2}${h:4:2}${h:2:2}${h:0:2})); }

# check_manifest VSIX TARGET: TARGET is "universal" for no TargetPlatform.
check_manifest() {
	local identity
	identity=$(unzip -p "$1" extension.vsixmanifest | grep -o '<Identity [^>]*>' || true)
	if [ "$2" = universal ]; then
		case "$identity" in
		*TargetPlatform=*) fail "$1: the universal package is marked with a target platform: $identity" ;;
		'<Identity '*) pass "$1: manifest has no target platform" ;;
		*) fail "$1: no <Identity> in extension.vsixmanifest" ;;
		esac
	elif [[ "$identity" == *"TargetPlatform=\"$2\""* ]]; then
		pass "$1: manifest marks TargetPlatform=\"$2\""
	else
		fail "$1: manifest does not mark TargetPlatform=\"$2\": ${identity:-no <Identity>}"
	fi
}

# check_bin VSIX EXPECTED: the files under extension/bin/ must be exactly EXPECTED (may be empty).
check_bin() {
	local files
	files=$(unzip -Z1 "$1" | grep '^extension/bin/.' | tr '\n' ' ' | sed 's/ $//' || true)
	if [ "$files" = "$2" ]; then
		pass "$1: bundles ${2:-no server}"
	else
		fail "$1: bundles '${files}', expected '${2}'"
	fi
}

# check_elf LABEL BIN MACHINE NAME: BIN is a 64-bit little-endian ELF executable for e_machine
# MACHINE (hex, in file order), statically linked (no PT_INTERP program header). Fails when BIN is
# not an executable for that machine at all.
check_elf() {
	local label=$1 head
	shift
	head=$(hex "$1" 0 20)
	if [ "${head:0:12}" != 7f454c460201 ]; then
		fail "$label: not a 64-bit little-endian ELF file (starts $head)"
		return 1
	fi
	if [ "${head:36:4}" != "$2" ]; then
		fail "$label: ELF e_machine is ${head:36:4}, expected $2 ($3)"
		return 1
	fi
	if ! command -v readelf >/dev/null; then
		skip "$label: ELF $3; readelf (binutils) is not installed, static linking not checked"
	elif readelf -lW "$1" | grep -q INTERP; then
		fail "$label: ELF $3 but dynamically linked: $(readelf -lW "$1" | grep -o 'interpreter: [^]]*')"
	else
		pass "$label: ELF 64-bit $3, statically linked"
	fi
}

# check_pe LABEL BIN: BIN is a PE32+ x86-64 console executable; fails when not.
check_pe() {
	local label=$1 pe
	shift
	if [ "$(hex "$1" 0 2)" != 4d5a ]; then
		fail "$label: no MZ header"
		return 1
	fi
	pe=$(u32 "$1" 60)   # e_lfanew
	local sig machine magic subsystem
	sig=$(hex "$1" "$pe" 4)
	machine=$(hex "$1" $((pe + 4)) 2)
	magic=$(hex "$1" $((pe + 24)) 2)
	subsystem=$(hex "$1" $((pe + 24 + 68)) 2)
	if [ "$sig" = 50450000 ] && [ "$machine" = 6486 ] && [ "$magic" = 0b02 ] && [ "$subsystem" = 0300 ]; then
		pass "$label: PE32+ x86-64 console executable (PE header at $pe: machine 0x8664, magic 0x20b, subsystem 3)"
	else
		fail "$label: not a PE32+ x86-64 console executable (signature $sig, machine $machine, magic $magic, subsystem $subsystem)"
		return 1
	fi
}

frame() { printf 'Content-Length: %d\r\n\r\n%s' "${#1}" "$1"; }

# check_run NAME RUNNER... BIN: the server, started as RUNNER... BIN, answers initialize and
# shutdown, exits with 0 on exit, and annotates GOLDEN_JS as the golden file says.
check_run() {
	local name=$1
	shift
	local out="$tmp/$name.out" status=0
	{
		frame '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}'
		frame '{"jsonrpc":"2.0","method":"initialized","params":{}}'
		frame '{"jsonrpc":"2.0","id":2,"method":"shutdown"}'
		frame '{"jsonrpc":"2.0","method":"exit"}'
	} >"$tmp/$name.in"
	(cd "$REPO" && timeout 120 "$@" serve <"$tmp/$name.in" >"$out" 2>"$tmp/$name.err") || status=$?
	local reply
	# The message bodies, one a line (each ends with } and is followed by the next header).
	reply=$(tr -d '\r' <"$out" | sed 's/}Content-Length:/}\nContent-Length:/g' | grep '^{"jsonrpc":"2.0","id":1,' || true)
	if [ "$status" = 0 ] && [[ "$reply" == *'"result":{"capabilities":{'*'"serverInfo":{"name":"ssalens"'* ]] &&
		grep -q '"id":2,"result":null' "$out"; then
		pass "$name: initialize, shutdown, exit (status 0); initialize replied: $reply"
	else
		fail "$name: the LSP session failed (exit status $status); stdout: $(head -c 800 "$out"); stderr: $(head -c 800 "$tmp/$name.err")"
	fi
	status=0
	(cd "$REPO" && timeout 120 "$@" annotate "$GOLDEN_JS" >"$tmp/$name.annotate" 2>&1) || status=$?
	if [ "$status" = 0 ] && cmp -s "$tmp/$name.annotate" "$REPO/$GOLDEN_JS.golden"; then
		pass "$name: annotate $GOLDEN_JS matches its .golden"
	else
		fail "$name: annotate $GOLDEN_JS (exit status $status) differs from its .golden: $(diff "$tmp/$name.annotate" "$REPO/$GOLDEN_JS.golden" | head -20)"
	fi
}

# qemu_runner GOARCH prints the qemu-user binary for GOARCH, installing qemu-user-static if needed.
qemu_runner() {
	local q
	case "$1" in
	amd64) q='qemu-x86_64' ;;
	arm64) q='qemu-aarch64' ;;
	esac
	if ! command -v "$q-static" >/dev/null && ! command -v "$q" >/dev/null; then
		echo "test-platforms: installing qemu-user-static" >&2
		apt_install qemu-user-static || return 1
	fi
	command -v "$q-static" || command -v "$q"
}

# wine_setup sets WINE and WINESERVER and makes a fresh prefix in $tmp/wine; when wine cannot
# be installed or run, it fails with the reason in no_wine.
wine_setup() {
	find_wine() {
		WINE=$(command -v wine64 || command -v wine || ls /usr/lib/wine/wine64 2>/dev/null || true)
		WINESERVER=$(command -v wineserver || ls /usr/lib/wine/wineserver 2>/dev/null || true)
	}
	find_wine
	if [ -z "$WINE" ]; then
		echo "test-platforms: installing wine64" >&2
		apt_install wine64 || { no_wine="wine is not installed and could not be (Debian: apt-get install wine64)"; return 1; }
		find_wine
		[ -n "$WINE" ] || { no_wine="wine64 is installed, but no wine binary was found"; return 1; }
	fi
	export WINEPREFIX="$tmp/wine" WINEDEBUG=-all
	if ! timeout 120 "$WINE" wineboot --init >"$tmp/wineboot.log" 2>&1; then
		no_wine="wine could not create a prefix: $(tail -5 "$tmp/wineboot.log")"
		return 1
	fi
	"$WINESERVER" -w
	# Go's runtime (since 1.22) takes its random numbers from ProcessPrng in bcryptprimitives.dll,
	# which Windows 10 has and wine before 9.0 lacks (Debian 12 ships wine 8.0). Give such a wine
	# one, built on BCryptGenRandom; Go loads it from system32 only.
	local sys32="$WINEPREFIX/drive_c/windows/system32"
	[ ! -e "$sys32/bcryptprimitives.dll" ] || return 0
	if ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
		no_wine="this wine has no bcryptprimitives.dll, which Go programs need, and x86_64-w64-mingw32-gcc (to build one) is not installed"
		return 1
	fi
	cat >"$tmp/processprng.c" <<-'EOF'
		#include <windows.h>
		#include <bcrypt.h>
		__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
			while (len > 0) {
				ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
				if (BCryptGenRandom(NULL, data, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0) return FALSE;
				data += n;
				len -= n;
			}
			return TRUE;
		}
	EOF
	if ! x86_64-w64-mingw32-gcc -O2 -shared -o "$sys32/bcryptprimitives.dll" "$tmp/processprng.c" -lbcrypt 2>"$tmp/processprng.log"; then
		no_wine="this wine has no bcryptprimitives.dll, and building one failed: $(head -5 "$tmp/processprng.log")"
		return 1
	fi
	echo "test-platforms: $("$WINE" --version) lacks bcryptprimitives.dll; using a ProcessPrng built on BCryptGenRandom" >&2
}

vsix_for() { echo "ssalens-$1.vsix"; }

if [ ! -f "$(vsix_for universal)" ]; then
	echo "test-platforms: no $(vsix_for universal) in $VSCODE_DIR: run scripts/package-all.sh first" >&2
	exit 1
fi
check_manifest "$(vsix_for universal)" universal
check_bin "$(vsix_for universal)" ""

host=$(host_goos_goarch)
for target in "${TARGETS[@]}"; do
	vsix=$(vsix_for "$target")
	if [ ! -f "$vsix" ]; then
		skip "$vsix: not built (package-all.sh skips a target whose C compiler cannot be installed)"
		continue
	fi
	target_toolchain "$target"
	check_manifest "$vsix" "$target"
	check_bin "$vsix" "extension/bin/$EXE"
	mkdir -p "$tmp/$target"
	bin="$tmp/$target/$EXE"
	unzip -p "$vsix" "extension/bin/$EXE" >"$bin"
	chmod +x "$bin"
	format_ok=true
	case "$target" in
	linux-x64) check_elf "$vsix: bin/$EXE" "$bin" 3e00 x86-64 || format_ok=false ;;
	linux-arm64) check_elf "$vsix: bin/$EXE" "$bin" b700 AArch64 || format_ok=false ;;
	win32-x64) check_pe "$vsix: bin/$EXE" "$bin" || format_ok=false ;;
	esac
	if command -v file >/dev/null; then
		echo "     file: $(file -b "$bin")"
	fi

	# wine, for one, runs a Linux binary too: only a binary of the right kind is worth running.
	if ! $format_ok; then
		skip "$target: not run, as it is not an executable for $target (see the FAIL above)"
	elif [ "$GOOS/$GOARCH" = "$host" ]; then
		check_run "$target (native)" "$bin"
	elif [ "$GOOS" = linux ]; then
		if qemu=$(qemu_runner "$GOARCH"); then
			check_run "$target (under $(basename "$qemu"))" "$qemu" "$bin"
		else
			skip "$target: not run: qemu-user is not installed and could not be (Debian: apt-get install qemu-user-static)"
		fi
	elif [ "$GOOS" = windows ]; then
		if wine_setup; then
			check_run "$target (under $("$WINE" --version))" "$WINE" "$bin"
		else
			skip "$target: not run under wine: $no_wine"
		fi
	fi
done

printf '\ntest-platforms: %d passed, %d skipped, %d failed\n' "$passed" "$skipped" "$failed"
[ "$failed" = 0 ]
