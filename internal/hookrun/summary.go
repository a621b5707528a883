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
// committed (mems, by position): which of them need not be read at all,
// and which must be verified although the commit does not touch them.
type summaryView struct {
	sum    *vcache.Summary
	rec    []*vcache.SummaryMemory // the summary's record of each memory, or nil
	skip   []bool                  // not loaded: its verdicts are the summary's
	verify []bool                  // verified whatever the commit changes
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
	v := &summaryView{sum: sum, rec: make([]*vcache.SummaryMemory, len(mems)), skip: make([]bool, len(mems)), verify: make([]bool, len(mems))}
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
	for i, m := range mems {
		for len(recs) > 0 && recs[0].Path < m.Path {
			recs = recs[1:] // a memory file deleted since
		}
		if len(recs) == 0 || recs[0].Path != m.Path {
			if !sc.sel.touches(m.Path) && !since(m.Path) {
				trace.Printf("hook: the summary of tree %s lacks %s: every memory is read", sum.Tree, m.Path)
				return nil
			}
			v.verify[i] = true // added since: loaded, verified
			continue
		}
		r := &recs[0]
		recs = recs[1:]
		v.rec[i] = r
		commit, drift := false, false
		if !r.Exempt {
			commit, drift = cites(r)
		}
		switch {
		case r.Volatile || since(m.Path) || drift:
			v.verify[i] = true
		case !r.Broken && !commit && !sc.sel.touches(m.Path):
			v.skip[i] = true
		}
	}
	return v
}

// unloaded returns the summary's record of mems[i] when it was left
// unloaded.
func (v *summaryView) unloaded(i int) *vcache.SummaryMemory {
	if v == nil || !v.skip[i] {
		return nil
	}
	return v.rec[i]
}

// mustVerify reports whether mems[i] is verified whatever the commit
// changes: the summary does not describe it as it is now.
func (v *summaryView) mustVerify(i int) bool {
	return v != nil && v.verify[i]
}

// loadMemories reads the memories of mems that v does not leave unloaded.
func loadMemories(ctx context.Context, after source.Source, mems []*store.Memory, v *summaryView, cache *vcache.Cache) error {
	start := time.Now()
	load := mems
	if v != nil {
		load = make([]*store.Memory, 0, 16)
		for i, m := range mems {
			if !v.skip[i] {
				load = append(load, m)
			}
		}
	}
	if err := store.LoadAll(ctx, after, load, cache); err != nil {
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
	// the old summary's cited paths keep their indices (its records are
	// taken as they are); paths new to it are added after them
	var index map[string]int32
	if v != nil {
		s.Cited = v.sum.Cited
	}
	intern := func(p string) int32 {
		if index == nil {
			index = make(map[string]int32, len(s.Cited))
			for i, c := range s.Cited {
				index[c] = int32(i)
			}
			s.Cited = slices.Clip(s.Cited) // appends never write into the old summary's array
		}
		i, ok := index[p]
		if !ok {
			i = int32(len(s.Cited))
			index[p] = i
			s.Cited = append(s.Cited, p)
		}
		return i
	}
	for i, m := range mems {
		if old := v.unloaded(i); old != nil {
			s.Memories = append(s.Memories, *old)
			continue
		}
		r := vcache.SummaryMemory{Path: m.Path, Stale: -1}
		switch {
		case m.Err != nil:
			r.Broken = true
		case m.File == nil:
			r.Volatile = true // not read: read it next time
		case m.File.Exempt:
			r.Exempt = true
		default:
			for j := range m.File.Citations {
				p, ok := citedPath(&m.File.Citations[j])
				if !ok {
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
	compactCited(s)
	trace.Printf("summarized %d memory files (%d cited paths) of tree %s in %s", len(s.Memories), len(s.Cited), tree[:min(len(tree), 12)], time.Since(start).Round(time.Millisecond))
	return s
}

// compactCited drops the cited paths no memory of s cites any more, when
// they are most of the table (each summary takes over its predecessor's
// table, and would otherwise keep every path ever cited).
func compactCited(s *vcache.Summary) {
	used := make([]bool, len(s.Cited))
	n := 0
	for _, m := range s.Memories {
		for _, c := range m.Cites {
			if !used[c] {
				used[c] = true
				n++
			}
		}
	}
	if n*2 >= len(s.Cited) {
		return
	}
	to := make([]int32, len(s.Cited))
	cited := make([]string, 0, n)
	for i, c := range s.Cited {
		if used[i] {
			to[i] = int32(len(cited))
			cited = append(cited, c)
		}
	}
	for i := range s.Memories {
		m := &s.Memories[i]
		cites := make([]int32, len(m.Cites))
		for j, c := range m.Cites {
			cites[j] = to[c]
		}
		m.Cites = cites
	}
	s.Cited = cited
}
