package source

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// tree writes files (content by slash path) below dir.
func tree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// confined builds a working tree with an entry for every confinement rule:
// links that stay inside, links that leave (absolute, relative, through a
// directory, dangling), links into .git, loops, a FIFO, directories and a
// nested repository. It returns the root and whether a FIFO was made.
func confined(t *testing.T) (root string, fifo bool) {
	t.Helper()
	root, outside := t.TempDir(), t.TempDir()
	tree(t, root, map[string]string{
		"src/a.go":         "package a\n",
		"d/x.go":           "package d\n",
		".git/config":      "[core]\n",
		".git/HEAD":        "ref: refs/heads/main\n",
		"sub/.git/HEAD":    "ref: refs/heads/main\n",
		"sub/.GIT/x":       "upper\n",
		"sub/s.go":         "package sub\n",
		"notes/.hidden.md": "hidden\n",
	})
	tree(t, outside, map[string]string{"secret.txt": "secret\n", "dir/s.txt": "secret\n"})
	links := map[string]string{
		"in.go":        "src/a.go",
		"in-abs.go":    filepath.Join(root, "src", "a.go"),
		"src/up.go":    "../d/x.go",
		"srclink":      "src",
		"out-abs.txt":  filepath.Join(outside, "secret.txt"),
		"out-rel.txt":  filepath.Join("..", filepath.Base(outside), "secret.txt"),
		"outdir":       filepath.Join(outside, "dir"),
		"dangling-out": filepath.Join(outside, "none.txt"),
		"dangling-in":  "none.go",
		"gitlink":      ".git/config",
		"gitdir":       ".git",
		"loop1":        "loop2",
		"loop2":        "loop1",
		"self":         "self",
		"loopdir":      "loopdir/x",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Skipf("no symlinks here: %v", err)
		}
	}
	fifo = mkfifo(filepath.Join(root, "fifo")) == nil
	return root, fifo
}

// TestWorktreeConfinement: every way out of the repository, into .git or
// into something that is not a regular file fails with its own error, on
// Stat, Open and ReadFile alike; links that stay inside are followed.
func TestWorktreeConfinement(t *testing.T) {
	root, fifo := confined(t)
	w, err := NewWorktree(root)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path    string
		content string // ReadFile's content when it succeeds
		kind    Kind   // Stat's kind when it succeeds
		statErr error  // Stat's error (nil: succeeds)
		openErr error  // Open's error (nil: succeeds)
	}{
		{"src/a.go", "package a\n", KindFile, nil, nil},
		{"./src//a.go", "package a\n", KindFile, nil, nil},
		{"d/../src/a.go", "package a\n", KindFile, nil, nil},
		{"in.go", "package a\n", KindFile, nil, nil},
		{"in-abs.go", "package a\n", KindFile, nil, nil}, // an absolute link inside the root
		{"src/up.go", "package d\n", KindFile, nil, nil},
		{"srclink/a.go", "package a\n", KindFile, nil, nil},
		{"sub/s.go", "package sub\n", KindFile, nil, nil},
		{"src", "", KindDir, nil, ErrIsDir},
		{"srclink", "", KindDir, nil, ErrIsDir},
		{".", "", KindDir, nil, ErrIsDir},
		{"none.go", "", 0, fs.ErrNotExist, fs.ErrNotExist},
		{"dangling-in", "", 0, fs.ErrNotExist, fs.ErrNotExist},
		{"src/none/x.go", "", 0, fs.ErrNotExist, fs.ErrNotExist},
		// leaving the repository
		{"../x.go", "", 0, ErrOutside, ErrOutside},
		{"src/../../x.go", "", 0, ErrOutside, ErrOutside},
		{"/etc/passwd", "", 0, ErrOutside, ErrOutside},
		{"~/x", "", 0, ErrOutside, ErrOutside},
		{"C:/x", "", 0, ErrOutside, ErrOutside},
		{"//server/share/x", "", 0, ErrOutside, ErrOutside},
		{`src\a.go`, "", 0, ErrOutside, ErrOutside},
		{"src/a.go\x00", "", 0, ErrOutside, ErrOutside},
		{"out-abs.txt", "", 0, ErrOutside, ErrOutside},
		{"out-rel.txt", "", 0, ErrOutside, ErrOutside},
		{"outdir", "", 0, ErrOutside, ErrOutside},
		{"outdir/s.txt", "", 0, ErrOutside, ErrOutside},
		{"dangling-out", "", 0, ErrOutside, ErrOutside},
		// into .git, in any case, at any depth, through links too
		{".git/config", "", 0, ErrOutside, ErrOutside},
		{".GIT/config", "", 0, ErrOutside, ErrOutside},
		{"sub/.git/HEAD", "", 0, ErrOutside, ErrOutside},
		{"sub/.GIT/x", "", 0, ErrOutside, ErrOutside},
		{"gitlink", "", 0, ErrOutside, ErrOutside},
		{"gitdir/HEAD", "", 0, ErrOutside, ErrOutside},
		// loops
		{"loop1", "", 0, ErrSymlinkLoop, ErrSymlinkLoop},
		{"self", "", 0, ErrSymlinkLoop, ErrSymlinkLoop},
		{"loopdir/a.go", "", 0, ErrSymlinkLoop, ErrSymlinkLoop},
		{"", "", 0, ErrEmptyPath, ErrEmptyPath},
	}
	if fifo {
		tests = append(tests, struct {
			path    string
			content string
			kind    Kind
			statErr error
			openErr error
		}{"fifo", "", KindOther, nil, ErrNotRegular})
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			e, err := w.Stat(tt.path)
			if !errors.Is(err, tt.statErr) || (err == nil) != (tt.statErr == nil) {
				t.Errorf("Stat: %v, want %v", err, tt.statErr)
			}
			if err == nil && e.Kind != tt.kind {
				t.Errorf("Stat: kind %d, want %d", e.Kind, tt.kind)
			}
			b, err := w.ReadFile(tt.path)
			if !errors.Is(err, tt.openErr) || (err == nil) != (tt.openErr == nil) {
				t.Errorf("ReadFile: %q, %v; want %v", b, err, tt.openErr)
			}
			if err == nil && string(b) != tt.content {
				t.Errorf("ReadFile: %q, want %q", b, tt.content)
			}
		})
	}
}

