// Package npmtest installs pinned npm packages for tests and benchmarks that compare with or
// check through JavaScript tools (ESLint, a SARIF schema validator), once, into a cache
// directory outside the repository, and skips the test or benchmark when node, npm or the
// registry is not there.
package npmtest

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// installTimeout bounds one npm install, so that a hanging network turns into a skip.
const installTimeout = 3 * time.Minute

// Install returns a directory whose node_modules holds the modules, each given as
// name@version with an exact version, installing them with npm on first use. The directory
// is the environment variable env if set, else os.UserCacheDir()/name.
func Install(tb testing.TB, name, env string, modules ...string) string {
	tb.Helper()
	dir := os.Getenv(env)
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			tb.Skipf("npmtest: no cache directory: %v", err)
		}
		dir = filepath.Join(cache, name)
	}
	return InstallIn(tb, dir, modules...)
}

// InstallIn is Install into the directory dir.
func InstallIn(tb testing.TB, dir string, modules ...string) string {
	tb.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		tb.Skipf("npmtest: node not found: %v", err)
	}
	if installed(dir, modules) {
		return dir
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		tb.Skipf("npmtest: npm not found, cannot install %s: %v", strings.Join(modules, " "), err)
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		tb.Fatal(err)
	}
	// Install next to dir and rename, so that an interrupted install leaves nothing behind.
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+"-install-")
	if err != nil {
		tb.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, "package.json"), []byte(`{"private": true}`+"\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), installTimeout)
	defer cancel()
	args := append([]string{"install", "--no-audit", "--no-fund", "--prefer-offline",
		"--fetch-retries=1", "--fetch-retry-mintimeout=2000", "--fetch-retry-maxtimeout=10000"}, modules...)
	cmd := exec.CommandContext(ctx, npm, args...)
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Skipf("npmtest: npm install %s failed (no network?): %v\n%s", strings.Join(modules, " "), err, out)
	}
	if !installed(tmp, modules) {
		tb.Fatalf("npmtest: npm install did not install %s into %s", strings.Join(modules, " "), tmp)
	}
	if err := os.RemoveAll(dir); err != nil {
		tb.Fatal(err)
	}
	if err := os.Rename(tmp, dir); err != nil && !installed(dir, modules) {
		tb.Fatal(err)
	}
	tb.Logf("npmtest: installed %s into %s", strings.Join(modules, " "), dir)
	return dir
}

// installed reports whether dir's node_modules holds each module at its version.
func installed(dir string, modules []string) bool {
	for _, m := range modules {
		at := strings.LastIndexByte(m, '@')
		if at <= 0 || Version(dir, m[:at]) != m[at+1:] {
			return false
		}
	}
	return true
}

// Version returns the version of module in dir's node_modules, or "".
func Version(dir, module string) string {
	data, err := os.ReadFile(filepath.Join(dir, "node_modules", filepath.FromSlash(module), "package.json"))
	if err != nil {
		return ""
	}
	var pkg struct{ Version string }
	if json.Unmarshal(data, &pkg) != nil {
		return ""
	}
	return pkg.Version
}
