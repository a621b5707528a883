package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/testing/longtest"
)

// needTools skips the test when a tool is missing, and fails it on CI
// (CI set), where scripts/ci-deps.sh installs them.
func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed (scripts/ci-deps.sh installs it)", tool)
			}
			t.Skipf("%s is not installed", tool)
		}
	}
}

// TestReleaseArchives builds release archives with scripts/release.sh (for
// this machine and for windows/arm64), checks the archive contract of
// docs/platforms.md, then installs the one for this machine with
// install.sh: checksum verified, a wrong or missing checksum refused, an
// archive that cannot be had falling back to a build from source.
func TestReleaseArchives(t *testing.T) {
	t.Parallel() // its own directories, servers and processes
	if testing.Short() {
		t.Skip("builds git-memcite twice")
	}
	longtest.Skip(t, "builds release archives for every platform")
	if runtime.GOOS == "windows" {
		t.Skip("release.sh and install.sh run under a Unix sh here")
	}
	needTools(t, "go", "git", "sh", "tar", "gzip", "zip", "sha256sum")
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	const version = "0.0.1"
	dist := t.TempDir()
	host := runtime.GOOS + "_" + runtime.GOARCH
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "release.sh"), "--force", "--out", dist,
		"--targets", runtime.GOOS+"/"+runtime.GOARCH+" windows/arm64", "v"+version)
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("release.sh: %v\n%s", err, out)
	}
	hostArchive := "git-memcite_" + version + "_" + host + ".tar.gz"
	winArchive := "git-memcite_" + version + "_windows_arm64.zip"
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}

	t.Run("archive contract", func(t *testing.T) {
		entries, err := os.ReadDir(dist)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if want := []string{"SHA256SUMS", hostArchive, winArchive}; !slices.Equal(names, want) {
			t.Fatalf("dist holds %v, want %v", names, want)
		}
		sums, err := os.ReadFile(filepath.Join(dist, "SHA256SUMS"))
		if err != nil {
			t.Fatal(err)
		}
		var wantSums strings.Builder
		for _, a := range []string{hostArchive, winArchive} {
			b, err := os.ReadFile(filepath.Join(dist, a))
			if err != nil {
				t.Fatal(err)
			}
			h := sha256.Sum256(b)
			fmt.Fprintf(&wantSums, "%s  %s\n", hex.EncodeToString(h[:]), a)
		}
		if string(sums) != wantSums.String() {
			t.Errorf("SHA256SUMS:\n%s\nwant (sha256sum format):\n%s", sums, wantSums.String())
		}
		dir := "git-memcite_" + version + "_"
		common := []string{"LICENSE", "README.md", "completions/_git-memcite", "completions/git-memcite.bash", "completions/git-memcite.fish", "git-memcite.1"}
		got, bin := tarFiles(t, filepath.Join(dist, hostArchive))
		if want := withDir(dir+host, append(common, "git-memcite")); !slices.Equal(got, want) {
			t.Errorf("%s holds %v, want %v", hostArchive, got, want)
		}
		if got := zipFiles(t, filepath.Join(dist, winArchive)); !slices.Equal(got, withDir(dir+"windows_arm64", append(common, "git-memcite.exe"))) {
			t.Errorf("%s holds %v", winArchive, got)
		}
		exe := filepath.Join(t.TempDir(), "git-memcite")
		if err := os.WriteFile(exe, bin, 0o755); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(exe, "--version").Output()
		want := fmt.Sprintf("git-memcite %s (commit %s, ", version, strings.TrimSpace(string(head))[:12])
		if err != nil || !strings.HasPrefix(string(out), want) {
			t.Errorf("--version: %q, %v; want %q…", out, err, want)
		}
	})

	// install runs install.sh with a go that fails, so that nothing is
	// built from source unless the test wants it.
	noGo := t.TempDir()
	if err := os.WriteFile(filepath.Join(noGo, "go"), []byte("#!/bin/sh\necho 'go must not run' >&2\nexit 99\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	install := func(t *testing.T, args ...string) (string, string, error) {
		t.Helper()
		prefix := t.TempDir()
		cmd := exec.Command("sh", append([]string{filepath.Join(root, "install.sh"), "--prefix", prefix}, args...)...)
		cmd.Env = append(os.Environ(), "PATH="+noGo+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		return prefix, string(out), err
	}
	installed := func(t *testing.T, prefix, out string) {
		t.Helper()
		for _, p := range []string{"bin/git-memcite", "share/man/man1/git-memcite.1", "share/bash-completion/completions/git-memcite"} {
			if _, err := os.Stat(filepath.Join(prefix, p)); err != nil {
				t.Errorf("not installed: %v\n%s", err, out)
			}
		}
		out2, err := exec.Command(filepath.Join(prefix, "bin", "git-memcite"), "--version").Output()
		if err != nil || !strings.HasPrefix(string(out2), "git-memcite "+version+" ") {
			t.Errorf("installed --version: %q, %v", out2, err)
		}
	}
	notInstalled := func(t *testing.T, prefix string) {
		t.Helper()
		if _, err := os.Stat(filepath.Join(prefix, "bin", "git-memcite")); err == nil {
			t.Error("a binary was installed")
		}
	}

	t.Run("archive by path, checksum verified", func(t *testing.T) {
		prefix, out, err := install(t, "--version", "v"+version, "--archive", filepath.Join(dist, hostArchive))
		if err != nil {
			t.Fatalf("install.sh: %v\n%s", err, out)
		}
		if !strings.Contains(out, "checksum ok: ") || strings.Contains(out, "go must not run") {
			t.Errorf("output:\n%s", out)
		}
		installed(t, prefix, out)
	})
	t.Run("archive picked from a directory URL", func(t *testing.T) {
		if _, err := exec.LookPath("curl"); err != nil {
			needTools(t, "wget")
		}
		srv := httptest.NewServer(http.FileServer(http.Dir(dist)))
		defer srv.Close()
		prefix, out, err := install(t, "--version", version, "--archive", srv.URL+"/")
		if err != nil {
			t.Fatalf("install.sh: %v\n%s", err, out)
		}
		installed(t, prefix, out)
	})
	t.Run("wrong checksum refused", func(t *testing.T) {
		bad := t.TempDir()
		copyFile(t, filepath.Join(dist, hostArchive), filepath.Join(bad, hostArchive))
		wrong := strings.Repeat("0", 64) + "  " + hostArchive + "\n"
		if err := os.WriteFile(filepath.Join(bad, "SHA256SUMS"), []byte(wrong), 0o644); err != nil {
			t.Fatal(err)
		}
		prefix, out, err := install(t, "--archive", filepath.Join(bad, hostArchive))
		if err == nil || !strings.Contains(out, "checksum mismatch for "+hostArchive) || !strings.Contains(out, "not installed") {
			t.Fatalf("err %v, output:\n%s", err, out)
		}
		notInstalled(t, prefix)
	})
	t.Run("archive missing from SHA256SUMS refused", func(t *testing.T) {
		bad := t.TempDir()
		copyFile(t, filepath.Join(dist, hostArchive), filepath.Join(bad, hostArchive))
		if err := os.WriteFile(filepath.Join(bad, "SHA256SUMS"), []byte{}, 0o644); err != nil {
			t.Fatal(err)
		}
		prefix, out, err := install(t, "--archive", filepath.Join(bad, hostArchive))
		if err == nil || !strings.Contains(out, "is not listed in") {
			t.Fatalf("err %v, output:\n%s", err, out)
		}
		notInstalled(t, prefix)
	})
	t.Run("another version refused", func(t *testing.T) {
		prefix, out, err := install(t, "--version", "v0.0.2", "--archive", filepath.Join(dist, hostArchive))
		if err == nil || !strings.Contains(out, "is version 0.0.1, not 0.0.2") {
			t.Fatalf("err %v, output:\n%s", err, out)
		}
		notInstalled(t, prefix)
	})
	t.Run("an archive that cannot be had: stops, builds nothing", func(t *testing.T) {
		prefix, out, err := install(t, "--version", "v"+version, "--archive", filepath.Join(t.TempDir(), hostArchive))
		if err == nil || !strings.Contains(out, "cannot get ") || strings.Contains(out, "go must not run") {
			t.Fatalf("err %v, output:\n%s", err, out)
		}
		notInstalled(t, prefix)
	})
}

func withDir(dir string, files []string) []string {
	var out []string
	for _, f := range files {
		out = append(out, dir+"/"+f)
	}
	slices.Sort(out)
	return out
}

// tarFiles lists the regular files of a .tar.gz and returns the content of
// the one named git-memcite, checking it is executable.
func tarFiles(t *testing.T, p string) ([]string, []byte) {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var names []string
	var bin []byte
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		names = append(names, h.Name)
		if filepath.Base(h.Name) == "git-memcite" {
			if h.Mode&0o111 == 0 {
				t.Errorf("%s: mode %o, not executable", h.Name, h.Mode)
			}
			if bin, err = io.ReadAll(tr); err != nil {
				t.Fatal(err)
			}
		}
	}
	slices.Sort(names)
	return names, bin
}

func zipFiles(t *testing.T, p string) []string {
	t.Helper()
	zr, err := zip.OpenReader(p)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var names []string
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, "/") {
			names = append(names, f.Name)
		}
	}
	slices.Sort(names)
	return names
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