// TestWorktreeList: List walks regular files and links (checked when
// read), never .git (at any depth) or a FIFO, and refuses a directory
// outside the repository.
func TestWorktreeList(t *testing.T) {
	root, _ := confined(t)
	w, err := NewWorktree(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := w.List("")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"d/x.go", "dangling-in", "dangling-out", "gitdir", "gitlink", "in-abs.go", "in.go",
		"loop1", "loop2", "loopdir", "notes/.hidden.md", "out-abs.txt", "out-rel.txt", "outdir",
		"self", "src/a.go", "src/up.go", "srclink", "sub/.GIT/x", "sub/s.go",
	}
	if !slices.Equal(got, want) {
		t.Errorf("List(\"\") = %q\nwant %q", got, want)
	}
	if got, err := w.List("srclink"); err != nil || !slices.Equal(got, []string{"srclink/a.go", "srclink/up.go"}) {
		t.Errorf("List(srclink) = %q, %v", got, err)
	}
	for _, dir := range []string{"outdir", "../", ".git", "sub/.git"} {
		if got, err := w.List(dir); !errors.Is(err, ErrOutside) {
			t.Errorf("List(%s) = %q, %v; want ErrOutside", dir, got, err)
		}
	}
	if _, err := w.List("none"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("List(none): %v, want ErrNotExist", err)
	}
}

// TestWorktreeRootIsLink: a root reached through a symlink is resolved,
// and links into it by its real path are inside.
func TestWorktreeRootIsLink(t *testing.T) {
	real := t.TempDir()
	tree(t, real, map[string]string{"a.go": "package a\n"})
	link := filepath.Join(t.TempDir(), "repo")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	w, err := NewWorktree(link)
	if err != nil {
		t.Fatal(err)
	}
	want, err := filepath.EvalSymlinks(real)
	if err != nil {
		t.Fatal(err)
	}
	if w.Root() != want {
		t.Errorf("Root() = %s, want %s", w.Root(), want)
	}
	if b, err := w.ReadFile("a.go"); err != nil || string(b) != "package a\n" {
		t.Errorf("ReadFile(a.go) = %q, %v", b, err)
	}
}
