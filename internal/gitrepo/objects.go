package gitrepo

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"

	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/trace"
)

// ErrObjectUnavailable is returned for an object that a partial clone does
// not have and that git could not fetch.
var ErrObjectUnavailable = errors.New("object not available in this partial clone")

// objects is the object database of a repository: go-git's storage where
// it can read the repository, the git binary for the rest.
type objects struct {
	store storer.EncodedObjectStorer // nil with the GitBinary backend
	refs  storer.ReferenceStorer     // nil where go-git cannot read refs
	cat   *catFile
}

// Backend returns how objects are read, and why.
func (r *Repo) Backend() (Backend, string) {
	if _, err := r.objects(); err != nil {
		return GitBinary, err.Error()
	}
	return r.backend, r.why
}

// objects opens the object database once. Opening the storage directly,
// not through go-git's repository type, tolerates the extensions that
// concern only git's own commands (worktreeConfig, partialClone,
// preciousObjects, noop), which go-git's repository opener refuses.
func (r *Repo) objects() (*objects, error) {
	r.once.Do(func() {
		cat := &catFile{cmd: Cmd{Dir: r.Top}, gitDir: r.GitDir}
		o := &objects{cat: cat}
		r.objs = o
		switch {
		case r.ObjectFormat != "" && r.ObjectFormat != "sha1":
			r.backend, r.why = GitBinary, "object format "+r.ObjectFormat+" (read in-process for sha1 only)"
		case forceGitBinary.Load():
			r.backend, r.why = GitBinary, "MEMCITE_BACKEND=git"
		}
		if r.backend == GitBinary {
			trace.Printf("objects: git binary: %s", r.why)
			return
		}
		o.store = openStorage(r.GitDir, r.CommonDir, cat)
		if r.RefFormat == "" || r.RefFormat == "files" {
			o.refs = o.store.(*fallbackStorer).Storage
		}
		r.backend, r.why = GoGit, "object format sha1"
		trace.Printf("objects: go-git storage of %s, git cat-file for objects it does not find", r.CommonDir)
	})
	return r.objs, r.err
}

// objectCache is go-git's cache of decoded objects, split by kind: trees,
// commits and tags (read over and over when history is followed) in one
// LRU of treeCacheSize, blobs in another of blobCacheSize. A blob is
// mostly read once (a commit's files for verification, a memory file) and
// its bytes are then held by the reader; a shared LRU filled with them up
// to its bound (go-git's default is 96 MiB), pushing the trees out. The
// blob LRU still keeps the delta bases of the blobs read just before,
// which a packed history resolves again and again.
type objectCache struct {
	trees, blobs *cache.ObjectLRU
}

const (
	treeCacheSize = 24 * cache.MiByte
	blobCacheSize = 8 * cache.MiByte
)

func newObjectCache() *objectCache {
	return &objectCache{trees: cache.NewObjectLRU(treeCacheSize), blobs: cache.NewObjectLRU(blobCacheSize)}
}

func (c *objectCache) lru(t plumbing.ObjectType) *cache.ObjectLRU {
	if t == plumbing.BlobObject {
		return c.blobs
	}
	return c.trees
}

// Put implements cache.Object.
func (c *objectCache) Put(o plumbing.EncodedObject) { c.lru(o.Type()).Put(o) }

// Get implements cache.Object.
func (c *objectCache) Get(h plumbing.Hash) (plumbing.EncodedObject, bool) {
	if o, ok := c.trees.Get(h); ok {
		return o, true
	}
	return c.blobs.Get(h)
}

// Clear implements cache.Object.
func (c *objectCache) Clear() {
	c.trees.Clear()
	c.blobs.Clear()
}

