package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestLicense: the repository carries the MIT licence, README names it,
// and scripts/release.sh puts it into every archive unconditionally.
func TestLicense(t *testing.T) {
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "MIT License\n") || !strings.Contains(string(b), "Permission is hereby granted, free of charge") {
		t.Errorf("LICENSE is not the MIT licence:\n%s", b)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "[MIT licence](LICENSE)") {
		t.Error("README.md does not name the licence: [MIT licence](LICENSE)")
	}
	rel, err := os.ReadFile(filepath.Join(root, "scripts", "release.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(rel), "\ncp LICENSE \"$work/extra/\"\n") {
		t.Error("scripts/release.sh does not copy LICENSE into every archive")
	}
}

// TestReleaseRefusesUntagged: scripts/release.sh builds only from a commit
// tagged with the version it is given, unless --force.
func TestReleaseRefusesUntagged(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("release.sh runs under bash")
	}
	needTools(t, "bash", "git")
	src, err := os.ReadFile(filepath.Join("..", "..", "scripts", "release.sh"))
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	if err := os.MkdirAll(filepath.Join(repo, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "scripts", "release.sh"), src, 0o755); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "release script")
	release := func(args ...string) (string, int) {
		cmd := exec.Command("bash", append([]string{filepath.Join(repo, "scripts", "release.sh"), "--out", t.TempDir()}, args...)...)
		cmd.Env = append(os.Environ(), "PATH=/nonexistent-go:"+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return string(out), code
	}
	const refusal = "is not tagged v0.0.1"
	if out, code := release("v0.0.1"); code != 2 || !strings.Contains(out, refusal) {
		t.Errorf("untagged HEAD: exit %d, output:\n%s", code, out)
	}
	git("tag", "v0.0.2")
	if out, code := release("v0.0.1"); code != 2 || !strings.Contains(out, refusal) {
		t.Errorf("HEAD tagged with another version: exit %d, output:\n%s", code, out)
	}
	if out, _ := release("--force", "v0.0.1"); strings.Contains(out, refusal) {
		t.Errorf("--force still refused:\n%s", out)
	}
	git("tag", "v0.0.1")
	if out, _ := release("0.0.1"); strings.Contains(out, refusal) {
		t.Errorf("HEAD tagged v0.0.1 refused:\n%s", out)
	}
}

// TestInstallArchiveSource: install.sh takes an archive directory as a
// file:// URL, and an archive it was told to use but cannot read stops it
// (exit 1, nothing installed) instead of a build from source.
func TestInstallArchiveSource(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("install.sh runs under a Unix sh here")
	}
	needTools(t, "sh", "tar", "gzip")
	if _, err := exec.LookPath("sha256sum"); err != nil {
		needTools(t, "shasum")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	osName := runtime.GOOS
	name := "git-memcite_0.0.1_" + osName + "_" + runtime.GOARCH
	dist := t.TempDir()
	// a stand-in archive: a shell script as the binary, the files install.sh copies
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, f := range []struct {
		path, body string
		mode       int64
	}{
		{"git-memcite", "#!/bin/sh\necho 'git-memcite 0.0.1 (stand-in)'\n", 0o755},
		{"git-memcite.1", ".TH GIT-MEMCITE 1\n", 0o644},
		{"completions/git-memcite.bash", "# bash\n", 0o644},
	} {
		if err := tw.WriteHeader(&tar.Header{Name: name + "/" + f.path, Mode: f.mode, Size: int64(len(f.body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(f.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	archive := name + ".tar.gz"
	if err := os.WriteFile(filepath.Join(dist, archive), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(buf.Bytes())
	if err := os.WriteFile(filepath.Join(dist, "SHA256SUMS"), []byte(hex.EncodeToString(sum[:])+"  "+archive+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	noGo := t.TempDir()
	if err := os.WriteFile(filepath.Join(noGo, "go"), []byte("#!/bin/sh\necho 'go must not run' >&2\nexit 99\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	install := func(args ...string) (string, string, error) {
		prefix := t.TempDir()
		cmd := exec.Command("sh", append([]string{filepath.Join(root, "install.sh"), "--prefix", prefix}, args...)...)
		cmd.Env = append(os.Environ(), "PATH="+noGo+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		return prefix, string(out), err
	}
	for _, src := range []string{"file://" + dist + "/", "file://" + filepath.Join(dist, archive), "file://localhost" + dist + "/"} {
		prefix, out, err := install("--version", "v0.0.1", "--archive", src)
		if err != nil || !strings.Contains(out, "checksum ok: ") {
			t.Errorf("--archive %s: %v\n%s", src, err, out)
			continue
		}
		if _, err := os.Stat(filepath.Join(prefix, "bin", "git-memcite")); err != nil {
			t.Errorf("--archive %s: %v\n%s", src, err, out)
		}
	}
	for _, src := range []string{"file://" + filepath.Join(t.TempDir(), archive), filepath.Join(t.TempDir(), archive), "file://" + t.TempDir() + "/"} {
		prefix, out, err := install("--version", "v0.0.1", "--archive", src)
		if err == nil || !strings.Contains(out, "cannot get ") || strings.Contains(out, "go must not run") || strings.Contains(out, "building") {
			t.Errorf("--archive %s that cannot be read: err %v, output:\n%s", src, err, out)
		}
		if _, err := os.Stat(filepath.Join(prefix, "bin", "git-memcite")); err == nil {
			t.Errorf("--archive %s that cannot be read: a binary was installed", src)
		}
	}
}
