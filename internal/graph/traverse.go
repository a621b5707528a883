package graph

import (
	"context"
	"fmt"
)

// Strategy is the traversal order.
type Strategy string

// Traversal strategies.
const (
	BFS Strategy = "bfs"
	DFS Strategy = "dfs"
)

// Options tune a traversal.
type Options struct {
	Strategy Strategy // BFS when empty
	MaxDepth int      // links followed from the root; < 0 means no limit
	Types    []string // link types followed; all when empty
}

// Visit is a memory reached by a traversal. Each memory is visited once,
// through the first link that reached it.
type Visit struct {
	Node     int
	ID       string
	Path     string
	Depth    int
	Parent   int    // index into Traversal.Visits, -1 for the root
	Type     string // type of the link from the parent ("" for the root)
	Children []int  // indexes into Traversal.Visits, in link order
	Error    string // the memory cannot be read or parsed (its links are unknown)
}

// Cycle is a link back to a memory on the path from the root: Path runs
// from that memory to the one whose link closes the cycle, and back.
type Cycle struct {
	From, To string   // the closing link: From links to To
	Type     string   // its type
	Path     []string // ids: To … From To
}

// Traversal is the result of Traverse.
type Traversal struct {
	Root            string
	Strategy        Strategy
	MaxDepth        int // the limit asked for (-1: none)
	Types           []string
	Visits          []Visit // in visiting order; Visits[0] is the root
	MaxDepthReached int
	Cycles          []Cycle
	Dangling        []Dangling // links of expanded memories that resolve to nothing
	Truncated       int        // memories at the depth limit that have links not followed
}

// Dangling is a link whose target is not found.
type Dangling struct {
	From   string `json:"from"` // id of the linking memory
	Path   string `json:"path"` // its file
	Line   int    `json:"line"`
	Type   string `json:"type"`
	Target string `json:"target"`
	Reason string `json:"reason"`
}

// Traverse walks the links from root (a memory index) breadth- or
// depth-first, up to opt.MaxDepth links away, following only opt.Types.
// Each memory is visited once; a link to a memory on the current path from
// the root is a cycle and is reported, never followed. A memory at the
// depth limit is read but its links are not followed (counted in
// Truncated). Memories are read as they are reached.
func (g *Graph) Traverse(ctx context.Context, root int, opt Options) (*Traversal, error) {
	if opt.Strategy == "" {
		opt.Strategy = BFS
	}
	if opt.Strategy != BFS && opt.Strategy != DFS {
		return nil, fmt.Errorf("unknown strategy %q (bfs or dfs)", opt.Strategy)
	}
	if err := CheckTypes(opt.Types); err != nil {
		return nil, err
	}
	t := &Traversal{Root: g.ID(root), Strategy: opt.Strategy, MaxDepth: opt.MaxDepth, Types: opt.Types}
	visitOf := map[int]int{root: 0} // memory index -> visit index
	t.Visits = append(t.Visits, Visit{Node: root, ID: g.ID(root), Path: g.Path(root), Parent: -1, Error: g.errOf(root)})
	onPath := func(v, node int) bool { // is node on the tree path root..v?
		for ; v >= 0; v = t.Visits[v].Parent {
			if t.Visits[v].Node == node {
				return true
			}
		}
		return false
	}
	// expand follows the links of visit v and returns the new visits.
	expand := func(v int) ([]int, error) {
		cur := t.Visits[v]
		es, err := g.Edges(ctx, cur.Node)
		if err != nil {
			return nil, err
		}
		es = Filter(es, opt.Types)
		if opt.MaxDepth >= 0 && cur.Depth >= opt.MaxDepth {
			if len(es) > 0 {
				t.Truncated++
			}
			return nil, nil
		}
		var added []int
		for _, e := range es {
			if e.Dangling() {
				t.Dangling = append(t.Dangling, Dangling{From: cur.ID, Path: cur.Path, Line: e.Line, Type: e.Type, Target: e.Target, Reason: e.Reason})
				continue
			}
			if onPath(v, e.To) {
				t.Cycles = append(t.Cycles, t.cycle(v, e, g))
				continue
			}
			if _, seen := visitOf[e.To]; seen {
				continue
			}
			n := len(t.Visits)
			visitOf[e.To] = n
			t.Visits = append(t.Visits, Visit{Node: e.To, ID: g.ID(e.To), Path: g.Path(e.To), Depth: cur.Depth + 1, Parent: v, Type: e.Type, Error: g.errOf(e.To)})
			t.Visits[v].Children = append(t.Visits[v].Children, n)
			t.MaxDepthReached = max(t.MaxDepthReached, cur.Depth+1)
			added = append(added, n)
		}
		return added, nil
	}
	if opt.Strategy == BFS {
		for q := 0; q < len(t.Visits); q++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if _, err := expand(q); err != nil {
				return nil, err
			}
		}
		return t, nil
	}
	if err := g.dfs(ctx, t, 0, visitOf); err != nil {
		return nil, err
	}
	return t, nil
}

