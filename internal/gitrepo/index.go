package gitrepo

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/trace"
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
// decodes the index file itself (SHA-1 and SHA-256 repositories), and
// falls back to `git ls-files --stage` for the forms it does not decode
// (split or sparse index) and with MEMCITE_BACKEND=git. Blobs whose index
// stat data matches the working-tree file are read from the working tree,
// as git does; others come from the object database. The index is never
// written.
func (r *Repo) Index(ctx context.Context) (source.Source, error) {
	objs, err := r.objects()
	if err != nil {
		return nil, err
	}
	if !forceGitBinary.Load() && !objs.packs.ownsAll() {
		// what is staged is compared with HEAD's trees and read from its
		// blobs; where git must read some of them, cat-file starts while
		// the index is decoded
		objs.cat.warm()
	}
	p := r.IndexPath()
	var (
		es         []entry
		unmerged   []string
		ita        int
		cacheTree  []byte
		indexMtime time.Time
	)
	err = errNotDecoded
	if hashLen, known := r.hashLen(); known && !forceGitBinary.Load() {
		es, unmerged, ita, cacheTree, indexMtime, err = readIndex(p, hashLen)
		if err != nil {
			trace.Printf("index: %v: asking git", err)
		}
	}
	var skip map[string]bool // entries without a working-tree copy, when git listed them
	fromGit := err != nil
	if fromGit {
		// split or sparse index, or an object format go-git cannot read:
		// ask git for the entries, and which of them are clean
		if es, unmerged, skip, err = r.lsFiles(ctx, p); err != nil {
			return nil, err
		}
	}
	if len(unmerged) > 0 {
		return nil, fmt.Errorf("%w: %s", ErrUnmerged, strings.Join(unmerged, ", "))
	}
	// where git may convert content (line endings, filters, encodings) the
	// working tree is not the staged content: judge git's bytes, the blobs.
	// Found when a file is first read: a commit check that reads none
	// looks at no attributes.
	conv := sync.OnceValue(func() *conversions {
		files := make([]string, 0, len(es))
		var attrFiles []attrFile
		for _, e := range es {
			if e.mode.IsRegular() && e.sub == nil {
				files = append(files, e.path)
				if isAttrFile(e.path) {
					attrFiles = append(attrFiles, attrFile{e.path, e.oid})
				}
			}
		}
		return r.conversions(files, attrFiles)
	})
	var gitClean func(string) bool // entries git calls clean, without stat data of ours
	if fromGit {
		dirty := sync.OnceValue(func() map[string]bool {
			if conv().all {
				return nil
			}
			dirty, err := r.cleanByGit(ctx)
			if err != nil {
				return nil
			}
			return dirty
		})
		gitClean = func(p string) bool {
			d := dirty()
			return d != nil && !d[p] && !skip[p]
		}
	}
	wt, _ := source.NewWorktree(r.Top)
	blob := r.blobReader(objs)
	read := func(e entry) (io.ReadCloser, error) {
		if e.stat != nil && wt != nil && e.mode != filemode.Symlink && !conv().converts(e.path) {
			if rc := cleanWorktreeFile(wt, e.path, *e.stat, indexMtime); rc != nil {
				return rc, nil
			}
		}
		if gitClean != nil && wt != nil && e.mode.IsRegular() && gitClean(e.path) && !conv().converts(e.path) {
			if rc, err := wt.Open(e.path); err == nil {
				return rc, nil
			}
		}
		return blob(e)
	}
	t := newTable("index", es, read)
	t.submodule = r.submoduleFile
	t.ids = !r.hasLFS()
	t.committable = !fromGit
	if t.committable {
		t.cacheTree = cacheTree
	}
	t.intentToAdd = ita > 0
	return t, nil
}

// hashLen is the length of the repository's object ids in bytes: 20
// (SHA-1) or 32 (SHA-256); known is false for another object format, for
// which it says 20.
func (r *Repo) hashLen() (n int, known bool) {
	switch r.ObjectFormat {
	case "", "sha1":
		return 20, true
	case "sha256":
		return 32, true
	}
	return 20, false
}

// errNotDecoded: the index was not decoded in-process.
var errNotDecoded = errors.New("index not decoded")

