package gitrepo

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/git-memcite/git-memcite/internal/source"
)

// ErrUnmerged is returned for the index of a repository with unmerged paths.
var ErrUnmerged = errors.New("the index has unmerged paths; resolve the conflicts first")

// IndexPath returns the index file git uses now: $GIT_INDEX_FILE (set by
// git for commit hooks, e.g. the temporary index of `git commit -a` or
// `git commit <paths>`), relative to the current directory, or the
// worktree's own index.
func (r *Repo) IndexPath() string {
	if p := os.Getenv("GIT_INDEX_FILE"); p != "" {
		if filepath.IsAbs(p) {
			return p
		}
		if wd, err := os.Getwd(); err == nil {
			return filepath.Join(wd, p)
		}
		return filepath.Join(r.Top, p)
	}
	return filepath.Join(r.GitDir, "index")
}

// Index returns the index (the content being committed) as a source. It
// decodes the index file itself, because go-git ignores GIT_INDEX_FILE, and
// falls back to `git ls-files --stage` for index formats go-git cannot
// decode (split or sparse index). Blobs whose index stat data matches the
// working-tree file are read from the working tree, as git does; others
// come from the object database. The index is never written.
func (r *Repo) Index(ctx context.Context) (source.Source, error) {
	objs, err := r.objects()
	if err != nil {
		return nil, err
	}
	p := r.IndexPath()
	var (
		es         []entry
		unmerged   []string
		indexMtime time.Time
		stats      = map[string]*index.Entry{}
	)
	err = errNotDecoded
	if objs.store != nil {
		var ies []*index.Entry
		ies, unmerged, indexMtime, err = decodeIndex(p)
		for _, e := range ies {
			es = append(es, entry{path: e.Name, oid: e.Hash.String(), mode: e.Mode})
			if !indexMtime.IsZero() && !e.ModifiedAt.IsZero() {
				stats[e.Name] = e
			}
		}
	}
	var gitClean func(string) bool // entries git calls clean, without stat data of ours
	if err != nil {
		// split or sparse index, or an object format go-git cannot decode:
		// ask git for the entries, and which of them are clean
		var skip map[string]bool
		es, unmerged, skip, err = r.lsFiles(ctx, p)
		if err != nil {
			return nil, err
		}
		clear(stats)
		if len(unmerged) == 0 && !r.contentConverts(ctx, es) {
			if dirty, err := r.cleanByGit(ctx); err == nil {
				gitClean = func(p string) bool { return !dirty[p] && !skip[p] }
			}
		}
	}
	if len(unmerged) > 0 {
		return nil, fmt.Errorf("%w: %s", ErrUnmerged, strings.Join(unmerged, ", "))
	}
	if len(stats) > 0 && r.contentConverts(ctx, es) {
		// the working tree holds converted content (line endings, filters,
		// encodings): judge git's bytes, the blobs
		clear(stats)
	}
	wt, _ := source.NewWorktree(r.Top)
	blob := r.blobReader(objs)
	read := func(e entry) (io.ReadCloser, error) {
		if ie := stats[e.path]; ie != nil && wt != nil && e.mode != filemode.Symlink {
			if rc := cleanWorktreeFile(wt, ie, indexMtime); rc != nil {
				return rc, nil
			}
		}
		if gitClean != nil && wt != nil && e.mode.IsRegular() && gitClean(e.path) {
			if rc, err := wt.Open(e.path); err == nil {
				return rc, nil
			}
		}
		return blob(e)
	}
	t := newTable("index", es, read)
	t.submodule = r.submoduleFile
	t.ids = !r.hasLFS()
	return t, nil
}

// errNotDecoded: the index was not decoded in-process.
var errNotDecoded = errors.New("index not decoded")

// cleanWorktreeFile opens the working-tree file when git itself would call
// the entry clean: its stat data (size, mtime, and where the platform has
// them ctime, inode and device) matches the index entry, and it is not
// racily clean (modified at or after the index was written). Then its
// content is the staged content.
func cleanWorktreeFile(wt *source.Worktree, ie *index.Entry, indexMtime time.Time) io.ReadCloser {
	full := filepath.Join(wt.Root(), filepath.FromSlash(ie.Name))
	fi, err := os.Lstat(full)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	if fi.Size() != int64(ie.Size) || !fi.ModTime().Equal(ie.ModifiedAt) || !fi.ModTime().Before(indexMtime) ||
		!sameInodeAndCtime(fi, ie) {
		return nil
	}
	rc, err := wt.Open(ie.Name)
	if err != nil {
		return nil
	}
	return rc
}

