package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/git-memcite/git-memcite/internal/regfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/trace"
)

// guardedWorktree is the working tree as verification and relocation see
// it: files git ignores are not read (they hold secrets such as .env far
// more often than code worth citing, and a memory may come from anyone's
// pull request), and files git does not track are marked, so that their
// content is never echoed where logs are shared. Tracked files are never
// ignored, whatever the ignore rules say, as in git.
type guardedWorktree struct {
	source.Source
	r *Repo

	once  sync.Once
	index *worktreeIndex // read once (load), for known and ContentID
	err   error

	mu      sync.Mutex
	ignored map[string]bool // verdicts of git check-ignore, by path

	rulesOnce sync.Once
	rulesAll  bool            // an ignore source applies everywhere (excludes file, info/exclude)
	ruleDirs  map[string]bool // directories known to hold, or not, a .gitignore

	ids worktreeIDs // ContentID
}

// Untracked reports whether p (repo-relative, clean) is not in the index.
// It implements source.Untracker.
func (w *guardedWorktree) Untracked(p string) bool {
	if err := w.load(); err != nil {
		return true // cannot tell: treat its content as private
	}
	return !w.known(p)
}

// known reports whether the index holds p, a directory above an entry, or
// a submodule above p (which the submodule tracks). The caller loaded the
// index.
func (w *guardedWorktree) known(p string) bool { return w.index.known(p) }

func (w *guardedWorktree) load() error {
	w.once.Do(func() {
		w.index, w.err = w.r.readWorktreeIndex(context.Background())
	})
	return w.err
}

