package gitblame

import (
	"errors"
	"fmt"
	"sort"

	"github.com/git-memcite/git-memcite/internal/source"
)

// quiet knows which commits of the walk's chain change which path holding
// tracked lines (PathHistory.Touching). A step or a gallop window where
// none does changes nothing, so the walk crosses it without reading a
// commit, a tree or a blob; a step where some do compares only those
// paths (the others have the same blob on both sides). Paths lines move
// into are added as they appear, asked from the commit they appeared in.
type quiet struct {
	ph      PathHistory
	r       *routes
	head    Hash
	paths   map[string][]int // each asked path's changing chain indices, sorted
	changed []int            // every path's, sorted
}

// newQuiet asks h which commits of r's chain after its oldest base
// change a path the citations of the chain name; nil when h cannot say
// (every step is then taken whole).
func newQuiet(h History, r *routes) (*quiet, error) {
	ph, ok := h.(PathHistory)
	if !ok || !r.byPaths {
		return nil, nil
	}
	q := &quiet{ph: ph, r: r, head: r.chain[len(r.chain)-1], paths: map[string][]int{}}
	var paths []string
	for _, cs := range r.active {
		for _, c := range cs {
			if p, err := source.Clean(c.a.Path); err == nil {
				if _, ok := q.paths[p]; !ok {
					q.paths[p] = nil
					paths = append(paths, p)
				}
			}
		}
	}
	if err := q.ask(r.start, paths); err != nil {
		if errors.Is(err, errors.ErrUnsupported) {
			return nil, nil
		}
		return nil, err
	}
	return q, nil
}

// ask adds the commits after chain index from that change any of paths.
func (q *quiet) ask(from int, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	sort.Strings(paths)
	ts, err := q.ph.Touching(q.r.chain[from], q.head, paths)
	if err != nil {
		return fmt.Errorf("gitblame: commits changing %d paths: %w", len(paths), err)
	}
	for _, tc := range ts {
		i, ok := q.r.pos[tc.Commit]
		if !ok || i <= from {
			continue
		}
		q.changed = append(q.changed, i)
		for _, p := range tc.Paths {
			if is, ok := q.paths[p]; ok {
				q.paths[p] = append(is, i)
			}
		}
	}
	sort.Ints(q.changed)
	for _, p := range paths {
		sort.Ints(q.paths[p])
	}
	return nil
}

// still reports whether no commit of chain indices (a, b] changes a
// tracked path: then every tracked path has the same blob at a and at b.
func (q *quiet) still(a, b int) bool {
	return q != nil && none(q.changed, a, b)
}

// unchanged returns whether path p has the same blob at chain indices a
// and b (no commit of (a, b] changes it); nil without a quiet.
func (q *quiet) unchanged(a, b int) func(string) bool {
	if q == nil {
		return nil
	}
	return func(p string) bool {
		is, ok := q.paths[p]
		return ok && none(is, a, b)
	}
}

// none reports whether sorted holds no index in (a, b].
func none(sorted []int, a, b int) bool {
	k := sort.SearchInts(sorted, a+1)
	return k == len(sorted) || sorted[k] > b
}

// follow adds the paths of live lines not asked yet, from chain index i
// (where the walk stands) on.
func (q *quiet) follow(i int, live []*line) error {
	if q == nil {
		return nil
	}
	var paths []string
	for _, l := range live {
		if _, ok := q.paths[l.path]; l.alive && !ok {
			q.paths[l.path] = nil
			paths = append(paths, l.path)
		}
	}
	return q.ask(i, paths)
}

// stillJump is canJump for a window where no tracked path changes: every
// live line maps to itself, so the window is one step unless an
// ambiguous line is followed (those go step by step) or no line is.
func stillJump(live []*line) bool {
	any := false
	for _, l := range live {
		if !l.alive {
			continue
		}
		if l.shadow {
			return false
		}
		any = true
	}
	return any
}