// cleanWorktreeFile opens the working-tree file when git itself would call
// the entry clean: its stat data (size, mtime, and where the platform has
// them ctime, inode and device) matches the index entry, and it is not
// racily clean (modified at or after the index was written). Then its
// content is the staged content.
func cleanWorktreeFile(wt *source.Worktree, name string, st indexStat, indexMtime time.Time) io.ReadCloser {
	full := filepath.Join(wt.Root(), filepath.FromSlash(name))
	fi, err := os.Lstat(full)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	mt := fi.ModTime()
	if uint32(fi.Size()) != st.size || uint32(mt.Unix()) != st.mtimeSec || uint32(mt.Nanosecond()) != st.mtimeNsec ||
		!mt.Before(indexMtime) || !sameInodeAndCtime(fi, st) {
		return nil
	}
	rc, err := wt.Open(name)
	if err != nil {
		return nil
	}
	return rc
}

// readIndex reads the index file at p in-process (parseIndex) and returns
// what it holds with the time the index was written. A missing index is an
// empty one.
func readIndex(p string, hashLen int) (es []entry, unmerged []string, ita int, cacheTree []byte, mtime time.Time, err error) {
	data, fi, err := readIndexFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, 0, nil, time.Time{}, nil // no index yet: nothing staged
	}
	if err != nil {
		return nil, nil, 0, nil, time.Time{}, fmt.Errorf("read index %s: %w", p, err)
	}
	es, unmerged, ita, cacheTree, err = parseIndex(data, hashLen)
	if err != nil {
		return nil, nil, 0, nil, time.Time{}, fmt.Errorf("read index %s: %w", p, err)
	}
	return es, unmerged, ita, cacheTree, fi.ModTime(), nil
}

// parseIndex reads an index file (versions 2 to 4, object ids of hashLen
// bytes): its entries at stage 0 (intent-to-add entries left out, as git
// commits them, and counted), the stat data of those git compares with the working
// tree (not assume-unchanged, not skip-worktree, with a recorded mtime),
// and the paths with conflict stages, which are not entries. A split
// index, a sparse index (directory entries) or a damaged file is
// errIndexForm: git reads those. cacheTree is the index's cache-tree
// extension (nil: none).
func parseIndex(data []byte, hashLen int) (es []entry, unmerged []string, ita int, cacheTree []byte, err error) {
	n := 0
	if len(data) >= 12 {
		n = int(min(binary.BigEndian.Uint32(data[8:12]), uint32(len(data)/64)))
	}
	es = make([]entry, 0, n)
	stats := make([]indexStat, 0, n) // never grows: es[i].stat points into it
	// every kept entry's name and hexadecimal id go into one buffer, made
	// one string at the end: two allocations instead of two per entry
	arena := make([]byte, 0, max(len(data)-(40+hashLen)*n, 0)+2*hashLen*n) // (the names take less than the file, less the fixed parts)
	starts := make([]int, 0, n)
	sparse := false
	cacheTree, err = walkIndex(data, hashLen, func(name, raw []byte, flags, ext uint16) {
		st := decodeStatData(raw, flags, ext)
		switch {
		case st.mode&0o170000 == 0o040000:
			sparse = true // a directory entry of a sparse index
			return
		case flags&flagStage != 0:
			if len(unmerged) == 0 || unmerged[len(unmerged)-1] != string(name) {
				unmerged = append(unmerged, string(name))
			}
			return
		case ext&extIntentToAdd != 0:
			ita++
			return
		}
		starts = append(starts, len(arena))
		arena = append(arena, name...)
		arena = hex.AppendEncode(arena, raw[40:40+hashLen])
		e := entry{mode: filemode.FileMode(st.mode)}
		if st.trusted && (st.mtimeSec != 0 || st.mtimeNsec != 0) && len(stats) < cap(stats) {
			stats = append(stats, st)
			e.stat = &stats[len(stats)-1]
		}
		es = append(es, e)
	})
	if err == nil && sparse {
		err = fmt.Errorf("%w: sparse index", errIndexForm)
	}
	if err != nil {
		return nil, nil, 0, nil, err
	}
	// arena is never written again: its bytes can be the string's
	all := unsafe.String(unsafe.SliceData(arena), len(arena))
	for i := range es {
		end := len(all)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		es[i].path, es[i].oid = all[starts[i]:end-2*hashLen], all[end-2*hashLen:end]
		if es[i].stat != nil {
			es[i].stat.oid = es[i].oid
		}
	}
	// a path with conflict stages has no stage-0 entry in a valid index;
	// should one have both, it is unmerged all the same
	if len(unmerged) > 0 {
		bad := make(map[string]bool, len(unmerged))
		for _, u := range unmerged {
			bad[u] = true
		}
		es = slices.DeleteFunc(es, func(e entry) bool { return bad[e.path] })
	}
	return es, unmerged, ita, cacheTree, nil
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
