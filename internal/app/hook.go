package app

import (
	"context"
	"errors"
	"io/fs"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/git-memcite/git-memcite/hooks"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/hookrun"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/trace"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// Hook is a git hook's run, set up: the repository, the hook settings
// (memcite.* from git config, read once) and the memory directories,
// resolved against what the hook looks at (the index for pre-commit and
// pre-merge-commit, the working tree after a change).
type Hook struct {
	Repo *gitrepo.Repo
	Cfg  hookrun.Config
	Src  source.Source
	Dirs []string
	Pre  bool // pre-commit or pre-merge-commit
	// Off is true when the settings turn this hook off (memcite.enabled,
	// memcite.preCommit off, memcite.postMerge off): nothing else is set
	// but Repo and Cfg.
	Off bool

	// a commit hook's summaries (docs/cache.md): HEAD's, when kept, and
	// the tree the index records, when it can be had ("" when not)
	sum  *vcache.Summary
	tree gitrepo.OID
	tool string // the cache's tool identity; "" when the cache is off
	// configFile: MEMCITE_CONFIG names the team configuration
	configFile bool
	// refsTool is the tool identity of the cache of prose references
	// (proseprecommit.go); "" when the cache is off
	refsTool string
	slot     *vcache.Slot // the run's cache slot (OpenOptions.Session)
}

// HookConfig reads the hook settings (memcite.enabled, memcite.preCommit,
// memcite.postMerge) of the repository o names, as OpenHook does, for a
// hook run outside a commit: configuration read once, by the repository
// (gitrepo.Repo.Config: git's rules, in-process where that is certain).
func HookConfig(ctx context.Context, o OpenOptions) (hookrun.Config, error) {
	repo, err := discover(o)
	if err != nil {
		return hookrun.ConfigFrom(nil), err
	}
	raw, err := (&Workspace{Repo: repo, Top: repo.Top}).GitConfigMemcite(ctx)
	if err != nil {
		return hookrun.ConfigFrom(nil), err
	}
	return hookrun.ConfigFrom(raw), nil
}

// OpenHook sets up the hook in: it finds the repository from o.RepoRoot,
// opens the run's verification cache (o.Session) there, reads the hook
// settings and, unless they turn the hook off, the configuration
// (memory directories: flags > MEMCITE_DIR > git config > .memcite.yaml >
// default; a commit hook reads .memcite.yaml from what is being
// committed, like the memories).
func OpenHook(ctx context.Context, o OpenOptions, in hookrun.Invocation) (*Hook, *Workspace, error) {
	repo, err := discover(o)
	if err != nil {
		return nil, nil, err
	}
	slot := o.Session.slot()
	openCache := func() { slot.Open(repo.GitDir, repo.TempDir(), o.CacheTool) }
	summaries := slot != nil && !slot.Disabled() // summaries are part of the cache
	pre := hooks.Pre(in.Hook)
	// a commit hook reads the index and looks for the summary of HEAD's
	// tree: start now, while the configuration is read (wasted only
	// when the settings turn the hook off); every return waits for
	// them, since the run closes the repository. With a summary, the
	// verification cache is not opened: the few memory files the commit
	// touches are read faster than the cache decodes.
	var (
		index    source.Source
		indexErr error
		tree     gitrepo.OID
		sum      *vcache.Summary
		reading  sync.WaitGroup
	)
	if pre {
		reading.Go(func() {
			start := time.Now()
			if index, indexErr = repo.Index(ctx); indexErr == nil && summaries {
				tree, _ = gitrepo.IndexTree(index)
			}
			trace.Printf("read the index (its tree %s) in %s", tree.Short(), time.Since(start).Round(time.Millisecond))
		})
	}
	switch {
	case pre && summaries:
		reading.Go(func() {
			if sum = readHeadSummary(ctx, repo, o.CacheTool); sum == nil {
				openCache()
			}
		})
	case pre:
		openCache()
	}
	// (a post-* hook opens the cache once it knows whether a summary
	// spares it reading every memory file: PostChange)
	defer reading.Wait()
	ws := &Workspace{Repo: repo, Top: repo.Top, cache: slot}
	raw, err := ws.GitConfigMemcite(ctx)
	if err != nil {
		return nil, nil, err
	}
	if raw == nil {
		ws.GitConfig = map[string][]string{}
	}
	h := &Hook{Repo: repo, Cfg: hookrun.ConfigFrom(raw), Pre: pre, configFile: o.ConfigFile != "", slot: slot}
	if summaries {
		h.refsTool = o.CacheTool
	}
	if !h.Cfg.Enabled || (h.Pre && h.Cfg.PreCommit == hookrun.Off) || (!h.Pre && h.Cfg.PostMerge == hookrun.PostOff) {
		h.Off = true
		return h, ws, nil
	}
	if h.Pre {
		reading.Wait()
		ws.Src, err = index, indexErr
		if summaries && tree != "" {
			h.tree, h.tool = tree, o.CacheTool
		}
	} else {
		if summaries {
			h.tool = o.CacheTool // the result's summary is written
		}
		ws.Src, err = repo.Worktree()
	}
	if err != nil {
		return nil, nil, err
	}
	h.Src = ws.Src
	if ws.Cfg, err = ws.LoadConfig(ctx, o); err != nil {
		return nil, nil, err
	}
	if h.Dirs, err = ws.MemoryDirs(); err != nil {
		return nil, nil, err
	}
	if h.tree != "" && sum != nil && slices.Equal(sum.Dirs, h.Dirs) && h.Cfg.PreCommit != hookrun.Strict {
		h.sum = sum
	} else if sum != nil {
		openCache() // the summary cannot be used after all
	}
	return h, ws, nil
}

// readHeadSummary reads the summary of HEAD's tree or, when commits were
// made without the check since, the newest summary of a tree git has (the
// index is then compared with that tree too); nil when there is none.
func readHeadSummary(ctx context.Context, repo *gitrepo.Repo, tool string) *vcache.Summary {
	start := time.Now()
	head, born, err := repo.HeadTree(ctx)
	if err != nil || !born {
		return nil
	}
	dir := vcache.Dir(repo.GitDir)
	sum := vcache.ReadSummary(dir, tool, string(head))
	if sum == nil {
		sum = vcache.ReadLatestSummary(dir, tool, func(tree string) bool { return repo.HasTree(gitrepo.OID(tree)) })
	}
	if sum != nil {
		trace.Printf("read the summary of tree %s in %s", gitrepo.OID(sum.Tree).Short(), time.Since(start).Round(time.Millisecond))
	}
	return sum
}

// openCache opens the verification cache of the hook's run: when every
// memory file is read after all, the cache is worth its decoding.
func (h *Hook) openCache(ctx context.Context) {
	h.slot.Open(h.Repo.GitDir, h.Repo.TempDir(), h.tool)
}

// HookResult is what a hook found: the comparison, the relocation hints
// for the citations it reports, and what the post-merge policy applied.
type HookResult struct {
	Outcome *hookrun.Outcome
	Items   []relocate.Item
	// RelocErr says why there are no relocation hints (a warning: the
	// hook's verdict stands without them).
	RelocErr error
	// Blocked is true when the commit must not go on (pre-commit and
	// pre-merge-commit under memcite.preCommit block or strict).
	Blocked bool
	// Applied, ApplySkipped and ApplyFailed are memcite.postMerge fix's
	// writes: the memory files updated, why none were (an operation in
	// progress), and the files that could not be.
	Applied      []string
	ApplySkipped string
	ApplyFailed  []error
	// Fixed are memcite.preCommit fix's rewrites: the memory files whose
	// moved citations were relocated and added to the commit, with how
	// many citations each; NotFixed says why a memory file that needed it
	// was not rewritten (its path: the reason).
	Fixed    []FixedFile
	NotFixed map[string]string
	fixed    map[citeRef]bool
}

// CitationRef names a citation: its memory file and index.
type CitationRef struct {
	Path  string
	Index int
}

// FixedCitations lists the citations memcite.preCommit fix relocated.
func (r *HookResult) FixedCitations() []CitationRef {
	var out []CitationRef
	for k := range r.fixed {
		out = append(out, CitationRef{k.path, k.index})
	}
	return out
}

// FixedFile is a memory file the pre-commit hook fixed and staged.
type FixedFile struct {
	Path      string
	Citations int
}

// PreCommit checks what is being committed against HEAD (incrementally,
// older staleness counted from the verification cache) and, for the
// citations that block or drift, where their lines went between HEAD and
// the index.
func (h *Hook) PreCommit(ctx context.Context) (*HookResult, error) {
	out, err := hookrun.PreCommit(ctx, h.Repo, h.Src, h.Dirs, hookrun.PreCommitOptions{
		Full:       h.Cfg.PreCommit == hookrun.Strict,
		ConfigFile: h.configFile,
		KnownStale: func(_ context.Context, src source.Source, mems []*store.Memory) []int {
			return verify.KnownStale(src, mems, h.slot.Cache())
		},
		Summary:  h.sum,
		Tree:     string(h.tree),
		FullLoad: func() { h.openCache(ctx) },
		Cache:    h.slot,
	})
	if err != nil {
		return nil, err
	}
	res := &HookResult{Outcome: out}
	h.writeSummary(out.Summary, h.sum)
	// Citations without a snippet still verify when the commit moves the
	// code under them: look at those whose file the commit changes.
	var drift *hookrun.Drift
	if hookrun.HasDriftable(out.Report) {
		// (StagedSet fails on an unborn branch: nothing can drift)
		if out.Staged != nil {
			drift = &hookrun.Drift{Staged: out.Staged}
		} else if staged, err := hookrun.StagedSet(ctx, h.Repo, h.Src); err == nil {
			drift = &hookrun.Drift{Staged: staged}
		}
	}
	var files []relocate.File
	if len(out.Blocking(hookrun.Block)) > 0 || drift != nil {
		// HEAD to the index in one step: no history walk on the commit path.
		// A relocated citation's commit field is dropped (Dirty): the
		// commit it will be valid at is the one being made.
		opt := relocate.Options{Dirty: func(string) bool { return true }}
		res.Items, files, res.RelocErr = hookrun.Relocation(ctx, h.Repo, "HEAD", "HEAD", out.After, out, drift, opt)
	}
	if h.Cfg.PreCommit == hookrun.Warn {
		return res, nil
	}
	// What blocks: the stale citations of the policy, and the citations
	// whose lines the commit moved, edited or deleted (line identity).
	blocking := map[citeRef]bool{}
	for _, s := range out.Blocking(h.Cfg.PreCommit) {
		blocking[citeRef{s.Memory.Path, s.Result.Citation.Index}] = true
	}
	for _, it := range out.Drifted {
		blocking[citeRef{it.Memory.Path, it.Citation.Index}] = true
	}
	if h.Cfg.PreCommit == hookrun.Fix && len(files) > 0 && res.RelocErr == nil {
		res.fixed = h.fix(ctx, res, files)
		for k := range res.fixed {
			delete(blocking, k)
		}
	}
	res.Blocked = len(blocking) > 0
	for _, b := range out.Broken {
		res.Blocked = res.Blocked || b.Changed || h.Cfg.PreCommit == hookrun.Strict
	}
	return res, nil
}

// citeRef names a citation: its memory file and index.
type citeRef struct {
	path  string
	index int
}

// fix is memcite.preCommit fix: each memory file of the plan whose
// citations the commit only moved is rewritten in the working tree and
// added to the commit, when the working tree holds exactly what is
// staged (never otherwise: nothing unstaged is lost or committed). It
// returns the citations fixed.
func (h *Hook) fix(ctx context.Context, res *HookResult, files []relocate.File) map[citeRef]bool {
	fixed := map[citeRef]bool{}
	res.NotFixed = map[string]string{}
	unlock, err := Lock(ctx, h.Repo)
	if err != nil {
		for _, f := range files {
			res.NotFixed[f.Memory.Path] = err.Error()
		}
		return fixed
	}
	defer unlock()
	for _, f := range files {
		p := f.Memory.Path
		err := WriteMemory(h.Repo, h.Repo.Top, p, f.Old, f.New)
		switch {
		case errors.Is(err, memfile.ErrChanged), errors.Is(err, fs.ErrNotExist):
			res.NotFixed[p] = "it has changes that are not staged; stage or stash them, then commit again"
			continue
		case err != nil:
			res.NotFixed[p] = err.Error()
			continue
		}
		if err := h.Repo.Stage(ctx, []string{p}); err != nil {
			// put the working tree back: the index still holds the old file
			_ = WriteMemory(h.Repo, h.Repo.Top, p, f.New, f.Old)
			res.NotFixed[p] = err.Error()
			continue
		}
		n := 0
		for _, it := range res.Items {
			if it.Memory == f.Memory && (it.Action == relocate.Move || it.Action == relocate.Accept) {
				fixed[citeRef{p, it.Citation.Index}] = true
				n++
			}
		}
		res.Fixed = append(res.Fixed, FixedFile{Path: p, Citations: n})
	}
	return fixed
}

// PostChange reports what a merge, rebase, amend or checkout (in, with
// post-rewrite's stdin) made stale, where the lines went, and applies the
// fixes when memcite.postMerge is fix. ok is false when the hook has
// nothing to compare (a file checkout, a first checkout).
func (h *Hook) PostChange(ctx context.Context, in hookrun.Invocation, stdin []byte) (res *HookResult, ok bool, err error) {
	rng, ok, err := hookrun.PostRange(ctx, h.Repo.Top, in, stdin)
	if err != nil || !ok {
		return nil, false, err
	}
	opt := hookrun.PostOptions{Summarize: h.tool != "", FullLoad: func() { h.openCache(ctx) }, Cache: h.slot}
	if h.tool != "" {
		opt.Summary = h.postSummary(ctx, rng)
	}
	out, err := hookrun.PostChange(ctx, h.Repo, rng, h.Dirs, opt)
	if err != nil {
		return nil, false, err
	}
	h.writeSummary(out.Summary, opt.Summary)
	res = &HookResult{Outcome: out}
	before, after, view := rng.Old, rng.New, source.Source(nil)
	ropt := relocate.Options{Commit: rng.New, Verified: Now()}
	if rng.Squash {
		after, view = rng.Old, out.After
		ropt.Commit = "" // the result is not committed yet
	}
	var files []relocate.File
	res.Items, files, res.RelocErr = hookrun.Relocation(ctx, h.Repo, before, after, view, out, &hookrun.Drift{}, ropt)
	if h.Cfg.PostMerge == hookrun.ApplyFixes && len(files) > 0 {
		res.Applied, res.ApplySkipped, res.ApplyFailed = ApplyRelocations(ctx, h.Repo, in, files)
	}
	return res, true, nil
}

// postSummary returns the summary a check of the change rng starts from:
// that of the tree before the change, when a check left one; else that of
// the result's tree (pre-merge-commit leaves it for a merge); else the
// newest summary of a tree the repository holds. Only what the change
// touches, and what differs between that tree and the result, is read.
func (h *Hook) postSummary(ctx context.Context, rng hookrun.Range) *vcache.Summary {
	dir := vcache.Dir(h.Repo.GitDir)
	for _, rev := range []string{rng.Old, rng.New} {
		if rev == "" || (rev == rng.New && rng.Squash) {
			continue
		}
		c, err := h.Repo.ResolveCommit(ctx, rev)
		if err != nil {
			continue
		}
		if tree, err := h.Repo.TreeOf(ctx, c); err == nil {
			if s := vcache.ReadSummary(dir, h.tool, string(tree)); s != nil {
				return s
			}
		}
	}
	return vcache.ReadLatestSummary(dir, h.tool, func(tree string) bool { return h.Repo.HasTree(gitrepo.OID(tree)) })
}

// writeSummary keeps s, the summary of a tree the hook checked, for the
// next commit's check (whose HEAD may record that tree). A summary that
// cannot be written only costs the next commit time. read is the summary
// the check started from: when it is s already (a post-merge check after
// the merge's pre-merge-commit check, a commit of an unchanged tree), it
// is kept as it is, reading it having marked it used.
func (h *Hook) writeSummary(s, read *vcache.Summary) {
	if s == nil || h.tool == "" {
		return
	}
	if read != nil && read.Tree == s.Tree && reflect.DeepEqual(read, s) {
		trace.Printf("the summary of tree %s is unchanged", gitrepo.OID(s.Tree).Short())
		return
	}
	start := time.Now()
	if err := vcache.WriteSummary(vcache.Dir(h.Repo.GitDir), h.Repo.TempDir(), h.tool, s); err != nil {
		trace.Printf("hook: %v", err)
		return
	}
	trace.Printf("wrote the summary of tree %s in %s", gitrepo.OID(s.Tree).Short(), time.Since(start).Round(time.Millisecond))
}
