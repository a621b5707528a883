package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/git-memcite/git-memcite/internal/testing/longtest"
)

// actionStep is a step of action.yml.
type actionStep struct {
	ID   string            `yaml:"id"`
	If   string            `yaml:"if"`
	Run  string            `yaml:"run"`
	Uses string            `yaml:"uses"`
	With map[string]string `yaml:"with"`
	Env  map[string]string `yaml:"env"`
}

// script returns the script a step runs from the action's checkout.
func (s actionStep) script() string {
	i := strings.Index(s.Run, "$GITHUB_ACTION_PATH/")
	if i < 0 {
		return ""
	}
	return strings.Trim(strings.Fields(s.Run[i+len("$GITHUB_ACTION_PATH/"):])[0], `"`)
}

// TestActionYAML checks that action.yml passes every input to the script
// that reads it, runs scripts that exist, installs a release first and
// only sets up Go, restores the build cache and builds when that installed
// nothing, keys the cache by the action's sources, and that the workflows
// use it.
func TestActionYAML(t *testing.T) {
	root := filepath.Join("..", "..")
	data, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct {
			Description string `yaml:"description"`
			Default     string `yaml:"default"`
		} `yaml:"inputs"`
		Runs struct {
			Using string       `yaml:"using"`
			Steps []actionStep `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	if action.Runs.Using != "composite" {
		t.Errorf("runs.using %q, want composite", action.Runs.Using)
	}
	steps := map[string]actionStep{} // by script or action
	var order []string
	for _, s := range action.Runs.Steps {
		key := s.script()
		if key == "" {
			key, _, _ = strings.Cut(s.Uses, "@")
		}
		steps[key] = s
		order = append(order, key)
	}
	want := []string{"scripts/action/release.sh", "actions/setup-go", "actions/cache", "scripts/action/install.sh", "scripts/action/run.sh"}
	if strings.Join(order, " ") != strings.Join(want, " ") {
		t.Fatalf("steps %v; want %v", order, want)
	}
	for _, k := range want {
		if strings.HasPrefix(k, "scripts/") {
			if _, err := os.Stat(filepath.Join(root, k)); err != nil {
				t.Errorf("action.yml runs %s: %v", k, err)
			}
		}
	}
	release := steps["scripts/action/release.sh"]
	if release.ID != "release" {
		t.Errorf("release.sh step id %q", release.ID)
	}
	for _, k := range []string{"actions/setup-go", "actions/cache", "scripts/action/install.sh"} {
		if steps[k].If != "steps.release.outputs.installed != 'true'" {
			t.Errorf("%s runs %q; want only when no release was installed", k, steps[k].If)
		}
	}
	cache, build := steps["actions/cache"], steps["scripts/action/install.sh"]
	if !strings.Contains(cache.With["key"], "steps.release.outputs.source-key") || cache.With["restore-keys"] == "" {
		t.Errorf("cache key %q, restore-keys %q: want the action's sources in the key", cache.With["key"], cache.With["restore-keys"])
	}
	for _, v := range []string{"GOCACHE", "GOMODCACHE"} {
		if !strings.HasPrefix(build.Env[v], cache.With["path"]+"/") {
			t.Errorf("build %s=%q is not below the cached path %q", v, build.Env[v], cache.With["path"])
		}
	}
	if steps["actions/setup-go"].With["cache"] != "false" {
		t.Errorf("setup-go caches too: the action caches the build itself")
	}
	reads := map[string]string{"version": "scripts/action/release.sh", "go-version": "actions/setup-go"}
	for name, in := range action.Inputs {
		if in.Description == "" {
			t.Errorf("input %s has no description", name)
		}
		if name == "go-version" {
			if !strings.Contains(steps["actions/setup-go"].With["go-version"], "inputs.go-version") {
				t.Errorf("go-version does not reach setup-go")
			}
			continue
		}
		script := reads[name]
		if script == "" {
			script = "scripts/action/run.sh"
		}
		v := "INPUT_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
		if steps[script].Env[v] != "${{ inputs."+name+" }}" {
			t.Errorf("input %s is not passed to %s as %s (env: %q)", name, script, v, steps[script].Env[v])
		}
		text, err := os.ReadFile(filepath.Join(root, script))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(text), v) {
			t.Errorf("%s does not read %s", script, v)
		}
	}
	if action.Inputs["format"].Default != "github" {
		t.Errorf("format defaults to %q, want github", action.Inputs["format"].Default)
	}
	for _, wf := range []string{"memcite.yml", "memcite-sarif.yml"} {
		b, err := os.ReadFile(filepath.Join(root, ".github", "workflows", wf))
		if err != nil {
			t.Fatal(err)
		}
		var w map[string]any
		if err := yaml.Unmarshal(b, &w); err != nil {
			t.Fatalf("%s: %v", wf, err)
		}
		if !strings.Contains(string(b), "uses: ./") {
			t.Errorf("%s does not run the action of this repository", wf)
		}
	}
}

// TestActionInstall runs the action's build step as the runner does.
func TestActionInstall(t *testing.T) {
	t.Parallel() // its own directories, servers and processes
	if testing.Short() {
		t.Skip("builds git-memcite")
	}
	longtest.Skip(t, "runs the Action's install steps")
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	ghPath := filepath.Join(tmp, "github_path")
	cmd := exec.Command("sh", filepath.Join(root, "scripts", "action", "install.sh"))
	cmd.Env = append(os.Environ(), "GITHUB_ACTION_PATH="+root, "RUNNER_TEMP="+tmp, "GITHUB_PATH="+ghPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("install.sh: %v\n%s", err, out)
	}
	b, err := os.ReadFile(ghPath)
	if err != nil {
		t.Fatal(err)
	}
	bin := strings.TrimSpace(string(b))
	if bin != filepath.Join(tmp, "git-memcite", "bin") {
		t.Errorf("GITHUB_PATH got %q", bin)
	}
	out, err := exec.Command(filepath.Join(bin, "git-memcite"), "--version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "git-memcite ") {
		t.Errorf("built binary: %v %s", err, out)
	}
}

// fakeRelease serves release archives of a stand-in git-memcite, as the
// release contract (scripts/action/release.sh) lays them out, and counts
// the requests.
type fakeRelease struct {
	dir      string
	requests atomic.Int64 // the server's goroutines count, the test reads
}

func (f *fakeRelease) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.requests.Add(1)
	http.FileServer(http.Dir(f.dir)).ServeHTTP(w, r)
}

// add writes the archive for os/arch of version, and returns its name
// and sha256.
func (f *fakeRelease) add(t *testing.T, version, goos, arch string) (string, string) {
	t.Helper()
	name := fmt.Sprintf("git-memcite_%s_%s_%s", version, goos, arch)
	exe, asset := "git-memcite", name+".tar.gz"
	if goos == "windows" {
		exe, asset = "git-memcite.exe", name+".zip"
	}
	prog := []byte("#!/bin/sh\necho 'git-memcite v" + version + " (release archive)'\n")
	var buf bytes.Buffer
	if goos == "windows" {
		zw := zip.NewWriter(&buf)
		h := &zip.FileHeader{Name: name + "/" + exe, Method: zip.Deflate}
		h.SetMode(0o755)
		fw, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(prog)
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	} else {
		gz := gzip.NewWriter(&buf)
		tw := tar.NewWriter(gz)
		tw.WriteHeader(&tar.Header{Name: name + "/", Typeflag: tar.TypeDir, Mode: 0o755})
		tw.WriteHeader(&tar.Header{Name: name + "/" + exe, Mode: 0o755, Size: int64(len(prog))})
		tw.Write(prog)
		if err := tw.Close(); err != nil {
			t.Fatal(err)
		}
		gz.Close()
	}
	dir := filepath.Join(f.dir, "v"+version)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, asset), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(buf.Bytes())
	return asset, hex.EncodeToString(sum[:])
}

// TestActionRelease runs the action's first step against a local server
// holding release archives: the archive for the runner is installed when
// its checksum matches, a mismatch fails the step, and anything else (no
// version asked for, no archive for the runner, no checksum) leaves the
// build to the next steps.
func TestActionRelease(t *testing.T) {
	t.Parallel() // its own directories, servers and processes
	longtest.Skip(t, "packs release archives and installs them")
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	rel := &fakeRelease{dir: t.TempDir()}
	var sums strings.Builder
	for _, p := range [][2]string{{"linux", "amd64"}, {"darwin", "arm64"}, {"windows", "amd64"}} {
		asset, sum := rel.add(t, "0.1.0", p[0], p[1])
		fmt.Fprintf(&sums, "%s  %s\n", sum, asset)
	}
	asset, _ := rel.add(t, "0.2.0", "linux", "amd64")
	os.WriteFile(filepath.Join(rel.dir, "v0.1.0", "SHA256SUMS"), []byte(sums.String()), 0o644)
	os.WriteFile(filepath.Join(rel.dir, "v0.2.0", "SHA256SUMS"), []byte(strings.Repeat("0", 64)+" *"+asset+"\n"), 0o644)
	rel.add(t, "0.3.0", "linux", "amd64") // no SHA256SUMS
	srv := httptest.NewServer(rel)
	defer srv.Close()

	tests := []struct {
		name    string
		env     []string
		fail    bool
		out     map[string]string // step outputs expected
		stdout  string
		fetches bool
	}{
		{name: "the release asked for", env: []string{"INPUT_VERSION=0.1.0", "RUNNER_OS=Linux", "RUNNER_ARCH=X64"},
			out: map[string]string{"installed": "true", "version": "0.1.0"}, stdout: "git-memcite v0.1.0 (release archive)", fetches: true},
		{name: "with a v", env: []string{"INPUT_VERSION=v0.1.0", "RUNNER_OS=macOS", "RUNNER_ARCH=ARM64"},
			out: map[string]string{"installed": "true"}, stdout: "installed git-memcite_0.1.0_darwin_arm64.tar.gz", fetches: true},
		{name: "the action's own release", env: []string{"ACTION_REF=v0.1.0", "RUNNER_OS=Linux", "RUNNER_ARCH=X64"},
			out: map[string]string{"installed": "true", "version": "0.1.0"}, fetches: true},
		{name: "windows zip", env: []string{"INPUT_VERSION=0.1.0", "RUNNER_OS=Windows", "RUNNER_ARCH=X64"},
			out: map[string]string{"installed": "true"}, stdout: "installed git-memcite_0.1.0_windows_amd64.zip", fetches: true},
		{name: "the action at a branch", env: []string{"ACTION_REF=main", "RUNNER_OS=Linux", "RUNNER_ARCH=X64"},
			out: map[string]string{"installed": "false", "module-version": ""}, stdout: "building git-memcite from source"},
		{name: "no archive for the runner, another release", env: []string{"INPUT_VERSION=0.1.0", "RUNNER_OS=Linux", "RUNNER_ARCH=ARM64"},
			out: map[string]string{"installed": "false", "module-version": "v0.1.0"}, stdout: "no git-memcite 0.1.0 release archive for linux/arm64", fetches: true},
		{name: "no archive for the runner, the action's own", env: []string{"ACTION_REF=v0.1.0", "RUNNER_OS=Linux", "RUNNER_ARCH=ARM64"},
			out: map[string]string{"installed": "false", "module-version": ""}, fetches: true},
		{name: "an unknown architecture", env: []string{"INPUT_VERSION=0.1.0", "RUNNER_OS=Linux", "RUNNER_ARCH=X86"},
			out: map[string]string{"installed": "false"}, stdout: "no release archive for X86"},
		{name: "checksum mismatch", env: []string{"INPUT_VERSION=0.2.0", "RUNNER_OS=Linux", "RUNNER_ARCH=X64"}, fail: true,
			out: map[string]string{"installed": ""}, stdout: "::error title=git-memcite::git-memcite_0.2.0_linux_amd64.tar.gz does not match SHA256SUMS", fetches: true},
		{name: "no checksums", env: []string{"INPUT_VERSION=0.3.0", "RUNNER_OS=Linux", "RUNNER_ARCH=X64"},
			out: map[string]string{"installed": "false"}, stdout: "::warning title=git-memcite::release 0.3.0 has no SHA256SUMS", fetches: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if strings.Contains(tc.name, "windows") {
				if _, err := exec.LookPath("unzip"); err != nil {
					if os.Getenv("CI") == "true" {
						t.Fatal("no unzip (scripts/ci-deps.sh installs it)")
					}
					t.Skip("no unzip")
				}
			}
			tmp := t.TempDir()
			ghPath, ghOut := filepath.Join(tmp, "github_path"), filepath.Join(tmp, "github_output")
			cmd := exec.Command("bash", filepath.Join(root, "scripts", "action", "release.sh"))
			for _, kv := range os.Environ() {
				k, _, _ := strings.Cut(kv, "=")
				if !strings.HasPrefix(k, "RUNNER_") && !strings.HasPrefix(k, "GITHUB_") && k != "INPUT_VERSION" && k != "ACTION_REF" {
					cmd.Env = append(cmd.Env, kv)
				}
			}
			cmd.Env = append(cmd.Env, "GITHUB_ACTION_PATH="+root, "RUNNER_TEMP="+tmp, "GITHUB_PATH="+ghPath, "GITHUB_OUTPUT="+ghOut,
				"MEMCITE_RELEASE_URL="+srv.URL)
			cmd.Env = append(cmd.Env, tc.env...)
			before := rel.requests.Load()
			out, err := cmd.CombinedOutput()
			if (err != nil) != tc.fail {
				t.Fatalf("release.sh: %v (want failure: %v)\n%s", err, tc.fail, out)
			}
			if !strings.Contains(string(out), tc.stdout) {
				t.Errorf("output lacks %q:\n%s", tc.stdout, out)
			}
			if n := rel.requests.Load() - before; (n > 0) != tc.fetches {
				t.Errorf("%d requests", n)
			}
			b, _ := os.ReadFile(ghOut)
			got := map[string]string{}
			for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				k, v, _ := strings.Cut(l, "=")
				got[k] = v
			}
			if len(got["source-key"]) != 64 {
				t.Errorf("source-key %q", got["source-key"])
			}
			for k, v := range tc.out {
				if got[k] != v {
					t.Errorf("output %s=%q; want %q (all: %v)", k, got[k], v, got)
				}
			}
			p, _ := os.ReadFile(ghPath)
			if installed := got["installed"] == "true"; installed != (len(p) > 0) {
				t.Errorf("GITHUB_PATH %q with installed=%s", p, got["installed"])
			}
			if got["installed"] == "true" {
				exe := "git-memcite"
				if strings.Contains(tc.name, "windows") {
					exe += ".exe"
				}
				v, err := exec.Command(filepath.Join(strings.TrimSpace(string(p)), exe), "--version").Output()
				if err != nil || !strings.HasPrefix(string(v), "git-memcite v0.1.0") {
					t.Errorf("installed binary: %v %q", err, v)
				}
			}
		})
	}
}
