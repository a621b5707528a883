package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/git-memcite/git-memcite/internal/cite"
	"github.com/git-memcite/git-memcite/internal/config"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/graph"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/trace"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// OpenOptions say where a command runs and what content it reads: the
// global flags and the source flags of the CLI.
type OpenOptions struct {
	RepoRoot string   // --repo-root; "" for the repository containing the current directory
	Dirs     []string // --dir
	Color    string   // --color
	Staged   bool     // --staged: the index
	Rev      string   // --rev: a commit

	// ConfigFile is MEMCITE_CONFIG: a team configuration file read in
	// place of .memcite.yaml ("" for none).
	ConfigFile string
	// Memories: whether Open finds or loads the memories (default: not).
	Memories Memories
	// Session is the run the workspace belongs to: its cache slot is
	// opened in the repository found, and the repository is closed with
	// it (nil: no cache, and the repository is the caller's to close).
	Session *Session

	// CacheTool names the running binary for the verification cache
	// (vcache.Tool); the session's cache, if any, is opened in the
	// repository found.
	CacheTool string
	// DeferCache: the cache is opened by Workspace.OpenCache, not as the
	// repository is found (a run that may replay a kept run whole never
	// reads it).
	DeferCache bool
}

// Workspace is a resolved repository, content source, configuration and
// (once loaded) memory store.
type Workspace struct {
	Repo   *gitrepo.Repo // nil outside a git repository (working tree only)
	Top    string
	CwdRel string // the current directory relative to Top ("" at Top)
	Src    source.Source
	Store  *store.Store
	Cfg    *config.Config // the effective configuration
	Staged bool           // Src is the index
	Rev    string         // Src is this commit ("": not a commit)

	// GitConfig is memcite.* from git config, keyed by lower-case name,
	// once read (the hooks read it first; nil: not read yet).
	GitConfig map[string][]string

	cache     *vcache.Slot // the run's cache slot (OpenOptions.Session; nil: none)
	openCache func()       // opens it (OpenOptions.DeferCache), nil once done
}

// OpenCache opens the run's cache when Open deferred it
// (OpenOptions.DeferCache); the cache is read in the background.
func (ws *Workspace) OpenCache() {
	if ws.openCache != nil {
		ws.openCache()
		ws.openCache = nil
	}
}

// Cache returns the run's verification cache, once open (waiting for an
// opening under way), or nil.
func (ws *Workspace) Cache() *vcache.Cache { return ws.cache.Cache() }

// Memories says how far Open goes with the memory store.
type Memories int

// What Open does with the memories.
const (
	// NoMemories: the store is not looked for (config and graph work
	// even when the memory directory does not exist; LoadStore or
	// FindStore later).
	NoMemories Memories = iota
	// FindMemories: the memories are listed, not loaded (FindStore), for
	// a caller that loads them a group at a time.
	FindMemories
	// LoadMemories: the memories are loaded (LoadStore), without those
	// the configuration ignores.
	LoadMemories
)

// Open finds the repository, builds the source the options ask for (the
// index, a commit, or the working tree), reads the configuration and,
// as o.Memories asks, finds or loads the memories. It is the one way a
// command opens its workspace.
func Open(ctx context.Context, o OpenOptions) (*Workspace, error) {
	ws, err := openSource(ctx, o)
	if err != nil {
		return nil, err
	}
	if ws.Cfg, err = ws.LoadConfig(ctx, o); err != nil {
		return nil, err
	}
	switch o.Memories {
	case FindMemories:
		err = ws.FindStore(ctx)
	case LoadMemories:
		err = ws.LoadStore(ctx)
	}
	if err != nil {
		return nil, err
	}
	return ws, nil
}

// LoadStore loads the memories of the configured memory directories. A
// repository without memories at the default place, when nothing is
// configured, has an empty store, not an error.
func (ws *Workspace) LoadStore(ctx context.Context) error {
	return ws.openStore(ctx, true)
}

// FindStore is LoadStore without loading the memories: they are listed
// (store.Find), for a caller that loads them a group at a time.
func (ws *Workspace) FindStore(ctx context.Context) error {
	return ws.openStore(ctx, false)
}

