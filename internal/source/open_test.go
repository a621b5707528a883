package source

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestOpenSameFile runs the open that stands in for O_NOFOLLOW on Windows
// (Lstat, open, same-file check) on this platform's files.
func TestOpenSameFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	file := write("a.txt", "inside\n")
	outside := write("outside.txt", "outside\n")
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(outside, link); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}

	f, err := openSameFile(file)
	if err != nil {
		t.Fatalf("regular file: %v", err)
	}
	b, _ := io.ReadAll(f)
	f.Close()
	if string(b) != "inside\n" {
		t.Fatalf("read %q", b)
	}
	if _, err := openSameFile(link); !errors.Is(err, errSlowPath) {
		t.Errorf("symlink: err = %v, want errSlowPath", err)
	}
	if _, err := openSameFile(dir); !errors.Is(err, errSlowPath) {
		t.Errorf("directory: err = %v, want errSlowPath", err)
	}
	if _, err := openSameFile(filepath.Join(dir, "none")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: err = %v, want ErrNotExist", err)
	}

	// a symlink swapped in between Lstat and open is noticed
	swapped := write("swap.txt", "inside\n")
	afterLstat = func(name string) {
		if name != swapped {
			return
		}
		if err := os.Remove(name); err != nil {
			t.Error(err)
		}
		if err := os.Symlink(outside, name); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(func() { afterLstat = func(string) {} })
	if f, err := openSameFile(swapped); !errors.Is(err, errSlowPath) {
		if f != nil {
			b, _ := io.ReadAll(f)
			f.Close()
			t.Fatalf("opened the swapped-in link, read %q", b)
		}
		t.Fatalf("swapped file: err = %v, want errSlowPath", err)
	}
}

// TestWorktreeOpenSameFile: the worktree reads through openSameFile as it
// does on Windows: links leaving the root are refused, links inside are
// followed.
func TestWorktreeOpenSameFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("openNoFollow is openSameFile here already")
	}
	root := t.TempDir()
	outside := t.TempDir()
	for p, content := range map[string]string{
		filepath.Join(root, "src", "a.go"):   "package a\n",
		filepath.Join(outside, "secret.txt"): "secret\n",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "out.txt")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	if err := os.Symlink("src/a.go", filepath.Join(root, "in.go")); err != nil {
		t.Fatal(err)
	}
	w, err := NewWorktree(root)
	if err != nil {
		t.Fatal(err)
	}
	w.noFollow = openSameFile
	for _, tc := range []struct {
		path, want string
		err        error
	}{
		{"src/a.go", "package a\n", nil},
		{"in.go", "package a\n", nil},
		{"out.txt", "", ErrOutside},
		{"src", "", ErrIsDir},
		{"none.go", "", fs.ErrNotExist},
	} {
		b, err := w.ReadFile(tc.path)
		if !errors.Is(err, tc.err) || string(b) != tc.want {
			t.Errorf("ReadFile(%s) = %q, %v; want %q, %v", tc.path, b, err, tc.want, tc.err)
		}
	}
}

func TestTrimLongPrefix(t *testing.T) {
	for in, want := range map[string]string{
		`\\?\C:\repo\a.go`:               `C:\repo\a.go`,
		`\\?\c:\repo`:                    `c:\repo`,
		`\\?\UNC\server\share\repo`:      `\\server\share\repo`,
		`\\?\unc\server\share`:           `\\server\share`,
		`\\?\Volume{1b3b1146-4076}\repo`: `\\?\Volume{1b3b1146-4076}\repo`,
		`C:\repo`:                        `C:\repo`,
		`/home/user/repo`:                `/home/user/repo`,
		`\\server\share`:                 `\\server\share`,
		`\\?\`:                           `\\?\`,
	} {
		if got := trimLongPrefix(in); got != want {
			t.Errorf("trimLongPrefix(%q) = %q, want %q", in, got, want)
		}
	}
}
