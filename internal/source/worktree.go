package source

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/git-memcite/git-memcite/internal/regfile"
)

// Worktree reads the working tree of a repository rooted at a directory.
// Symlinks are followed only while they stay inside the root; the .git
// directory is never read.
type Worktree struct {
	root string // absolute, symlinks resolved

	// noFollow opens a file unless its last element is a link
	// (errSlowPath): openNoFollow, replaced in tests by the other
	// platform's way.
	noFollow func(string) (*os.File, error)

	// dirs holds the resolved directories (dirInfo) by repo-relative
	// dir. A sync.Map: its lookups of known keys write nothing shared,
	// where an RWMutex's read lock writes its reader count, one cache
	// line for every goroutine that names thousands of files at once.
	dirs sync.Map
}

type dirInfo struct {
	real   string
	err    error
	direct bool // real is the root's path and dir: no link on the way
}

// NewWorktree returns a Source for the directory root.
func NewWorktree(root string) (*Worktree, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("working tree %s: %w", root, err)
	}
	real, err := evalLinks(abs)
	if err != nil {
		return nil, fmt.Errorf("working tree %s: %w", root, err)
	}
	return &Worktree{root: real, noFollow: openNoFollow}, nil
}

// Root returns the absolute root directory.
func (w *Worktree) Root() string { return w.root }

// Name implements Source.
func (w *Worktree) Name() string { return "working tree" }

// resolve returns the real absolute path of p, checked to lie inside the
// root and outside .git.
func (w *Worktree) resolve(p string) (string, error) {
	c, err := Clean(p)
	if err != nil {
		return "", err
	}
	if c == "." {
		return w.root, nil
	}
	dir, base := filepath.Split(filepath.FromSlash(c))
	realDir, err := w.resolveDir(strings.TrimSuffix(dir, string(filepath.Separator)))
	if err != nil {
		return "", err
	}
	full := filepath.Join(realDir, base)
	fi, err := os.Lstat(full)
	if err != nil {
		return "", err
	}
	if fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) == 0 {
		return full, w.inside(full)
	}
	// a symlink, or on Windows a junction or other reparse point (Lstat
	// calls those irregular): where does it lead?
	real, err := evalLinks(full)
	if err != nil {
		if errors.Is(err, ErrSymlinkLoop) {
			return "", ErrSymlinkLoop
		}
		if errors.Is(err, fs.ErrNotExist) {
			// a dangling link: say where it points when that is outside
			if t, lerr := os.Readlink(full); lerr == nil {
				if !filepath.IsAbs(t) {
					t = filepath.Join(realDir, t)
				}
				if w.inside(filepath.Clean(t)) != nil {
					return "", ErrOutside
				}
			}
		}
		return "", err
	}
	return real, w.inside(real)
}

func (w *Worktree) resolveDir(dir string) (string, error) {
	if dir == "" {
		return w.root, nil
	}
	d := w.dirInfo(dir)
	return d.real, d.err
}

// dirInfo resolves the directory dir (not "", in the platform's form)
// once and remembers it.
func (w *Worktree) dirInfo(dir string) dirInfo {
	if d, ok := w.dirs.Load(dir); ok {
		return d.(dirInfo)
	}
	real, err := w.resolveChild(dir)
	if err != nil {
		real, err = evalLinks(filepath.Join(w.root, dir))
		if err == nil {
			err = w.inside(real)
		}
	}
	d := dirInfo{real, err, err == nil && real == filepath.Join(w.root, dir)}
	w.dirs.Store(dir, d)
	return d
}

// Direct reports whether the directory dir (clean, repo-relative) is
// reached from the root through directories only, no symbolic links.
func (w *Worktree) Direct(dir string) bool {
	if dir == "" || dir == "." {
		return true
	}
	return w.dirInfo(filepath.FromSlash(dir)).direct
}

// errNotPlain: a directory is not simply its parent's real path and its
// name (a link, or not a directory): resolve it in full.
var errNotPlain = errors.New("not a plain directory")

// resolveChild resolves dir from its parent's resolution (remembered) and
// one lstat, when dir is a plain directory below a parent inside the
// worktree: the usual case, where evaluating every link of the whole path
// again would cost an lstat per component. Anything else is errNotPlain.
func (w *Worktree) resolveChild(dir string) (string, error) {
	if runtime.GOOS == "windows" {
		return "", errNotPlain // reparse points: the full resolution judges them
	}
	parent, base := filepath.Split(dir)
	parent = strings.TrimSuffix(parent, string(filepath.Separator))
	if base == "" || base == "." || base == ".." || (parent == "" && strings.EqualFold(base, ".git")) {
		return "", errNotPlain
	}
	realParent, err := w.resolveDir(parent)
	if err != nil {
		return "", errNotPlain
	}
	real := filepath.Join(realParent, base)
	if fi, err := os.Lstat(real); err != nil || !fi.IsDir() {
		return "", errNotPlain
	}
	return real, nil
}