// hidden reports whether p must not be read: it is untracked and git
// ignores it.
func (w *guardedWorktree) hidden(p string) (bool, error) {
	if err := w.load(); err != nil {
		return false, err
	}
	if w.known(p) {
		return false, nil
	}
	if rp := w.realPath(p); rp != "" && rp != p {
		// through a symbolic link: git judges the file it leads to
		p = rp
		if w.known(p) {
			return false, nil
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if v, ok := w.ignored[p]; ok {
		return v, nil
	}
	ign, err := w.checkIgnore([]string{p})
	if err != nil {
		return false, err
	}
	if w.ignored == nil {
		w.ignored = map[string]bool{}
	}
	w.ignored[p] = ign[p]
	return ign[p], nil
}

// realPath returns p with symbolic links resolved, repo-relative, or ""
// when it does not resolve inside the repository.
func (w *guardedWorktree) realPath(p string) string {
	top, err := filepath.EvalSymlinks(w.r.Top)
	if err != nil {
		return ""
	}
	real, err := filepath.EvalSymlinks(filepath.Join(w.r.Top, filepath.FromSlash(p)))
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(top, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

func (w *guardedWorktree) guard(p string) error {
	c, err := source.Clean(p)
	if err != nil {
		return nil // the underlying source gives the path's own error
	}
	hide, err := w.hidden(c)
	if err != nil {
		return &fs.PathError{Op: "read", Path: p, Err: fmt.Errorf("%w: %w", source.ErrUnavailable, err)}
	}
	if hide {
		return &fs.PathError{Op: "read", Path: p, Err: source.ErrIgnored}
	}
	return nil
}

// Stat implements source.Source.
func (w *guardedWorktree) Stat(p string) (source.Entry, error) {
	if err := w.guard(p); err != nil {
		return source.Entry{}, err
	}
	return w.Source.Stat(p)
}

// ReadFile implements source.Source.
func (w *guardedWorktree) ReadFile(p string) ([]byte, error) {
	if err := w.guard(p); err != nil {
		return nil, err
	}
	return w.Source.ReadFile(p)
}

// Open implements source.Source. A working-tree file opened without
// following a link has its stat taken when it is closed, after it was
// read: ContentID names it by that, instead of an lstat of its path.
func (w *guardedWorktree) Open(p string) (io.ReadCloser, error) {
	if err := w.guard(p); err != nil {
		return nil, err
	}
	wt, ok := w.Source.(*source.Worktree)
	c, err := source.Clean(p)
	if !ok || err != nil || !w.ids.named.Load() { // (no names asked for: no cache)
		return w.Source.Open(p)
	}
	f, direct, err := wt.OpenDirect(p)
	if err != nil {
		return nil, err
	}
	if !direct {
		return f, nil
	}
	return &statOnClose{File: f, done: func(fi os.FileInfo) { w.ids.readStat(c, fi) }}, nil
}

// statOnClose is an open file whose stat, taken as it is closed, goes to
// done.
type statOnClose struct {
	*os.File
	done func(os.FileInfo)
}

func (f *statOnClose) Close() error {
	if fi, err := f.File.Stat(); err == nil {
		f.done(fi)
	}
	return f.File.Close()
}

// List implements source.Source, without the files git ignores.
func (w *guardedWorktree) List(dir string) ([]string, error) {
	all, err := w.Source.List(dir)
	if err != nil {
		return nil, err
	}
	out, _, err := w.filter(all)
	return out, err
}

// filter drops from all the paths git ignores, and counts the untracked
// ones (ignored or not).
func (w *guardedWorktree) filter(all []string) ([]string, int, error) {
	if err := w.load(); err != nil {
		return nil, 0, fmt.Errorf("%w: %w", source.ErrUnavailable, err)
	}
	var untracked []string
	for _, p := range all {
		if !w.known(p) {
			untracked = append(untracked, p)
		}
	}
	if len(untracked) == 0 {
		return all, 0, nil
	}
	w.mu.Lock()
	ign, err := w.checkIgnore(untracked)
	w.mu.Unlock()
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %w", source.ErrUnavailable, err)
	}
	out := all[:0:0]
	for _, p := range all {
		if !ign[p] {
			out = append(out, p)
		}
	}
	return out, len(untracked), nil
}

// checkIgnore returns which of paths (repo-relative, untracked) git's
// ignore rules exclude. When no rule can apply to any of them it answers
// without git: no core.excludesFile (nor the default one under
// $XDG_CONFIG_HOME or ~/.config), no rule in info/exclude, and no
// .gitignore in the working tree or the index in any directory from the
// top down to each path's own (the only places git reads rules from).
// Otherwise it asks git (a process). The caller holds w.mu.
func (w *guardedWorktree) checkIgnore(paths []string) (map[string]bool, error) {
	if w.ruleless(paths) {
		trace.Printf("check-ignore: no ignore rule applies to %d untracked path(s)", len(paths))
		return map[string]bool{}, nil
	}
	return w.r.checkIgnore(context.Background(), paths)
}

// ruleless reports whether no ignore rule can apply to any of paths. The
// caller holds w.mu and loaded the index (load).
func (w *guardedWorktree) ruleless(paths []string) bool {
	w.rulesOnce.Do(func() { w.rulesAll = w.r.globalIgnoreRules() })
	if w.rulesAll {
		return false
	}
	if w.ruleDirs == nil {
		w.ruleDirs = map[string]bool{}
	}
	for _, p := range paths {
		for d := p; d != ""; {
			i := strings.LastIndexByte(d, '/')
			if i < 0 {
				d = ""
			} else {
				d = d[:i]
			}
			has, ok := w.ruleDirs[d]
			if !ok {
				has = w.hasGitignore(d)
				w.ruleDirs[d] = has
			}
			if has {
				return false
			}
		}
	}
	return true
}

// hasGitignore reports whether directory d (repo-relative, "" the top)
// may hold ignore rules: a .gitignore in the working tree (whatever it
// is: git reads through a link, and an unreadable one is git's to
// judge) or in the index (git reads a sparse checkout's from there).
func (w *guardedWorktree) hasGitignore(d string) bool {
	rel := ".gitignore"
	if d != "" {
		rel = d + "/.gitignore"
	}
	if w.index.find(rel) != nil {
		return true
	}
	_, err := os.Lstat(filepath.Join(w.r.Top, filepath.FromSlash(rel)))
	return !errors.Is(err, fs.ErrNotExist)
}

// globalIgnoreRules reports whether an ignore source that applies to
// every path may hold rules: core.excludesFile set (or unreadable
// configuration), the default excludes file present, or info/exclude
// with a line that is neither blank nor a comment.
func (r *Repo) globalIgnoreRules() bool {
	cfg, err := r.Config(context.Background())
	if err != nil {
		return true
	}
	if _, ok := cfg["core.excludesfile"]; ok {
		return true
	}
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" {
		home := os.Getenv("HOME")
		if home == "" {
			return true
		}
		xdg = filepath.Join(home, ".config")
	}
	if _, err := os.Lstat(filepath.Join(xdg, "git", "ignore")); !errors.Is(err, fs.ErrNotExist) {
		return true
	}
	for _, gd := range []string{r.CommonDir, r.GitDir} {
		b, err := regfile.ReadFile(filepath.Join(gd, "info", "exclude"))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return true
		}
		for _, l := range strings.Split(string(b), "\n") {
			// git drops a CR and trailing spaces; a leading space or
			// tab is part of a pattern
			if l = strings.TrimRight(l, " \r"); l != "" && l[0] != '#' {
				return true
			}
		}
	}
	return false
}

// checkIgnore asks git which of paths (repo-relative, untracked) its
// ignore rules exclude.
func (r *Repo) checkIgnore(ctx context.Context, paths []string) (map[string]bool, error) {
	sort.Strings(paths)
	var in bytes.Buffer
	for _, p := range paths {
		in.WriteString(p)
		in.WriteByte(0)
	}
	c := r.cmd()
	c.Stdin = &in
	out, err := c.Run(ctx, "check-ignore", "-z", "--stdin")
	if err != nil && ExitCode(err) == 128 && len(paths) > 1 {
		// git refuses the whole batch for one path it will not judge
		// (beyond a symbolic link, inside a submodule): ask path by path
		ign := map[string]bool{}
		for _, p := range paths {
			one, err := r.checkIgnore(ctx, []string{p})
			if err != nil {
				return nil, err
			}
			ign[p] = one[p]
		}
		return ign, nil
	}
	if err != nil && ExitCode(err) == 128 {
		// a path git will not judge by ignore rules is not ignored
		trace.Printf("check-ignore %s: %v", paths[0], err)
		return map[string]bool{}, nil
	}
	if err != nil && ExitCode(err) != 1 { // 1: none of them is ignored
		return nil, fmt.Errorf("check ignore rules: %w", err)
	}
	ign := map[string]bool{}
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			ign[string(p)] = true
		}
	}
	return ign, nil
}
