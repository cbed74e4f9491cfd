#!/usr/bin/env bash
# Installs code-server (a real VS Code in the browser) from the npm registry into a cache outside
# the repository, idempotently. Prints the path of the code-server launcher on its last line.
#
# A plain `npm install code-server` fails here; these are the steps that work on Node 20
# (see shared/notes/lsp-and-editors.md). Needs Debian's ripgrep, libkrb5-dev and pkg-config
# (installed by this script when apt-get is available and they are missing).
set -euo pipefail

VERSION="${CODE_SERVER_VERSION:-4.100.3}"
CACHE="${SSALENS_EDITORS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ssalens-editors}"
DIR="$CACHE/code-server-$VERSION"
CS="$DIR/node_modules/code-server"
STAMP="$DIR/.installed"

log() { echo "install-code-server: $*" >&2; }

if [ -f "$STAMP" ] && [ -f "$CS/out/node/entry.js" ]; then
	echo "$CS/out/node/entry.js"
	exit 0
fi

need_pkgs=()
command -v rg >/dev/null || need_pkgs+=(ripgrep)
command -v pkg-config >/dev/null || need_pkgs+=(pkg-config)
[ -f /usr/include/gssapi/gssapi.h ] || [ -f /usr/include/krb5.h ] || need_pkgs+=(libkrb5-dev)
if [ ${#need_pkgs[@]} -gt 0 ]; then
	log "installing Debian packages: ${need_pkgs[*]}"
	if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
	$SUDO apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_pkgs[@]}" >&2
fi

# Native modules build against Node's own headers (Debian's nodejs ships them in /usr/include/node);
# without nodedir node-gyp would try to download them.
if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node.h ]; then
	export npm_config_nodedir=/usr
fi
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
# node-pty's post-install script runs `npx node-gyp`, which must not stop to ask.
export npm_config_yes=true

rm -rf "$DIR"
mkdir -p "$DIR"
cd "$DIR"
echo '{"name":"ssalens-code-server","private":true}' > package.json

log "1/5 npm install --ignore-scripts code-server@$VERSION"
npm install --ignore-scripts --no-package-lock "code-server@$VERSION" >&2
(cd "$DIR" && npm rebuild argon2 >&2)

log "2/5 lib/vscode dependencies"
cd "$CS/lib/vscode"
npm install --omit=dev --ignore-scripts >&2
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg

log "3/5 native modules"
npm rebuild @parcel/watcher @vscode/spdlog kerberos native-watchdog @vscode/deviceid node-pty >&2

log "4/5 links made by postinstall.sh"
rm -rf node_modules.asar && ln -s node_modules node_modules.asar
(cd bin/remote-cli && rm -rf code-server && ln -s code-linux.sh code-server)
(cd bin/helpers && rm -rf browser.sh && ln -s browser-linux.sh browser.sh)

log "5/5 built-in extensions' dependencies"
cd extensions
npm install --omit=dev --ignore-scripts >&2

touch "$STAMP"
log "installed code-server $VERSION in $DIR"
echo "$CS/out/node/entry.js"