// dfs visits depth-first: a memory's first child is explored completely
// before its second. Visits are numbered in preorder, so the tree is the
// DFS tree.
func (g *Graph) dfs(ctx context.Context, t *Traversal, root int, visitOf map[int]int) error {
	type frame struct {
		v     int
		edges []Edge
		next  int
	}
	opt := Options{MaxDepth: t.MaxDepth, Types: t.Types}
	push := func(v int) (frame, error) {
		cur := t.Visits[v]
		es, err := g.Edges(ctx, cur.Node)
		if err != nil {
			return frame{}, err
		}
		es = Filter(es, opt.Types)
		if opt.MaxDepth >= 0 && cur.Depth >= opt.MaxDepth {
			if len(es) > 0 {
				t.Truncated++
			}
			es = nil
		}
		return frame{v: v, edges: es}, nil
	}
	onPath := func(v, node int) bool {
		for ; v >= 0; v = t.Visits[v].Parent {
			if t.Visits[v].Node == node {
				return true
			}
		}
		return false
	}
	f, err := push(root)
	if err != nil {
		return err
	}
	stack := []frame{f}
	for len(stack) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		top := &stack[len(stack)-1]
		if top.next >= len(top.edges) {
			stack = stack[:len(stack)-1]
			continue
		}
		e := top.edges[top.next]
		top.next++
		cur := t.Visits[top.v]
		switch {
		case e.Dangling():
			t.Dangling = append(t.Dangling, Dangling{From: cur.ID, Path: cur.Path, Line: e.Line, Type: e.Type, Target: e.Target, Reason: e.Reason})
			continue
		case onPath(top.v, e.To):
			t.Cycles = append(t.Cycles, t.cycle(top.v, e, g))
			continue
		}
		if _, seen := visitOf[e.To]; seen {
			continue
		}
		n := len(t.Visits)
		visitOf[e.To] = n
		t.Visits = append(t.Visits, Visit{Node: e.To, ID: g.ID(e.To), Path: g.Path(e.To), Depth: cur.Depth + 1, Parent: top.v, Type: e.Type, Error: g.errOf(e.To)})
		t.Visits[top.v].Children = append(t.Visits[top.v].Children, n)
		t.MaxDepthReached = max(t.MaxDepthReached, cur.Depth+1)
		nf, err := push(n)
		if err != nil {
			return err
		}
		stack = append(stack, nf)
	}
	return nil
}

// cycle describes the link e from visit v back to a memory on its path.
func (t *Traversal) cycle(v int, e Edge, g *Graph) Cycle {
	var rev []string
	for u := v; u >= 0; u = t.Visits[u].Parent {
		rev = append(rev, t.Visits[u].ID)
		if t.Visits[u].Node == e.To {
			break
		}
	}
	p := make([]string, 0, len(rev)+1)
	for k := len(rev) - 1; k >= 0; k-- {
		p = append(p, rev[k])
	}
	p = append(p, g.ID(e.To))
	return Cycle{From: t.Visits[v].ID, To: g.ID(e.To), Type: e.Type, Path: p}
}

// errOf is the read or parse error of memory i, or "".
func (g *Graph) errOf(i int) string {
	if m := g.Memory(i); m.Err != nil {
		return m.Err.Error()
	}
	return ""
}
