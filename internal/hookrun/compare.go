package hookrun

import (
	"bytes"
	"context"
	"errors"
	"sort"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/trace"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// Class says how a stale citation relates to the change being checked.
type Class int

// Classes of stale citations.
const (
	// Introduced: valid before the change, stale after it.
	Introduced Class = iota
	// InChangedMemory: in a memory file the change adds or edits.
	InChangedMemory
	// NoHistory: there is nothing before the change (the first commit).
	NoHistory
	// Preexisting: stale before the change too, in a memory file the
	// change does not touch.
	Preexisting
)

// Blocks reports whether a stale citation of this class blocks a commit
// under the policy.
func (c Class) Blocks(p PreCommitPolicy) bool {
	switch p {
	case Strict:
		return true
	case Block, Fix:
		return c != Preexisting
	}
	return false
}

// StaleCitation is a stale citation and how the change relates to it.
type StaleCitation struct {
	Memory *store.Memory
	Result verify.CitationResult
	Class  Class
}

// Outcome is the result of checking a change.
type Outcome struct {
	Source    string        // what was checked: "index", "commit 1a2b…"
	After     source.Source // the content checked, for follow-up reads
	Memories  int           // memory files checked
	Citations int           // verifiable citations checked
	Stale     []StaleCitation
	// Broken are memory files that cannot be read or parsed; Changed tells
	// whether the change touches them.
	Broken []BrokenMemory
	// Report is the verification of After (nil when there were no memory
	// directories).
	Report *verify.Report
	// Drifted are citations that still verify but whose lines the change
	// moved, edited or deleted (Relocation fills it in for post-* hooks):
	// without a snippet, verify only checks that the line exists.
	Drifted []relocate.Item
	Elapsed time.Duration

	// Partial: only the memories the change can affect were verified
	// (PreCommit). Unchecked counts the others: the change touches
	// neither their memory files nor the paths they cite, so each
	// verdict is the one before the change, where a stale citation can
	// only be Preexisting and a broken file is not Changed (those are in
	// Broken). UncheckedStale is how many of their citations are stale,
	// when UncheckedKnown (from PreCommitOptions.KnownStale, or when
	// there is nothing to count).
	Partial        bool
	Unchecked      int
	UncheckedStale int
	UncheckedKnown bool
	// Staged lists the paths the commit changes, when a partial check
	// asked git for them.
	Staged map[string]bool
	// Summary is the summary of the content checked (PreCommit, when
	// PreCommitOptions.Tree names its tree), for the next commit's check.
	Summary *vcache.Summary
}

// AlreadyStale counts the stale citations that were already stale before
// the change, in memory files it does not touch (class Preexisting, and
// those of the unchecked memories); known is false when a partial check
// cannot tell.
func (o *Outcome) AlreadyStale() (n int, known bool) {
	n = o.Count(Preexisting)
	if !o.Partial {
		return n, true
	}
	return n + o.UncheckedStale, o.UncheckedKnown
}

// BrokenMemory is a memory file that cannot be read or parsed.
type BrokenMemory struct {
	Memory  *store.Memory
	Changed bool // added or edited by the change
}

// Blocking returns the stale citations that block a commit under p.
func (o *Outcome) Blocking(p PreCommitPolicy) []StaleCitation {
	var out []StaleCitation
	for _, s := range o.Stale {
		if s.Class.Blocks(p) {
			out = append(out, s)
		}
	}
	return out
}

// Count returns how many stale citations have the class.
func (o *Outcome) Count(c Class) int {
	n := 0
	for _, s := range o.Stale {
		if s.Class == c {
			n++
		}
	}
	return n
}

// Before opens the content before a change; paths are the files the caller
// will read from it (it may return a source limited to them).
type Before func(paths []string) (source.Source, error)

// Compare verifies every memory in the memory directories of after and
// classifies each stale citation against before (nil when there is no
// before, as for a first commit). before is only called when something
// is stale, and only the memories with stale citations are verified
// against it: a memory file identical before and after holds the same
// citations, so the before verdict of exactly those citations tells
// "made stale by the change" from "already stale". The work done on
// before is thus proportional to what is stale, never to the repository.
func Compare(ctx context.Context, after source.Source, before Before, dirs []string) (*Outcome, error) {
	return compare(ctx, after, before, dirs, plan{scopeOf: func() *scope { return nil }})
}

// scope limits a check to the memories a change can affect.
type scope struct {
	sel   *Selection
	known KnownStale
	// sumOK: the plan's summary can be used; drift, when not nil, is what
	// changed between the summary's tree and the content checked, when
	// that tree is not the one before the change (commits made without
	// the check since).
	sumOK bool
	drift *Selection
}

// plan is how compare goes about a check.
type plan struct {
	// scopeOf is called once: after the memories are loaded, or before
	// when there is a summary to choose them by. It may wait for work
	// done meanwhile (asking git what the commit changes); nil means
	// everything.
	scopeOf func() *scope
	// sum is the summary of the content before the change, when there is
	// one; tree names after's tree, to summarize it ("" for none).
	sum  *vcache.Summary
	tree string
	// fullLoad, when not nil, is called before every memory file is
	// loaded although there is a summary (it cannot be used).
	fullLoad func()
	// cache is the run's verification cache (nil: none).
	cache *vcache.Slot
}

// compare is Compare, limited to what the scope selects when it is not
// nil.
func compare(ctx context.Context, after source.Source, before Before, dirs []string, p plan) (*Outcome, error) {
	start := time.Now()
	out := &Outcome{Source: after.Name(), After: after}
	var (
		mems []*store.Memory
		sc   *scope
		sv   *summaryView
	)
	present := presentDirs(after, dirs)
	if p.sum != nil && len(present) > 0 {
		// the summary says which memories to load: learn the scope first
		var err error
		if mems, err = store.Find(after, present); err != nil {
			return nil, err
		}
		if sc = p.scopeOf(); sc != nil {
			sv = viewSummary(p.sum, dirs, mems, sc)
		}
		if sv == nil && p.fullLoad != nil {
			p.fullLoad()
		}
		if err := loadMemories(ctx, after, mems, sv, p.cache.Cache()); err != nil {
			return nil, err
		}
	} else {
		st, err := loadStore(ctx, after, present, p.cache.Cache())
		sc = p.scopeOf()
		if err != nil {
			return nil, err
		}
		if st != nil {
			mems = st.Memories
		}
	}
	if len(present) > 0 {
		checked := mems
		var counts map[*store.Memory]int
		if sc != nil {
			checked, counts = out.restrict(ctx, after, mems, sc, sv)
			if p.tree != "" && sv == nil {
				// a summary made from scratch: what KnownStale could not
				// count is verified once, so that the commits after this
				// one know every count without reading anything
				if err := out.countUnknown(ctx, after, counts, p.cache.Cache()); err != nil {
					return nil, err
				}
			}
		}
		suspects, err := out.check(ctx, after, checked, p.cache.Cache())
		if err != nil {
			return nil, err
		}
		if err := out.classify(ctx, after, before, suspects, p.cache.Cache()); err != nil {
			return nil, err
		}
		if sc != nil {
			sortBroken(out.Broken, mems)
		}
		if p.tree != "" {
			out.Summary = summarize(p.tree, dirs, after, mems, out.Report, counts, sv)
		}
	} else if p.tree != "" {
		out.Summary = summarize(p.tree, dirs, after, nil, nil, nil, nil)
	}
	out.Elapsed = time.Since(start)
	trace.Printf("hook check of the %s: %d of %d memories verified (%d citations), %d stale, in %s",
		out.Source, out.Memories, out.Memories+out.Unchecked, out.Citations, len(out.Stale), out.Elapsed.Round(time.Millisecond))
	return out, nil
}

// presentDirs returns the memory directories after holds.
func presentDirs(after source.Source, dirs []string) []string {
	var present []string
	for _, d := range dirs {
		if _, err := after.Stat(d); errors.Is(err, source.ErrNotExist) {
			continue // no memories there (yet)
		}
		present = append(present, d)
	}
	return present
}

// loadStore reads the memories of the memory directories present; nil
// when there are none (no memories yet).
func loadStore(ctx context.Context, after source.Source, present []string, cache *vcache.Cache) (*store.Store, error) {
	if len(present) == 0 {
		return nil, nil
	}
	start := time.Now()
	st, err := store.Load(ctx, after, present, cache)
	if err == nil {
		trace.Printf("loaded %d memory files from the %s in %s", len(st.Memories), after.Name(), time.Since(start).Round(time.Millisecond))
	}
	return st, err
}

// restrict returns the memories of mems the selection of sc keeps. The
// others keep the verdict they had before the change: a broken one is
// listed as broken and not changed; the stale citations of the others
// are counted by the summary sv (those it left unloaded) and sc.known,
// when there is one and it knows. counts holds what sc.known said of
// each memory it was asked about (-1: it does not know).
func (o *Outcome) restrict(ctx context.Context, after source.Source, mems []*store.Memory, sc *scope, sv *summaryView) (kept []*store.Memory, counts map[*store.Memory]int) {
	o.Partial = true
	var rest []*store.Memory
	known := true
	for i, m := range mems {
		if r := sv.unloaded(i); r != nil {
			o.Unchecked++
			if r.Stale < 0 {
				known = false
			}
			o.UncheckedStale += max(r.Stale, 0)
			continue
		}
		switch {
		case sc.sel.Affects(m) || sv.mustVerify(i):
			kept = append(kept, m)
			continue
		case m.Err != nil:
			o.Broken = append(o.Broken, BrokenMemory{Memory: m})
		case m.File != nil && !m.File.Exempt:
			rest = append(rest, m)
		}
		o.Unchecked++
	}
	if len(rest) > 0 {
		var got []int
		if sc.known != nil {
			got = sc.known(ctx, after, rest)
		}
		counts = make(map[*store.Memory]int, len(rest))
		for i, m := range rest {
			n := -1
			if i < len(got) {
				n = got[i]
			}
			counts[m] = n
			if n < 0 {
				known = false
			}
			o.UncheckedStale += max(n, 0)
		}
	}
	o.UncheckedKnown = known
	if !known {
		o.UncheckedStale = 0
	}
	return kept, counts
}

// countUnknown verifies the memories counts has no count of (-1) and
// fills in their counts, for the summary.
func (o *Outcome) countUnknown(ctx context.Context, after source.Source, counts map[*store.Memory]int, cache *vcache.Cache) error {
	var unknown []*store.Memory
	for m, n := range counts {
		if n < 0 {
			unknown = append(unknown, m)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	start := time.Now()
	rep, err := verify.Check(ctx, after, unknown, verify.Options{Cache: cache})
	if err != nil {
		return err
	}
	for i := range rep.Memories {
		n := 0
		for _, c := range rep.Memories[i].Citations {
			if c.Status == verify.Stale {
				n++
			}
		}
		counts[rep.Memories[i].Memory] = n
	}
	// (this run's outcome says what it said without: what the cache knew)
	trace.Printf("hook: verified %d memories the cache had no count of, for the summary, in %s", len(unknown), time.Since(start).Round(time.Millisecond))
	return nil
}

// check verifies mems against after, fills in the report and its counts,
// and returns the memories with a stale citation or an error.
func (o *Outcome) check(ctx context.Context, after source.Source, mems []*store.Memory, cache *vcache.Cache) ([]*verify.MemoryResult, error) {
	rep, err := verify.Check(ctx, after, mems, verify.Options{Cache: cache})
	if err != nil {
		return nil, err
	}
	o.Report = rep
	o.Memories = len(mems)
	var suspects []*verify.MemoryResult
	for i := range rep.Memories {
		m := &rep.Memories[i]
		o.Citations += m.Total
		if m.Err() != nil || m.Stale() {
			suspects = append(suspects, m)
		}
	}
	return suspects, nil
}

// classify sorts the stale citations and broken memories of suspects
// into o.Stale and o.Broken, by what before says of them.
func (o *Outcome) classify(ctx context.Context, after source.Source, before Before, suspects []*verify.MemoryResult, cache *vcache.Cache) error {
	if len(suspects) == 0 {
		return nil
	}
	v, err := verdictsBefore(ctx, after, before, suspects, cache)
	if err != nil {
		return err
	}
	for _, m := range suspects {
		if m.Err() != nil {
			o.Broken = append(o.Broken, BrokenMemory{Memory: m.Memory, Changed: v.changed[m.Memory]})
			continue
		}
		for i, c := range m.Citations {
			if c.Status != verify.Stale {
				continue
			}
			o.Stale = append(o.Stale, StaleCitation{Memory: m.Memory, Result: c, Class: v.class(m.Memory, i)})
		}
	}
	return nil
}

// priorVerdicts is what the content before a change says of the suspects.
type priorVerdicts struct {
	none    bool                              // there is no before (a first commit)
	changed map[*store.Memory]bool            // the memory file differs
	status  map[*store.Memory][]verify.Status // citation verdicts of the unchanged ones
}

// verdictsBefore opens before for just the suspects and verifies the
// suspects whose memory file it holds unchanged.
func verdictsBefore(ctx context.Context, after source.Source, open Before, suspects []*verify.MemoryResult, cache *vcache.Cache) (*priorVerdicts, error) {
	b := &priorVerdicts{changed: map[*store.Memory]bool{}, status: map[*store.Memory][]verify.Status{}}
	var prev source.Source
	if open != nil {
		var err error
		if prev, err = open(neededBefore(suspects)); err != nil {
			return nil, err
		}
	}
	b.none = prev == nil
	var unchanged []*store.Memory
	for _, m := range suspects {
		c, err := memoryChanged(after, prev, m.Memory)
		if err != nil {
			return nil, err
		}
		b.changed[m.Memory] = c
		if !c && m.Err() == nil {
			unchanged = append(unchanged, m.Memory)
		}
	}
	if len(unchanged) == 0 {
		return b, nil
	}
	prevRep, err := verify.Check(ctx, prev, unchanged, verify.Options{Cache: cache})
	if err != nil {
		return nil, err
	}
	for i := range prevRep.Memories {
		pm := &prevRep.Memories[i]
		sts := make([]verify.Status, 0, len(pm.Citations))
		for _, c := range pm.Citations {
			sts = append(sts, c.Status)
		}
		b.status[pm.Memory] = sts
	}
	return b, nil
}

// class is the class of the i-th citation of m, stale after the change.
func (b *priorVerdicts) class(m *store.Memory, i int) Class {
	switch {
	case b.none:
		return NoHistory
	case b.changed[m]:
		return InChangedMemory
	case i < len(b.status[m]) && b.status[m][i] == verify.Valid:
		return Introduced
	}
	return Preexisting
}

// sortBroken puts broken in the order of the store's memories (a partial
// check lists the unchecked ones first).
func sortBroken(broken []BrokenMemory, mems []*store.Memory) {
	pos := make(map[*store.Memory]int, len(broken))
	for _, b := range broken {
		pos[b.Memory] = -1
	}
	for i, m := range mems {
		if _, ok := pos[m]; ok {
			pos[m] = i
		}
	}
	sort.SliceStable(broken, func(i, j int) bool { return pos[broken[i].Memory] < pos[broken[j].Memory] })
}

// neededBefore lists what Compare reads from before: the suspect memory
// files and the files their citations name.
func neededBefore(suspects []*verify.MemoryResult) []string {
	var paths []string
	for _, m := range suspects {
		paths = append(paths, m.Memory.Path)
		if m.Memory.File == nil {
			continue
		}
		for _, c := range m.Memory.File.Citations {
			if p, err := source.Clean(c.Path); err == nil && c.URL == "" {
				paths = append(paths, p)
			}
		}
	}
	return paths
}

// memoryChanged reports whether the memory file differs between after and
// prev (a file missing from prev is changed; so is everything when there
// is no prev).
func memoryChanged(after, prev source.Source, m *store.Memory) (bool, error) {
	if prev == nil {
		return true, nil
	}
	old, err := prev.ReadFile(m.Path)
	if errors.Is(err, source.ErrNotExist) || errors.Is(err, source.ErrNotRegular) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	cur := []byte(nil)
	if m.File != nil {
		cur = m.File.Src
	} else if cur, err = after.ReadFile(m.Path); err != nil {
		return true, nil
	}
	return !bytes.Equal(old, cur), nil
}

// PreCommitOptions tune PreCommit.
type PreCommitOptions struct {
	// Full verifies every memory, as memcite.preCommit=strict needs: it
	// blocks on stale citations the commit does not touch too.
	Full bool
	// ConfigFile: the team configuration is a file outside what is being
	// committed (MEMCITE_CONFIG), whose changes the commit cannot show:
	// every memory is checked.
	ConfigFile bool
	// KnownStale, when not nil, counts the stale citations of the
	// memories the check leaves unverified, for the one warning line
	// about older staleness. Without it nothing is said about them.
	KnownStale KnownStale
	// Summary is the summary of HEAD's tree, when one is known (made by
	// an earlier check for the same memory directories): the check then
	// reads only the memory files the commit can affect, and takes the
	// older stale counts of the others from it.
	Summary *vcache.Summary
	// Tree is the tree the index being committed records
	// (gitrepo.IndexTree); when set, the outcome carries its summary.
	Tree string
	// FullLoad, when not nil, is called when the check reads every memory
	// file although Summary was given (it does not fit: another tree
	// whose changes git cannot list, or changes to configuration since).
	FullLoad func()
	// Cache is the run's verification cache slot (nil: none), which
	// FullLoad may open.
	Cache *vcache.Slot
}

// KnownStale counts the stale citations of each of mems in src without
// verifying them (from a cache of earlier verdicts): counts[i] is
// mems[i]'s, -1 when it cannot say; nil when it knows nothing. PreCommit
// calls it at most once per run, with the memories the commit touches
// neither directly nor through the paths they cite: in src, the index
// being committed, their verdicts are those at HEAD. mems are parsed
// (File set), not exempt, in path order. It must not read the cited files
// (that is the work it saves) and must not guess: a count it is not sure
// of (a miss, a cache of another tree or tool version) is -1. A count is
// of citations with status verify.Stale, as verify-all reports them
// without a baseline.
type KnownStale func(ctx context.Context, src source.Source, mems []*store.Memory) (counts []int)

// PreCommit checks what is being committed, idx (the index git names in
// GIT_INDEX_FILE, the temporary index of 'git commit -a' or 'git commit
// <paths>' included, from repo.Index), against HEAD. It only reads: no
// index refresh, no stash, no working-tree write. On an unborn branch
// every stale citation is NoHistory.
//
// Only what the commit can change is verified: the memories whose file
// it adds, edits or renames, and those citing a path it changes (see
// Selection); the verdict of every other memory is HEAD's. Everything
// is verified when opt.Full, on an unborn branch, when the commit
// changes configuration that can alter any verdict (Select), or when
// the changed paths cannot be had.
func PreCommit(ctx context.Context, repo *gitrepo.Repo, idx source.Source, dirs []string, opt PreCommitOptions) (*Outcome, error) {
	// git lists the changed paths while the memories load
	type scoped struct {
		sc     *scope
		staged map[string]bool
	}
	done := make(chan scoped, 1)
	go func() {
		sc, staged := commitScope(ctx, repo, idx, dirs, opt)
		done <- scoped{sc, staged}
	}()
	var res scoped
	before := func(paths []string) (source.Source, error) {
		head, born, err := repo.Head()
		if err != nil || !born {
			return nil, err
		}
		// what the commit does not change (when git listed it), the
		// index has as HEAD has it
		return commitFiles(ctx, repo, head, paths, idx, res.staged)
	}
	out, err := compare(ctx, idx, before, dirs, plan{
		scopeOf: func() *scope {
			res = <-done
			return res.sc
		},
		sum:      opt.Summary,
		tree:     opt.Tree,
		fullLoad: opt.FullLoad,
		cache:    opt.Cache,
	})
	if out != nil {
		out.Staged = res.staged
	}
	return out, err
}

// commitScope decides what PreCommit verifies: nil for everything. It
// also returns the paths the commit changes, when it listed them.
func commitScope(ctx context.Context, repo *gitrepo.Repo, idx source.Source, dirs []string, opt PreCommitOptions) (*scope, map[string]bool) {
	if opt.Full {
		return nil, nil
	}
	if opt.ConfigFile {
		trace.Printf("hook: MEMCITE_CONFIG names the configuration: every memory is checked")
		return nil, nil
	}
	head, born, err := repo.HeadTree(ctx)
	switch {
	case err != nil:
		trace.Printf("hook: every memory is checked: %v", err)
		return nil, nil
	case !born:
		return nil, nil // a first commit: everything is new
	}
	// with a summary of another tree than HEAD's, also what changed since
	// that tree
	var (
		drift    []string
		driftErr error
	)
	sumTree := ""
	if opt.Summary != nil && string(head) != opt.Summary.Tree {
		sumTree = opt.Summary.Tree
		drift, driftErr = repo.IndexChanges(ctx, idx, gitrepo.OID(sumTree))
	}
	changed, err := repo.IndexChanges(ctx, idx, head)
	if err != nil {
		trace.Printf("hook: every memory is checked: %v", err)
		return nil, nil
	}
	staged := pathSet(changed)
	links, ok := gitrepo.Symlinks(idx)
	if !ok {
		return nil, staged
	}
	sel, ok := Select(changed, links, dirs)
	if !ok {
		trace.Printf("hook: the commit changes configuration or a memory directory: every memory is checked")
		return nil, staged
	}
	sc := &scope{sel: sel, known: opt.KnownStale, sumOK: opt.Summary != nil}
	if sumTree != "" {
		switch {
		case driftErr != nil:
			trace.Printf("hook: the summary of tree %s is not used: %v", sumTree, driftErr)
			sc.sumOK = false
		default:
			if sc.drift, sc.sumOK = Select(drift, links, dirs); !sc.sumOK {
				trace.Printf("hook: configuration or a memory directory changed since tree %s: its summary is not used", sumTree)
			} else {
				trace.Printf("hook: summary of tree %s, %d paths changed since", sumTree, len(drift))
			}
		}
	}
	return sc, staged
}

// StagedSet is the set of paths the commit of the index idx changes
// against HEAD (gitrepo.Repo.IndexChanges).
func StagedSet(ctx context.Context, repo *gitrepo.Repo, idx source.Source) (map[string]bool, error) {
	head, born, err := repo.HeadTree(ctx)
	if err != nil {
		return nil, err
	}
	if !born {
		return nil, errors.New("no HEAD: nothing to compare the index with")
	}
	paths, err := repo.IndexChanges(ctx, idx, head)
	if err != nil {
		return nil, err
	}
	return pathSet(paths), nil
}

func pathSet(paths []string) map[string]bool {
	set := make(map[string]bool, len(paths))
	for _, p := range paths {
		set[p] = true
	}
	return set
}

// PostOptions tune PostChange.
type PostOptions struct {
	// Summarize: the outcome carries the summary of the result's tree
	// (for the next commit's check), when its tree id can be had.
	Summarize bool
	// Summary is a summary of r.Old's tree, or of another tree the
	// repository holds (the result's, left by pre-merge-commit, or the
	// newest kept), when one is kept: then only the memories the change
	// can affect, and those that differ between the summary's tree and
	// the result, are verified, and the older stale citations of the
	// others are counted from it.
	Summary *vcache.Summary
	// FullLoad, when not nil, is called before every memory file is read.
	FullLoad func()
	// Cache is the run's verification cache slot (nil: none), which
	// FullLoad may open.
	Cache *vcache.Slot
}

// PostChange checks the result of a merge or rewrite (r.New, or the index
// after a squash merge) against r.Old.
func PostChange(ctx context.Context, repo *gitrepo.Repo, r Range, dirs []string, opt PostOptions) (*Outcome, error) {
	old, err := repo.ResolveCommit(ctx, r.Old)
	if err != nil {
		return nil, err
	}
	var (
		after source.Source
		newID gitrepo.OID
	)
	tree := ""
	if r.Squash {
		after, err = repo.Index(ctx)
		if id, ok := gitrepo.IndexTree(after); ok && err == nil && opt.Summarize {
			tree = string(id)
		}
	} else if newID, err = repo.ResolveCommit(ctx, r.New); err == nil {
		after, err = repo.Commit(ctx, newID)
		if id, terr := repo.TreeOf(ctx, newID); terr == nil && err == nil && opt.Summarize && gitrepo.TreeNamesContent(after) {
			tree = string(id)
		}
	}
	if err != nil {
		return nil, err
	}
	before := func(paths []string) (source.Source, error) {
		return commitFiles(ctx, repo, old, paths, nil, nil)
	}
	scopeOf := func() *scope {
		if opt.Summary == nil {
			return nil
		}
		var changed []string
		oldTree, err := repo.TreeOf(ctx, old)
		if err == nil {
			if r.Squash {
				changed, err = repo.IndexChanges(ctx, after, oldTree)
			} else {
				changed, err = repo.ChangedBetween(ctx, old, newID)
			}
		}
		links, ok := gitrepo.Symlinks(after)
		if err != nil || !ok {
			trace.Printf("hook: every memory is checked: %v", err)
			return nil
		}
		sel, ok := Select(changed, links, dirs)
		if !ok {
			trace.Printf("hook: the change touches configuration or a memory directory: every memory is checked")
			return nil
		}
		sc := &scope{sel: sel, sumOK: true}
		if sumTree := gitrepo.OID(opt.Summary.Tree); sumTree != oldTree {
			// a summary of another tree: also what differs between that
			// tree and the result
			var drift []string
			if r.Squash {
				drift, err = repo.IndexChanges(ctx, after, sumTree)
			} else if newTree, terr := repo.TreeOf(ctx, newID); terr != nil {
				err = terr
			} else {
				drift, err = repo.TreesChanged(ctx, sumTree, newTree)
			}
			if err == nil {
				sc.drift, ok = Select(drift, links, dirs)
			}
			if err != nil || !ok {
				// as without a summary: every memory is checked, and the
				// older stale citations counted
				trace.Printf("hook: the summary of tree %s is not used (%v): every memory is checked", sumTree.Short(), err)
				return nil
			}
			trace.Printf("hook: summary of tree %s, %d paths changed since; %d paths changed by the change", sumTree.Short(), len(drift), len(changed))
			return sc
		}
		trace.Printf("hook: summary of tree %s, %d paths changed", opt.Summary.Tree, len(changed))
		return sc
	}
	if opt.Summary == nil && opt.FullLoad != nil {
		opt.FullLoad()
	}
	return compare(ctx, after, before, dirs, plan{scopeOf: scopeOf, sum: opt.Summary, tree: tree, fullLoad: opt.FullLoad, cache: opt.Cache})
}

// commitFiles reads just paths from a commit when they are all regular
// files there, else the whole tree (symlinks, directories and missing
// files need it for exact answers). idx and changed, when given, spare
// the tree lookups of the paths changed does not name
// (gitrepo.Repo.CommitFiles).
func commitFiles(ctx context.Context, repo *gitrepo.Repo, h gitrepo.OID, paths []string, idx source.Source, changed map[string]bool) (source.Source, error) {
	src, ok, err := repo.CommitFiles(ctx, h, paths, idx, changed)
	if err != nil || ok {
		return src, err
	}
	return repo.Commit(ctx, h)
}