// openStorage opens go-git's storage of a git dir (with its common dir for
// linked worktrees) and of every object directory it borrows from
// (objects/info/alternates: git clone --shared, --reference, chains of
// them), each once, with git cat-file behind them for the objects none
// of them holds (a partial clone's, GIT_ALTERNATE_OBJECT_DIRECTORIES).
func openStorage(gitDir, commonDir string, cat *catFile) *fallbackStorer {
	var fs billy.Filesystem = osfs.New(gitDir)
	if filepath.Clean(commonDir) != filepath.Clean(gitDir) {
		fs = dotgit.NewRepositoryFilesystem(osfs.New(gitDir), osfs.New(commonDir))
	}
	var opts filesystem.Options
	cache := newObjectCache()
	s := &fallbackStorer{Storage: filesystem.NewStorageWithOptions(noAlternates{fs}, cache, opts), cat: cat,
		own: &packs{dir: filepath.Join(commonDir, "objects"), cache: cache}}
	for _, dir := range alternateDirs(filepath.Join(commonDir, "objects")) {
		s.alts = append(s.alts, filesystem.NewStorageWithOptions(noAlternates{objectsFS(dir)}, cache, opts))
		s.altPacks = append(s.altPacks, &packs{dir: dir, cache: cache})
	}
	if len(s.alts) > 0 {
		trace.Printf("objects: %d alternate object director(ies), each opened once", len(s.alts))
	}
	return s
}

// fallbackStorer is go-git's storage of the repository's own objects,
// then of its alternates, with git cat-file behind them for objects none
// of them finds.
type fallbackStorer struct {
	*filesystem.Storage
	own      *packs // the repository's own packs, read through their indexes (packidx.go)
	alts     []*filesystem.Storage
	altPacks []*packs // alts' packs
	cat      *catFile
}

// HasEncodedObject implements storer.EncodedObjectStorer: the repository's
// objects and its alternates' (not the objects only git cat-file reads).
func (s *fallbackStorer) HasEncodedObject(h plumbing.Hash) error {
	if s.own.has(h) || slices.ContainsFunc(s.altPacks, func(ps *packs) bool { return ps.has(h) }) {
		return nil
	}
	err := s.Storage.HasEncodedObject(h)
	for _, alt := range s.alts {
		if err == nil || !errors.Is(err, plumbing.ErrObjectNotFound) {
			break
		}
		err = alt.HasEncodedObject(h)
	}
	return err
}

// EncodedObjectSize implements storer.EncodedObjectStorer.
func (s *fallbackStorer) EncodedObjectSize(h plumbing.Hash) (int64, error) {
	n, err := s.Storage.EncodedObjectSize(h)
	for _, alt := range s.alts {
		if err == nil || !errors.Is(err, plumbing.ErrObjectNotFound) {
			break
		}
		n, err = alt.EncodedObjectSize(h)
	}
	return n, err
}

// Close releases the pack files the storages hold open.
func (s *fallbackStorer) Close() error {
	s.own.close()
	for _, ps := range s.altPacks {
		ps.close()
	}
	err := s.Storage.Close()
	for _, alt := range s.alts {
		err = errors.Join(err, alt.Close())
	}
	return err
}

// EncodedObject implements storer.EncodedObjectStorer.
func (s *fallbackStorer) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	o, err := s.own.lookup(s.Storage, t, h)
	for i, alt := range s.alts {
		if err == nil || !errors.Is(err, plumbing.ErrObjectNotFound) {
			return o, err
		}
		o, err = s.altPacks[i].lookup(alt, t, h)
	}
	if err == nil || !errors.Is(err, plumbing.ErrObjectNotFound) {
		return o, err
	}
	typ, data, err := s.cat.object(h.String())
	if err != nil {
		return nil, err
	}
	ot, err := plumbing.ParseObjectType(typ)
	if err != nil {
		return nil, fmt.Errorf("object %s: %w", h, err)
	}
	if t != plumbing.AnyObject && ot != t {
		return nil, plumbing.ErrObjectNotFound
	}
	mo := &plumbing.MemoryObject{}
	mo.SetType(ot)
	if _, err := mo.Write(data); err != nil {
		return nil, err
	}
	return mo, nil
}

// readBlob returns the content of a blob. Any failure wraps
// source.ErrUnavailable: the blob is named by a tree or the index, so the
// object database cannot give what git says is there.
func (o *objects) readBlob(oid string) ([]byte, error) {
	b, err := o.blob(oid)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", source.ErrUnavailable, err)
	}
	return b, nil
}