func (w *Worktree) inside(real string) error {
	rel, err := filepath.Rel(w.root, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return ErrOutside
	}
	first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
	if strings.EqualFold(first, ".git") {
		return ErrOutside
	}
	return nil
}

// Stat implements Source.
func (w *Worktree) Stat(p string) (Entry, error) {
	real, err := w.resolve(p)
	if err != nil {
		return Entry{}, err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return Entry{}, err
	}
	return entryOf(fi), nil
}

func entryOf(fi fs.FileInfo) Entry {
	switch {
	case fi.Mode().IsRegular():
		return Entry{Kind: KindFile, Size: fi.Size()}
	case fi.IsDir():
		return Entry{Kind: KindDir}
	}
	return Entry{Kind: KindOther}
}

// Open implements Source. It never blocks on a FIFO or device: the file is
// opened non-blocking and must be a regular file. The common case, a file
// that is not a symlink in an already resolved directory, costs one open
// and one fstat, like cat.
func (w *Worktree) Open(p string) (io.ReadCloser, error) {
	f, _, err := w.OpenDirect(p)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// OpenDirect is Open, and says whether the file was opened without
// following a symbolic link as its last component (its directories may
// still be reached through links): then a stat of the open file is what
// an lstat of its path would have said when it was opened.
func (w *Worktree) OpenDirect(p string) (f *os.File, direct bool, err error) {
	f, err = w.openFast(p)
	direct = err == nil
	if errors.Is(err, errSlowPath) {
		var real string
		if real, err = w.resolve(p); err == nil {
			f, err = openRead(real)
		}
	}
	if err != nil {
		return nil, false, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, false, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		if fi.IsDir() {
			return nil, false, ErrIsDir
		}
		return nil, false, ErrNotRegular
	}
	return f, direct, nil
}

var errSlowPath = errors.New("resolve symlinks first")

// openFast opens p without following a symlink (or, on Windows, any
// reparse point) in its last element; a link or anything unusual asks for
// the slow path.
func (w *Worktree) openFast(p string) (*os.File, error) {
	c, err := Clean(p)
	if err != nil {
		return nil, err
	}
	if c == "." {
		return nil, errSlowPath
	}
	dir, base := filepath.Split(filepath.FromSlash(c))
	realDir, err := w.resolveDir(strings.TrimSuffix(dir, string(filepath.Separator)))
	if err != nil {
		return nil, errSlowPath
	}
	f, err := w.noFollow(filepath.Join(realDir, base))
	switch {
	case err == nil:
		return f, nil
	case errors.Is(err, errSlowPath):
		return nil, errSlowPath // the last element is a link
	case errors.Is(err, fs.ErrNotExist):
		if _, lerr := os.Lstat(filepath.Join(realDir, base)); lerr != nil {
			return nil, fs.ErrNotExist
		}
		return nil, errSlowPath // a dangling symlink: say where it points
	}
	return nil, err
}

// ReadFile implements Source.
func (w *Worktree) ReadFile(p string) ([]byte, error) {
	f, _, err := w.OpenDirect(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return regfile.ReadAll(f)
}

// List implements Source. A memory directory that is a symlink is followed
// when it stays inside the repository; symlinks below it are listed and
// checked when read.
func (w *Worktree) List(dir string) ([]string, error) {
	return w.ListDirs(dir, nil)
}

// ListDirs is List, and passes each directory it reads, before reading
// it, to dirStat with its repo-relative path ("." the top) and its lstat
// (a directory whose lstat fails is passed a nil FileInfo). The stat
// taken before the read is what says, later, that the directory still
// holds what was listed: a change after it changes its mtime and ctime.
func (w *Worktree) ListDirs(dir string, dirStat func(rel string, fi fs.FileInfo)) ([]string, error) {
	base := "."
	if dir != "" && dir != "." {
		c, err := Clean(dir)
		if err != nil {
			return nil, err
		}
		base = c
	}
	realBase, err := w.resolve(base)
	if err != nil {
		return nil, err
	}
	var out []string
	err = filepath.WalkDir(realBase, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == realBase {
				return err
			}
			return nil // unreadable subdirectory: skip it
		}
		isDir := d.IsDir()
		if isDir && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if isDir && dirStat == nil || !isDir && !d.Type().IsRegular() && d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		rel, ok := strings.CutPrefix(p, realBase+string(filepath.Separator))
		if !ok {
			var err error
			if rel, err = filepath.Rel(realBase, p); err != nil {
				return nil
			}
		}
		if isDir {
			fi, _ := d.Info()
			name := base
			if p != realBase {
				name = joinRel(base, filepath.ToSlash(rel))
			}
			dirStat(name, fi)
			return nil
		}
		out = append(out, joinRel(base, filepath.ToSlash(rel)))
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

func joinRel(base, rel string) string {
	if base == "." {
		return rel
	}
	return base + "/" + rel
}
