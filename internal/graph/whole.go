package graph

import (
	"context"
	"sort"
)

// Link is a resolved or dangling link between memories, by id.
type Link struct {
	From     string `json:"from"`
	FromPath string `json:"from_path"`
	To       string `json:"to,omitempty"`      // empty when dangling
	ToPath   string `json:"to_path,omitempty"` // empty when dangling
	Type     string `json:"type"`
	Target   string `json:"target"` // as written
	Line     int    `json:"line"`
	Reason   string `json:"reason,omitempty"` // for dangling links
}

// Node is a memory in a whole-graph export.
type Node struct {
	ID     string `json:"id"`
	Path   string `json:"path"`
	Folder string `json:"folder"`
	In     int    `json:"in"`  // resolved incoming links
	Out    int    `json:"out"` // resolved outgoing links
	Error  string `json:"error,omitempty"`
}

// Whole is the complete graph: every memory and link, plus the findings
// that need all of it.
type Whole struct {
	Nodes    []Node     `json:"nodes"` // sorted by path
	Links    []Link     `json:"links"` // resolved links, by source path then line
	Dangling []Link     `json:"dangling"`
	Roots    []string   `json:"roots"`   // ids of memories no link points to
	Orphans  []string   `json:"orphans"` // ids of memories with no links either way (a self-link does not count)
	Cycles   [][]string `json:"cycles"`  // one cycle per strongly connected component (ids, first repeated last)
}

// Build reads every memory and returns the whole graph, following only
// links of the given types (all when empty).
func (g *Graph) Build(ctx context.Context, types []string) (*Whole, error) {
	if err := CheckTypes(types); err != nil {
		return nil, err
	}
	all, err := g.AllEdges(ctx)
	if err != nil {
		return nil, err
	}
	all = Filter(all, types)
	w := &Whole{Nodes: make([]Node, len(g.mems)), Links: []Link{}, Dangling: []Link{}, Roots: []string{}, Orphans: []string{}, Cycles: [][]string{}}
	for i, m := range g.mems {
		w.Nodes[i] = Node{ID: g.ID(i), Path: m.Path, Folder: g.Folder(i)}
		if m.Err != nil {
			w.Nodes[i].Error = m.Err.Error()
		}
	}
	adj := make([][]int, len(g.mems))
	linked := make([]bool, len(g.mems)) // has a link, even a dangling one
	for _, e := range all {
		linked[e.From] = linked[e.From] || e.To != e.From
		l := Link{From: g.ID(e.From), FromPath: g.Path(e.From), Type: e.Type, Target: e.Target, Line: e.Line, Reason: e.Reason}
		if e.Dangling() {
			w.Dangling = append(w.Dangling, l)
			continue
		}
		l.To, l.ToPath = g.ID(e.To), g.Path(e.To)
		w.Links = append(w.Links, l)
		adj[e.From] = append(adj[e.From], e.To)
		if e.From != e.To {
			w.Nodes[e.From].Out++
			w.Nodes[e.To].In++
		}
	}
	for i, n := range w.Nodes {
		if n.In == 0 {
			w.Roots = append(w.Roots, n.ID)
			if n.Out == 0 && !linked[i] {
				w.Orphans = append(w.Orphans, n.ID)
			}
		}
	}
	sort.Strings(w.Roots)
	sort.Strings(w.Orphans)
	for _, comp := range sccs(adj) {
		w.Cycles = append(w.Cycles, g.ids(cycleIn(adj, comp)))
	}
	sort.Slice(w.Cycles, func(a, b int) bool { return w.Cycles[a][0] < w.Cycles[b][0] })
	return w, nil
}

func (g *Graph) ids(idx []int) []string {
	out := make([]string, len(idx))
	for k, i := range idx {
		out[k] = g.ID(i)
	}
	return out
}

// Backlinks returns the links that point at memory i (reading every
// memory), ordered by source path and line.
func (g *Graph) Backlinks(ctx context.Context, i int, types []string) ([]Link, error) {
	if err := CheckTypes(types); err != nil {
		return nil, err
	}
	all, err := g.AllEdges(ctx)
	if err != nil {
		return nil, err
	}
	out := []Link{}
	for _, e := range Filter(all, types) {
		if e.To == i {
			out = append(out, Link{From: g.ID(e.From), FromPath: g.Path(e.From), To: g.ID(i), ToPath: g.Path(i), Type: e.Type, Target: e.Target, Line: e.Line})
		}
	}
	return out, nil
}

// sccs returns the strongly connected components that contain a cycle
// (more than one memory, or one that links to itself), with Tarjan's
// algorithm made iterative so that long chains cannot overflow the stack.
func sccs(adj [][]int) [][]int {
	n := len(adj)
	index := make([]int, n)
	low := make([]int, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	var out [][]int
	next := 0
	type frame struct{ v, e int }
	for s := 0; s < n; s++ {
		if index[s] >= 0 {
			continue
		}
		call := []frame{{s, 0}}
		index[s], low[s] = next, next
		next++
		stack = append(stack, s)
		on[s] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if f.e < len(adj[v]) {
				w := adj[v][f.e]
				f.e++
				switch {
				case index[w] < 0:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					on[w] = true
					call = append(call, frame{w, 0})
				case on[w]:
					low[v] = min(low[v], index[w])
				}
				continue
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] != index[v] {
				continue
			}
			var comp []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			if len(comp) > 1 || selfLoop(adj, v) {
				sort.Ints(comp)
				out = append(out, comp)
			}
		}
	}
	return out
}

func selfLoop(adj [][]int, v int) bool {
	for _, w := range adj[v] {
		if w == v {
			return true
		}
	}
	return false
}

// cycleIn finds one cycle through the first memory of a strongly connected
// component: the shortest path back to it (breadth-first, inside comp).
func cycleIn(adj [][]int, comp []int) []int {
	start := comp[0]
	in := make(map[int]bool, len(comp))
	for _, v := range comp {
		in[v] = true
	}
	prev := map[int]int{}
	q := []int{start}
	for len(q) > 0 {
		v := q[0]
		q = q[1:]
		for _, w := range adj[v] {
			if !in[w] {
				continue
			}
			if w == start {
				var rev []int
				for u := v; u != start; u = prev[u] {
					rev = append(rev, u)
				}
				p := []int{start}
				for k := len(rev) - 1; k >= 0; k-- {
					p = append(p, rev[k])
				}
				return append(p, start)
			}
			if _, seen := prev[w]; !seen && w != start {
				prev[w] = v
				q = append(q, w)
			}
		}
	}
	return []int{start, start} // unreachable for a real component
}