func (ws *Workspace) openStore(ctx context.Context, load bool) error {
	dirs, err := ws.MemoryDirs()
	if err != nil {
		return err
	}
	mems, err := store.Find(ws.Src, dirs)
	if err == nil && load {
		err = store.LoadAll(ctx, ws.Src, mems, ws.Cache())
	}
	if err == nil {
		ws.Store = &store.Store{Dirs: dirs, Memories: mems}
	}
	if errors.Is(err, store.ErrNoDir) && ws.Cfg != nil && ws.Cfg.Get("dirs").Origin == "default" {
		if ws.Repo == nil {
			// neither a repository nor memories: most likely the wrong
			// directory (a CI step run elsewhere), never "0 memories, valid"
			return fmt.Errorf("%s: %w, and there is no memory directory %s", ws.Top, gitrepo.ErrNotRepo, store.DefaultDir)
		}
		trace.Printf("no memory directory %s: no memories", store.DefaultDir)
		ws.Store, err = &store.Store{Dirs: dirs}, nil
	}
	if err != nil {
		return err
	}
	ws.DropIgnored()
	return nil
}

// start is the directory the repository is looked for from.
func (o OpenOptions) start() string {
	if o.RepoRoot == "" {
		return "."
	}
	return o.RepoRoot
}

// discover finds the repository from o's start and closes it when the
// run (o.Session) ends.
func discover(o OpenOptions) (*gitrepo.Repo, error) {
	repo, err := gitrepo.Discover(o.start())
	if err != nil {
		return nil, err
	}
	o.Session.track(repo)
	return repo, nil
}

// openSource finds the repository and builds the source the options ask
// for: the index, a commit, or the working tree (a plain directory's
// files outside a repository).
func openSource(ctx context.Context, o OpenOptions) (*Workspace, error) {
	ws := &Workspace{Staged: o.Staged, Rev: o.Rev, cache: o.Session.slot()}
	repo, err := discover(o)
	switch {
	case err == nil:
		ws.Repo, ws.Top = repo, repo.Top
		ws.openCache = func() { o.Session.slot().Open(repo.GitDir, repo.TempDir(), o.CacheTool) }
		if !o.DeferCache {
			ws.OpenCache()
		}
	case errors.Is(err, gitrepo.ErrNotRepo) && !o.Staged && o.Rev == "":
		ws.Top, err = filepath.Abs(o.start()) // plain directory: working tree only
		if err != nil {
			return nil, err
		}
	default:
		return nil, err
	}
	if wd, err := os.Getwd(); err == nil && o.RepoRoot == "" {
		if rel, err := filepath.Rel(ws.Top, wd); err == nil && !strings.HasPrefix(rel, "..") && rel != "." {
			ws.CwdRel = filepath.ToSlash(rel)
		}
	}
	switch {
	case o.Staged:
		ws.Src, err = repo.Index(ctx)
	case o.Rev != "":
		h, rerr := repo.ResolveCommit(ctx, o.Rev)
		if rerr != nil {
			return nil, rerr
		}
		ws.Src, err = repo.Commit(ctx, h)
	case repo != nil:
		ws.Src, err = repo.Worktree()
	default:
		ws.Src, err = source.NewWorktree(ws.Top)
	}
	if err != nil {
		return nil, err
	}
	if ids, ok := ws.Src.(source.Identifier); ok {
		if slot := o.Session.slot(); slot != nil && !slot.Disabled() {
			// what names the content (the index's stat data) is read
			// while the configuration is, not after it
			go ids.ContentID("")
		}
	}
	return ws, nil
}

// LoadConfig resolves the configuration of a workspace: the flags in o
// (--dir, --color), MEMCITE_* variables, git config memcite.* and the team
// file, which is MEMCITE_CONFIG (a path on disk) or .memcite.yaml read
// from the checked content (the index copy with --staged, the commit's
// with --rev).
func (ws *Workspace) LoadConfig(ctx context.Context, o OpenOptions) (*config.Config, error) {
	l := config.Layers{Flags: map[string][]string{}, Getenv: os.Getenv}
	if len(o.Dirs) > 0 {
		l.Flags["dirs"] = o.Dirs
	}
	if o.Color != "" {
		l.Flags["color"] = []string{o.Color}
	}
	if ws.Repo != nil {
		vals, err := ws.GitConfigMemcite(ctx)
		if err != nil {
			return nil, err
		}
		l.Git = func(key string) ([]string, error) { return vals[strings.ToLower(key)], nil }
	}
	data, err := ws.teamFile(&l, o.ConfigFile)
	if err != nil {
		return nil, err
	}
	if l.FileName != "" {
		if l.File, err = config.ParseFile(l.FileName, data); err != nil {
			return nil, err
		}
	}
	return config.Resolve(l)
}

