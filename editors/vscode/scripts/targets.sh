# shellcheck shell=bash
# The VS Code targets that get a .vsix with a bundled server, and how to cross-compile the server
# (cgo: tree-sitter) for each. Sourced by build-server.sh, package-all.sh and test-platforms.sh.

# shellcheck disable=SC2034 # the variables are read by the scripts that source this file
TARGETS=(linux-x64 linux-arm64 win32-x64)

# target_toolchain TARGET sets GOOS, GOARCH, CC (the C compiler for cgo), DEB_PACKAGES (the Debian
# packages that provide CC) and EXE (the server's file name in bin/). A Linux target is built with
# the host's gcc when the host is that target, else with Debian's cross compiler.
target_toolchain() {
	local cross cross_pkgs
	EXE=ssalens
	case "$1" in
	linux-x64)
		GOOS=linux GOARCH=amd64
		cross=x86_64-linux-gnu-gcc cross_pkgs="gcc-x86-64-linux-gnu libc6-dev-amd64-cross"
		;;
	linux-arm64)
		GOOS=linux GOARCH=arm64
		cross=aarch64-linux-gnu-gcc cross_pkgs="gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
		;;
	win32-x64)
		GOOS=windows GOARCH=amd64 EXE=ssalens.exe
		cross=x86_64-w64-mingw32-gcc cross_pkgs=gcc-mingw-w64-x86-64
		;;
	*)
		echo "unknown target '$1' (known: ${TARGETS[*]})" >&2
		return 2
		;;
	esac
	if [ "$GOOS/$GOARCH" = "$(host_goos_goarch)" ]; then
		CC=gcc DEB_PACKAGES=gcc
	else
		CC=$cross DEB_PACKAGES=$cross_pkgs
	fi
}

# host_goos_goarch prints this machine's GOOS/GOARCH (without needing Go).
host_goos_goarch() {
	local os arch
	os=$(uname -s | tr '[:upper:]' '[:lower:]')
	case "$(uname -m)" in
	x86_64 | amd64) arch=amd64 ;;
	aarch64 | arm64) arch=arm64 ;;
	*) arch=$(uname -m) ;;
	esac
	echo "$os/$arch"
}

# apt_install PACKAGE... installs Debian packages quietly (as root, or through sudo). Fails when
# apt-get is not there or the installation fails; the caller decides what that means.
apt_install() {
	command -v apt-get >/dev/null || return 1
	local sudo=
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null || return 1
		sudo="sudo -n"
	fi
	$sudo apt-get update -qq >&2 &&
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >&2
}
