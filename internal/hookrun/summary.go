package hookrun

import (
	"context"
	"path"
	"slices"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/trace"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// summaryView is a summary laid over the memories of the index being
// committed: which of them need not be read at all, and which must be
// verified although the commit does not touch them.
type summaryView struct {
	sum    *vcache.Summary
	rec    map[*store.Memory]*vcache.SummaryMemory // every memory the summary holds
	skip   map[*store.Memory]bool                  // not loaded: its verdicts are the summary's
	verify map[*store.Memory]bool                  // verified whatever the commit changes
}

// viewSummary matches sum with mems (the index's memory files, sorted by
// path, not loaded) under the scope sc. A memory is loaded when the
// summary says it is broken or volatile, when the commit (sc.sel) or what
// changed since the summary's tree (sc.drift) touches its path or one it
// cites, or when the summary does not hold it (a memory file added
// since). Those the summary does not describe as they are now (volatile,
// changed since, added since) are verified. It returns nil, and
// everything is loaded, when the scope cannot use the summary, it was
// made for other memory directories, or it does not fit the index (a
// memory that did not change since the summary's tree but that it
// lacks).
func viewSummary(sum *vcache.Summary, dirs []string, mems []*store.Memory, sc *scope) *summaryView {
	if sum == nil || sc == nil || !sc.sumOK || !slices.Equal(sum.Dirs, dirs) {
		return nil
	}
	v := &summaryView{sum: sum, rec: make(map[*store.Memory]*vcache.SummaryMemory, len(mems)), skip: make(map[*store.Memory]bool, len(mems)), verify: map[*store.Memory]bool{}}
	since := func(p string) bool { return sc.drift != nil && sc.drift.touches(p) }
	// what the commit or the changes since touch, by cited path: 0 not
	// looked at yet, 1 neither, 2 the commit, 3 only the changes since
	touched := make([]int8, len(sum.Cited))
	cites := func(r *vcache.SummaryMemory) (commit, drift bool) {
		for _, c := range r.Cites {
			if touched[c] == 0 {
				switch p := sum.Cited[c]; {
				case sc.sel.touches(p):
					touched[c] = 2
				case since(p):
					touched[c] = 3
				default:
					touched[c] = 1
				}
			}
			commit = commit || touched[c] == 2
			drift = drift || touched[c] == 3
		}
		return commit, drift
	}
	recs := sum.Memories
	for _, m := range mems {
		for len(recs) > 0 && recs[0].Path < m.Path {
			recs = recs[1:] // a memory file deleted since
		}
		if len(recs) == 0 || recs[0].Path != m.Path {
			if !sc.sel.touches(m.Path) && !since(m.Path) {
				trace.Printf("hook: the summary of tree %s lacks %s: every memory is read", sum.Tree, m.Path)
				return nil
			}
			v.verify[m] = true // added since: loaded, verified
			continue
		}
		r := &recs[0]
		recs = recs[1:]
		v.rec[m] = r
		commit, drift := false, false
		if !r.Exempt {
			commit, drift = cites(r)
		}
		switch {
		case r.Volatile || since(m.Path) || drift:
			v.verify[m] = true
		case !r.Broken && !commit && !sc.sel.touches(m.Path):
			v.skip[m] = true
		}
	}
	return v
}

// unloaded returns the summary's record of m when m was left unloaded.
func (v *summaryView) unloaded(m *store.Memory) *vcache.SummaryMemory {
	if v == nil || !v.skip[m] {
		return nil
	}
	return v.rec[m]
}

// mustVerify reports whether m is verified whatever the commit changes:
// the summary does not describe it as it is now.
func (v *summaryView) mustVerify(m *store.Memory) bool {
	return v != nil && v.verify[m]
}

// loadMemories reads the memories of mems that v does not leave unloaded.
func loadMemories(ctx context.Context, after source.Source, mems []*store.Memory, v *summaryView) error {
	start := time.Now()
	load := mems
	if v != nil {
		load = make([]*store.Memory, 0, len(mems)-len(v.skip))
		for _, m := range mems {
			if !v.skip[m] {
				load = append(load, m)
			}
		}
	}
	if err := store.LoadAll(ctx, after, load); err != nil {
		return err
	}
	trace.Printf("loaded %d of %d memory files from the %s in %s", len(load), len(mems), after.Name(), time.Since(start).Round(time.Millisecond))
	return nil
}

// volatileKinds are the stale kinds that may change while the content
// checked does not: what was fetched (objects, LFS content, a submodule
// checked out), file-system state.
var volatileKinds = map[verify.Kind]bool{
	verify.KindSymlinkLoop: true,
	verify.KindIgnored:     true,
	verify.KindUnreadable:  true,
	verify.KindLFSPointer:  true,
}

// summarize makes the summary of after (whose tree is tree) from the
// check: the verified memories' results, the counts KnownStale gave of
// the others, and HEAD's summary v for those left unloaded.
func summarize(tree string, dirs []string, after source.Source, mems []*store.Memory, rep *verify.Report, counts map[*store.Memory]int, v *summaryView) *vcache.Summary {
	start := time.Now()
	results := map[*store.Memory]*verify.MemoryResult{}
	if rep != nil {
		for i := range rep.Memories {
			results[rep.Memories[i].Memory] = &rep.Memories[i]
		}
	}
	gitlinks := map[string]bool{}
	if links, ok := gitrepo.Gitlinks(after); ok {
		for _, l := range links {
			gitlinks[l] = true
		}
	}
	inSubmodule := func(p string) bool {
		if len(gitlinks) == 0 {
			return false
		}
		for d := p; d != "." && d != "/" && d != ""; d = path.Dir(d) {
			if gitlinks[d] {
				return true
			}
		}
		return false
	}
	s := &vcache.Summary{Tree: tree, Dirs: slices.Clone(dirs), Memories: make([]vcache.SummaryMemory, 0, len(mems))}
	index := map[string]int32{}
	intern := func(p string) int32 {
		i, ok := index[p]
		if !ok {
			i = int32(len(s.Cited))
			index[p] = i
			s.Cited = append(s.Cited, p)
		}
		return i
	}
	for _, m := range mems {
		r := vcache.SummaryMemory{Path: m.Path, Stale: -1}
		switch {
		case v.unloaded(m) != nil:
			old := v.unloaded(m)
			r.Broken, r.Exempt, r.Volatile, r.Stale = old.Broken, old.Exempt, old.Volatile, old.Stale
			r.Cites = make([]int32, len(old.Cites))
			for i, c := range old.Cites {
				r.Cites[i] = intern(v.sum.Cited[c])
			}
		case m.Err != nil:
			r.Broken = true
		case m.File == nil:
			r.Volatile = true // not read: read it next time
		case m.File.Exempt:
			r.Exempt = true
		default:
			for _, c := range m.File.Citations {
				if c.URL != "" {
					continue
				}
				p, err := source.Clean(c.Path)
				if err != nil {
					continue // stale whatever the tree holds
				}
				r.Volatile = r.Volatile || inSubmodule(p)
				i := intern(p)
				if !slices.Contains(r.Cites, i) {
					r.Cites = append(r.Cites, i)
				}
			}
			if res := results[m]; res != nil {
				r.Stale = 0
				for _, c := range res.Citations {
					if c.Status == verify.Stale {
						r.Stale++
					}
					r.Volatile = r.Volatile || volatileKinds[c.Kind]
				}
			} else if n, ok := counts[m]; ok {
				r.Stale = n
			}
		}
		s.Memories = append(s.Memories, r)
	}
	trace.Printf("summarized %d memory files (%d cited paths) of tree %s in %s", len(s.Memories), len(s.Cited), tree[:min(len(tree), 12)], time.Since(start).Round(time.Millisecond))
	return s
}