// teamFile reads the team configuration file, naming it in l.FileName
// ("" when there is none).
func (ws *Workspace) teamFile(l *config.Layers, configFile string) ([]byte, error) {
	if p := configFile; p != "" {
		trace.Printf("read config %s (MEMCITE_CONFIG)", p)
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("MEMCITE_CONFIG: %w", err)
		}
		l.FileName = p
		return data, nil
	}
	if u, ok := ws.Src.(source.Untracker); ok && u.Untracked(config.FileName) {
		// a repository's working tree asks git whether an untracked file
		// is ignored before reading it (a git process): not for a file
		// that is not there
		if _, err := os.Lstat(filepath.Join(ws.Top, config.FileName)); errors.Is(err, fs.ErrNotExist) {
			trace.Printf("no %s in the %s", config.FileName, ws.Src.Name())
			return nil, nil
		}
	}
	data, err := ws.Src.ReadFile(config.FileName)
	switch {
	case err == nil:
		trace.Printf("read config %s from the %s", config.FileName, ws.Src.Name())
		l.FileName = config.FileName
		return data, nil
	case errors.Is(err, source.ErrNotExist):
		trace.Printf("no %s in the %s", config.FileName, ws.Src.Name())
		return nil, nil
	}
	return nil, fmt.Errorf("read %s: %w", config.FileName, err)
}

// GitConfigMemcite reads every memcite.* key with one git process (git's
// rules: -c, includes, worktree config), keyed by lower-case name.
func (ws *Workspace) GitConfigMemcite(ctx context.Context) (map[string][]string, error) {
	if ws.GitConfig != nil {
		return ws.GitConfig, nil // read once per run (the hooks read it first)
	}
	all, err := ws.Repo.Config(ctx)
	if err != nil {
		return nil, err
	}
	var vals map[string][]string
	for k, v := range all {
		if strings.HasPrefix(k, "memcite.") {
			if vals == nil {
				vals = map[string][]string{}
			}
			vals[k] = v
		}
	}
	if vals == nil {
		return nil, nil // no such keys
	}
	ws.GitConfig = vals
	return vals, nil
}

// DropIgnored removes the memories that match the ignore globs.
func (ws *Workspace) DropIgnored() {
	if len(ws.Cfg.Get("ignore").Values) == 0 {
		return
	}
	kept := ws.Store.Memories[:0]
	for _, m := range ws.Store.Memories {
		if ws.Cfg.Ignored(m.Path) {
			trace.Printf("ignore %s (matches ignore)", m.Path)
			continue
		}
		kept = append(kept, m)
	}
	ws.Store.Memories = kept
}