func (o *objects) blob(oid string) ([]byte, error) {
	if o.store != nil {
		return o.stored(plumbing.BlobObject, plumbing.NewHash(oid))
	}
	typ, data, err := o.cat.object(oid)
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", oid, err)
	}
	if typ != "blob" {
		return nil, fmt.Errorf("read blob %s: a %s, not a blob", oid, typ)
	}
	return data, nil
}

// stored reads the content of the object h of type typ from go-git's
// storage (o.store, which must be set).
func (o *objects) stored(typ plumbing.ObjectType, h plumbing.Hash) ([]byte, error) {
	obj, err := o.store.EncodedObject(typ, h)
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", typ, h, err)
	}
	rc, err := obj.Reader()
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", typ, h, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", typ, h, err)
	}
	return data, nil
}

// catFile reads objects through one long-running `git cat-file --batch`
// process, started on first use. It is safe for concurrent use. Any
// failure of the process stops it; the next read starts a new one.
type catFile struct {
	cmd    Cmd
	gitDir string

	mu   sync.Mutex
	proc *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
}

// object returns the type and content of an object. git fetches an object
// that a partial clone lacks from its promisor remote; when that fails the
// error is ErrObjectUnavailable (in a partial clone) or
// plumbing.ErrObjectNotFound.
func (c *catFile) object(oid string) (string, []byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.proc == nil {
		proc, in, out, err := c.cmd.start("--git-dir", c.gitDir, "cat-file", "--batch")
		if err != nil {
			return "", nil, err
		}
		c.proc, c.in, c.out = proc, in, bufio.NewReaderSize(out, 1<<16)
	}
	typ, data, err := c.read(oid)
	if err != nil && !errors.Is(err, plumbing.ErrObjectNotFound) {
		c.stop() // out of step: start afresh next time
	}
	if errors.Is(err, plumbing.ErrObjectNotFound) && c.partial() {
		return "", nil, fmt.Errorf("object %s: %w", oid, ErrObjectUnavailable)
	}
	return typ, data, err
}

func (c *catFile) read(oid string) (string, []byte, error) {
	if _, err := io.WriteString(c.in, oid+"\n"); err != nil {
		return "", nil, fmt.Errorf("git cat-file: %w", err)
	}
	header, err := c.out.ReadString('\n')
	if err != nil {
		return "", nil, fmt.Errorf("git cat-file: %w", err)
	}
	f := strings.Fields(header)
	if len(f) == 2 && f[1] == "missing" {
		return "", nil, plumbing.ErrObjectNotFound
	}
	if len(f) != 3 {
		return "", nil, fmt.Errorf("git cat-file: unexpected header %q", strings.TrimSpace(header))
	}
	n, err := strconv.Atoi(f[2])
	if err != nil || n < 0 {
		return "", nil, fmt.Errorf("git cat-file: bad size in %q", strings.TrimSpace(header))
	}
	buf := make([]byte, n+1)
	if _, err := io.ReadFull(c.out, buf); err != nil {
		return "", nil, fmt.Errorf("git cat-file: %w", err)
	}
	if !bytes.HasSuffix(buf, []byte("\n")) {
		return "", nil, fmt.Errorf("git cat-file: missing terminator")
	}
	return f[1], buf[:n], nil
}

// partial reports whether the repository is a partial clone.
func (c *catFile) partial() bool {
	out, err := Cmd{Dir: c.cmd.Dir}.Run(context.Background(), "--git-dir", c.gitDir, "config", "--get-regexp", `^(extensions\.partialclone|remote\..*\.promisor)$`)
	return err == nil && len(bytes.TrimSpace(out)) > 0
}

func (c *catFile) stop() {
	if c.proc == nil {
		return
	}
	c.in.Close()
	_ = c.proc.Wait()
	c.proc, c.in, c.out = nil, nil, nil
}

// Close stops the git processes the repository started.
func (r *Repo) Close() error {
	if r.objs != nil {
		r.objs.cat.mu.Lock()
		r.objs.cat.stop()
		r.objs.cat.mu.Unlock()
	}
	return nil
}
