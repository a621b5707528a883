package memfile

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var writeSteps = []string{"create", "write", "sync", "chmod", "close", "rename"}

func init() {
	// A re-executed test binary with MEMCITE_CRASH_AT set writes one file and
	// dies at that step, the way a killed process would (no cleanup).
	if step := os.Getenv("MEMCITE_CRASH_AT"); step != "" {
		fault = func(s string) error {
			if s == step {
				os.Exit(137)
			}
			return nil
		}
		err := WriteFileVia(os.Getenv("MEMCITE_CRASH_TMPDIR"), os.Getenv("MEMCITE_CRASH_FILE"), []byte(oldContent), []byte(newContent))
		if err != nil {
			os.Exit(3)
		}
		os.Exit(0)
	}
}

const (
	oldContent = "---\nid: m\ncitations:\n  - path: a.go\n    line: 3\n---\nbody\n"
	newContent = "---\nid: m\ncitations:\n  - path: a.go\n    line: 4\n---\nbody\n"
)

func TestWriteFileCrashAtEveryStep(t *testing.T) {
	for _, step := range writeSteps {
		t.Run(step, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "m.md")
			if err := os.WriteFile(p, []byte(oldContent), 0o640); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "MEMCITE_CRASH_AT="+step, "MEMCITE_CRASH_FILE="+p)
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 137 {
				t.Fatalf("the writer did not crash at %s: %v", step, err)
			}
			got, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != oldContent && string(got) != newContent {
				t.Fatalf("after a crash at %s the file is neither old nor new: %q", step, got)
			}
			fi, _ := os.Stat(p)
			if fi.Mode().Perm() != 0o640 {
				t.Errorf("mode %v, want 0640", fi.Mode().Perm())
			}
		})
	}
}

func TestWriteFileErrorAtEveryStep(t *testing.T) {
	defer func() { fault = func(string) error { return nil } }()
	for _, step := range writeSteps {
		t.Run(step, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "m.md")
			if err := os.WriteFile(p, []byte(oldContent), 0o600); err != nil {
				t.Fatal(err)
			}
			injected := errors.New("no space left on device (injected)")
			fault = func(s string) error {
				if s == step {
					return injected
				}
				return nil
			}
			err := WriteFile(p, []byte(oldContent), []byte(newContent))
			fault = func(string) error { return nil }
			if !errors.Is(err, injected) || !strings.Contains(err.Error(), p) {
				t.Fatalf("err = %v", err)
			}
			got, _ := os.ReadFile(p)
			if string(got) != oldContent {
				t.Fatalf("file changed after a failed write: %q", got)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Fatalf("temporary files left behind: %v", entries)
			}
		})
	}
}

func TestWriteFileRefusals(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.md")
	if err := os.WriteFile(p, []byte(oldContent), 0o644); err != nil {
		t.Fatal(err)
	}
	// changed on disk since it was read
	if err := WriteFile(p, []byte("something else"), []byte(newContent)); !errors.Is(err, ErrChanged) {
		t.Fatalf("err = %v, want ErrChanged", err)
	}
	// a read-only directory
	if os.Geteuid() != 0 { // root ignores directory permissions
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(dir, 0o755)
		if err := WriteFile(p, []byte(oldContent), []byte(newContent)); err == nil {
			t.Fatal("write into a read-only directory succeeded")
		}
	}
	got, _ := os.ReadFile(p)
	if !bytes.Equal(got, []byte(oldContent)) {
		t.Fatalf("file changed: %q", got)
	}
	// a symlink is not replaced
	link := filepath.Join(dir, "link.md")
	if err := os.Symlink(p, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte(oldContent), []byte(newContent)); err == nil {
		t.Fatal("wrote through a symlink")
	}
}

// TestWriteFileViaCrashLeavesNothingBeside: killed at any step, a write
// whose temporary directory is inside .git leaves nothing beside the memory
// file (nothing `git add -A` would stage); the next write removes what a
// write without one left there.
func TestWriteFileViaCrashLeavesNothingBeside(t *testing.T) {
	for _, step := range writeSteps {
		t.Run(step, func(t *testing.T) {
			dir := t.TempDir()
			tmpDir := filepath.Join(dir, ".git", "memcite-tmp")
			p := filepath.Join(dir, "m.md")
			if err := os.WriteFile(p, []byte(oldContent), 0o640); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "MEMCITE_CRASH_AT="+step, "MEMCITE_CRASH_FILE="+p, "MEMCITE_CRASH_TMPDIR="+tmpDir)
			var ee *exec.ExitError
			if err := cmd.Run(); !errors.As(err, &ee) || ee.ExitCode() != 137 {
				t.Fatalf("the writer did not crash at %s: %v", step, err)
			}
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if e.Name() != "m.md" && e.Name() != ".git" {
					t.Errorf("left beside the memory file: %s", e.Name())
				}
			}
		})
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "m.md")
	os.WriteFile(p, []byte(oldContent), 0o644)
	for _, n := range []string{".m.md.memcite-123", ".m.md.memcite-9", ".other.md.memcite-1", "keep.md.memcite-1"} {
		os.WriteFile(filepath.Join(dir, n), []byte("partial"), 0o600)
	}
	if err := WriteFileVia(filepath.Join(dir, ".git", "memcite-tmp"), p, []byte(oldContent), []byte(newContent)); err != nil {
		t.Fatal(err)
	}
	var left []string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		left = append(left, e.Name())
	}
	if got := strings.Join(left, " "); got != ".git .other.md.memcite-1 keep.md.memcite-1 m.md" {
		t.Errorf("after the write: %s", got)
	}
}

func TestIsTemporary(t *testing.T) {
	for name, want := range map[string]bool{
		".m.md.memcite-123":       true,
		".a.b.md.memcite-1":       true,
		".m.md.memcite-":          false,
		".m.md.memcite-12x":       false,
		"m.md.memcite-1":          false,
		".memcite-1":              false,
		"m.md":                    false,
		".m.md.memcite-prev":      false,
		".x.memcite-1.memcite-22": true,
	} {
		if got := IsTemporary(name); got != want {
			t.Errorf("IsTemporary(%q) = %v, want %v", name, got, want)
		}
	}
}