// MemoryDirs returns the repo-relative memory directories the
// configuration names (--dir, MEMCITE_DIR, git config memcite.dir,
// .memcite.yaml), else the default.
func (ws *Workspace) MemoryDirs() ([]string, error) {
	var dirs []string
	if ws.Cfg != nil {
		dirs = ws.Cfg.Get("dirs").Values
	}
	if len(dirs) == 0 {
		return []string{store.DefaultDir}, nil
	}
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		if filepath.IsAbs(d) {
			rel, err := filepath.Rel(ws.Top, d)
			if err != nil || strings.HasPrefix(rel, "..") {
				return nil, fmt.Errorf("memory directory %s is outside the repository %s", d, ws.Top)
			}
			d = rel
		}
		c, err := source.Clean(filepath.ToSlash(d))
		if err != nil {
			return nil, fmt.Errorf("memory directory %s: %w", d, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// Select returns the memories named by args (every memory when there are
// none). A name that resolves to nothing is left out and its error
// returned in errs, so that the others are still processed.
func (ws *Workspace) Select(ctx context.Context, args []string) (mems []*store.Memory, errs []error) {
	if len(args) == 0 {
		return ws.Store.Memories, nil
	}
	for _, arg := range args {
		m, err := ws.Resolve(ctx, arg)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		mems = append(mems, m)
	}
	return mems, errs
}

// Resolve finds the memory an argument names: a file path (relative to the
// current directory or the repository root), then an id or name in the
// memory directories.
func (ws *Workspace) Resolve(ctx context.Context, arg string) (*store.Memory, error) {
	if slashed := filepath.ToSlash(arg); strings.HasSuffix(arg, ".md") || strings.Contains(slashed, "/") {
		for _, p := range []string{path.Join(ws.CwdRel, slashed), slashed} {
			c, err := source.Clean(p)
			if err != nil {
				if errors.Is(err, source.ErrOutside) {
					return nil, fmt.Errorf("%s: outside the repository", arg)
				}
				continue
			}
			if m, err := ws.Store.Resolve(c); err == nil && m.Path == c {
				return m, nil
			}
			if e, err := ws.Src.Stat(c); err == nil && e.Kind == source.KindFile {
				m := store.LoadFile(ctx, ws.Src, c, path.Dir(c), ws.Cache())
				if m.ID == "" || (m.File != nil && m.File.ID == "") {
					m.ID = strings.TrimSuffix(path.Base(c), ".md")
				}
				return m, nil
			}
		}
	}
	return ws.Store.Resolve(arg)
}

// Editable resolves a memory that can be rewritten: one that parsed.
func (ws *Workspace) Editable(ctx context.Context, arg string) (*store.Memory, error) {
	m, err := ws.Resolve(ctx, arg)
	if err != nil {
		return nil, err
	}
	if m.Err != nil {
		return nil, m.Err
	}
	return m, nil
}

// CiteEnv is what package cite needs: the working tree, HEAD and the
// clock (SOURCE_DATE_EPOCH pins it).
func (ws *Workspace) CiteEnv(ctx context.Context) (cite.Env, error) {
	e := cite.Env{Src: ws.Src, Now: time.Now()}
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		sec, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return e, fmt.Errorf("SOURCE_DATE_EPOCH=%q is not a number of seconds", s)
		}
		e.Now = time.Unix(sec, 0)
	}
	if ws.Repo == nil {
		return e, nil
	}
	h, ok, err := ws.Repo.Head()
	if err != nil || !ok {
		return e, err
	}
	head, err := ws.Repo.Commit(ctx, h)
	if err != nil {
		return e, err
	}
	e.Head, e.HeadRev = head, h.String()
	return e, nil
}

// Tracked lists the files citations may point to: the index in a
// repository, else every file of the working tree.
func (ws *Workspace) Tracked(ctx context.Context) (*cite.Tracked, error) {
	if ws.Repo == nil {
		paths, err := ws.Src.List(".")
		if err != nil {
			return nil, err
		}
		return cite.NewTracked(paths), nil
	}
	idx, err := ws.Repo.Index(ctx)
	if err != nil {
		return nil, err
	}
	paths, err := idx.List(".")
	if err != nil {
		return nil, err
	}
	return cite.NewTracked(paths), nil
}

// WritePlan writes a planned edit of memory m (package cite) under the
// rewrite lock, when the file still holds what was read.
func (ws *Workspace) WritePlan(ctx context.Context, m *store.Memory, plan *cite.Plan) error {
	unlock, err := Lock(ctx, ws.Repo)
	if err != nil {
		return err
	}
	defer unlock()
	return WriteMemory(ws.Repo, ws.Top, m.Path, plan.Old, plan.New)
}

// RecomputeConfidence plans setting m's confidence to its valid/total
// citations, stamping last_verified; it returns the plan and m's
// verification.
func (ws *Workspace) RecomputeConfidence(ctx context.Context, m *store.Memory) (*cite.Plan, *verify.MemoryResult, error) {
	rep, err := Verify(ctx, ws, []*store.Memory{m})
	if err != nil {
		return nil, nil, err
	}
	r := &rep.Memories[0]
	cenv, err := ws.CiteEnv(ctx)
	if err != nil {
		return nil, nil, err
	}
	plan, err := cite.SetConfidence(m.File, r.Confidence, cenv.Stamp())
	return plan, r, err
}

// OpenGraph lists the memories of the working tree without reading them
// (memory directories and ignore patterns from the configuration), for
// the graph commands.
func OpenGraph(ctx context.Context, o OpenOptions) (*graph.Graph, error) {
	o.Staged, o.Rev = false, ""
	ws, err := Open(ctx, o)
	if err != nil {
		return nil, err
	}
	dirs, err := ws.MemoryDirs()
	if err != nil {
		return nil, err
	}
	g, err := graph.New(ws.Src, dirs, ws.Cfg.Ignored)
	if err != nil {
		return nil, err
	}
	g.Cache = ws.Cache()
	g.NoProse = ws.ProseLevel() == "off"
	return g, nil
}