func decodeIndex(p string) ([]*index.Entry, []string, time.Time, error) {
	f, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, time.Time{}, nil // no index yet: nothing staged
	}
	if err != nil {
		return nil, nil, time.Time{}, fmt.Errorf("open index: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, time.Time{}, err
	}
	var idx index.Index
	if err := index.NewDecoder(bufio.NewReader(f)).Decode(&idx); err != nil {
		return nil, nil, time.Time{}, fmt.Errorf("decode index %s: %w", p, err)
	}
	var out []*index.Entry
	var unmerged []string
	for _, e := range idx.Entries {
		if e.Stage != 0 { // go-git's index.Merged is 1, but merged entries have stage 0
			if len(unmerged) == 0 || unmerged[len(unmerged)-1] != e.Name {
				unmerged = append(unmerged, e.Name)
			}
			continue
		}
		if e.IntentToAdd {
			continue
		}
		out = append(out, e)
	}
	return out, unmerged, fi.ModTime(), nil
}

// lsFiles lists the index with git itself (split and sparse indexes,
// SHA-256 repositories), and which entries have no working-tree copy
// (skip-worktree, as in sparse checkouts).
func (r *Repo) lsFiles(ctx context.Context, indexPath string) ([]entry, []string, map[string]bool, error) {
	out, err := r.cmd().Run(ctx, "ls-files", "--stage", "-t", "-z")
	if err != nil {
		return nil, nil, nil, fmt.Errorf("read index %s: %w", indexPath, err)
	}
	var es []entry
	var unmerged []string
	skip := map[string]bool{}
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		meta, name, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := strings.Fields(string(meta)) // tag mode oid stage
		if len(f) != 4 {
			continue
		}
		mode, err := strconv.ParseUint(f[1], 8, 32)
		if err != nil {
			continue
		}
		if f[3] != "0" {
			if len(unmerged) == 0 || unmerged[len(unmerged)-1] != string(name) {
				unmerged = append(unmerged, string(name))
			}
			continue
		}
		if f[0] == "S" {
			skip[string(name)] = true
		}
		es = append(es, entry{path: string(name), oid: f[2], mode: filemode.FileMode(mode)})
	}
	return es, unmerged, skip, nil
}

// cleanByGit asks git which entries of the index differ from the working
// tree (git diff-files: git's own stat checks, racily clean entries
// compared by content; the index is not written). The others are clean.
// A file-system monitor (core.fsmonitor) is not asked: one that missed a
// change would have git trust a modified file, whose bytes are then not
// the staged ones.
func (r *Repo) cleanByGit(ctx context.Context) (map[string]bool, error) {
	out, err := r.cmd().Run(ctx, "-c", "core.fsmonitor=false", "diff-files", "-z", "--name-only", "--no-renames")
	if err != nil {
		return nil, err
	}
	dirty := map[string]bool{}
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			dirty[string(p)] = true
		}
	}
	return dirty, nil
}

// contentConverts reports whether git may convert content between the
// working tree and its blobs, so that a working-tree file is not the
// staged bytes even when its stat data matches: core.autocrlf, or any
// attributes (a .gitattributes file in the index, info/attributes,
// core.attributesFile or the user's attributes file), which may set
// text/eol, filter, ident or working-tree-encoding.
func (r *Repo) contentConverts(ctx context.Context, es []entry) bool {
	for _, e := range es {
		if e.path == ".gitattributes" || strings.HasSuffix(e.path, "/.gitattributes") {
			return true
		}
	}
	if _, err := os.Stat(filepath.Join(r.CommonDir, "info", "attributes")); err == nil {
		return true
	}
	cfg, err := r.Config(ctx)
	if err != nil {
		return true // cannot tell: be safe
	}
	if v := cfg["core.autocrlf"]; len(v) > 0 && !strings.EqualFold(v[len(v)-1], "false") {
		return true
	}
	if v := cfg["core.attributesfile"]; len(v) > 0 && v[len(v)-1] != "" {
		return true
	}
	if home, err := os.UserHomeDir(); err == nil {
		xdg := os.Getenv("XDG_CONFIG_HOME")
		if xdg == "" {
			xdg = filepath.Join(home, ".config")
		}
		if _, err := os.Stat(filepath.Join(xdg, "git", "attributes")); err == nil {
			return true
		}
	}
	return false
}
