package render

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/git-memcite/git-memcite/internal/graph"
)

// TraversalText writes the traversal as an indented tree:
//
//	Graph traversal from: memory-001
//	Strategy: BFS
//	Max depth reached: 2
//	Nodes visited: 5
//
//	Traversal tree:
//	- memory-001
//	  - adr-007 (IMPLEMENTS)
//
// followed by the cycles and dangling links found.
func TraversalText(w io.Writer, t *graph.Traversal) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Graph traversal from: %s\n", Safe(t.Root))
	fmt.Fprintf(&b, "Strategy: %s\n", strings.ToUpper(string(t.Strategy)))
	if t.MaxDepth >= 0 {
		fmt.Fprintf(&b, "Max depth: %d\n", t.MaxDepth)
	}
	if len(t.Types) > 0 {
		fmt.Fprintf(&b, "Link types: %s\n", strings.Join(t.Types, ", "))
	}
	fmt.Fprintf(&b, "Max depth reached: %d\n", t.MaxDepthReached)
	fmt.Fprintf(&b, "Nodes visited: %d\n", len(t.Visits))
	b.WriteString("\nTraversal tree:\n")
	var walk func(v int)
	walk = func(v int) {
		vis := t.Visits[v]
		b.WriteString(strings.Repeat("  ", vis.Depth) + "- " + Safe(vis.ID))
		if vis.Type != "" {
			b.WriteString(" (" + strings.ToUpper(vis.Type) + ")")
		}
		if vis.Error != "" {
			b.WriteString(" [ERROR: " + Safe(vis.Error) + "]")
		}
		b.WriteByte('\n')
		for _, c := range vis.Children {
			walk(c)
		}
	}
	walk(0)
	if t.Truncated > 0 {
		fmt.Fprintf(&b, "\n%d memory(ies) at the depth limit have links not followed (raise --max-depth).\n", t.Truncated)
	}
	if len(t.Cycles) > 0 {
		fmt.Fprintf(&b, "\nDetected %d cycle(s):\n", len(t.Cycles))
		for _, c := range t.Cycles {
			fmt.Fprintf(&b, "  - %s (%s)\n", Safe(strings.Join(c.Path, " → ")), strings.ToUpper(c.Type))
		}
	}
	if len(t.Dangling) > 0 {
		fmt.Fprintf(&b, "\nDangling links (%d):\n", len(t.Dangling))
		for _, d := range t.Dangling {
			fmt.Fprintf(&b, "  - %s:%d: %s %s → %s (%s)\n", Safe(d.Path), d.Line, Safe(d.From), strings.ToUpper(d.Type), Safe(d.Target), Safe(d.Reason))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

type traversalJSON struct {
	Root            string           `json:"root"`
	Strategy        string           `json:"strategy"`
	MaxDepth        *int             `json:"max_depth"`
	LinkTypes       []string         `json:"link_types"`
	MaxDepthReached int              `json:"max_depth_reached"`
	VisitedCount    int              `json:"visited_count"`
	Nodes           []visitJSON      `json:"nodes"`
	Cycles          []cycleJSON      `json:"cycles"`
	Dangling        []graph.Dangling `json:"dangling"`
	Truncated       int              `json:"truncated"`
}

type visitJSON struct {
	MemoryID string  `json:"memory_id"`
	Path     string  `json:"path"`
	Depth    int     `json:"depth"`
	Parent   *string `json:"parent"`
	LinkType *string `json:"link_type"`
	Error    string  `json:"error,omitempty"`
}

type cycleJSON struct {
	From string   `json:"from"`
	To   string   `json:"to"`
	Type string   `json:"link_type"`
	Path []string `json:"path"`
}

// TraversalJSON writes the traversal as JSON: the nodes in visiting order
// with depth, parent and link type (a flat list of visited memories), the cycles and
// the dangling links.
func TraversalJSON(w io.Writer, t *graph.Traversal) error {
	doc := traversalJSON{Root: t.Root, Strategy: string(t.Strategy), LinkTypes: t.Types, MaxDepthReached: t.MaxDepthReached,
		VisitedCount: len(t.Visits), Nodes: []visitJSON{}, Cycles: []cycleJSON{}, Dangling: t.Dangling, Truncated: t.Truncated}
	if t.MaxDepth >= 0 {
		d := t.MaxDepth
		doc.MaxDepth = &d
	}
	if doc.LinkTypes == nil {
		doc.LinkTypes = []string{}
	}
	if doc.Dangling == nil {
		doc.Dangling = []graph.Dangling{}
	}
	for _, v := range t.Visits {
		j := visitJSON{MemoryID: v.ID, Path: v.Path, Depth: v.Depth, Error: v.Error}
		if v.Parent >= 0 {
			p, typ := t.Visits[v.Parent].ID, v.Type
			j.Parent, j.LinkType = &p, &typ
		}
		doc.Nodes = append(doc.Nodes, j)
	}
	for _, c := range t.Cycles {
		doc.Cycles = append(doc.Cycles, cycleJSON(c))
	}
	return writeJSON(w, doc)
}

// RootsText lists the memories no link points to, one per line.
func RootsText(w io.Writer, g *graph.Whole) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Root memories (no incoming links): %d of %d\n", len(g.Roots), len(g.Nodes))
	for _, r := range g.Roots {
		b.WriteString("- " + Safe(r) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// BacklinksText lists the memories that link to id.
func BacklinksText(w io.Writer, id string, links []graph.Link) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Memories linking to %s: %d\n", Safe(id), len(links))
	for _, l := range links {
		fmt.Fprintf(&b, "- %s (%s) %s:%d\n", Safe(l.From), strings.ToUpper(l.Type), Safe(l.FromPath), l.Line)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// CyclesText lists one cycle per strongly connected component.
func CyclesText(w io.Writer, g *graph.Whole) error {
	var b strings.Builder
	if len(g.Cycles) == 0 {
		b.WriteString("No cycles found.\n")
	} else {
		fmt.Fprintf(&b, "Detected %d cycle(s):\n", len(g.Cycles))
		for i, c := range g.Cycles {
			fmt.Fprintf(&b, "  Cycle %d: %s\n", i+1, Safe(strings.Join(c, " → ")))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// JSON writes any value as indented JSON, the way every JSON output does.
func JSON(w io.Writer, v any) error { return writeJSON(w, v) }

// WholeJSON writes the whole graph: nodes, links, dangling links, roots,
// orphans and cycles.
func WholeJSON(w io.Writer, g *graph.Whole) error { return writeJSON(w, g) }

// linkColor gives each link type an edge colour in DOT and Mermaid.
var linkColor = map[string]string{
	"related":    "#6b7280",
	"implements": "#2563eb",
	"extends":    "#16a34a",
	"blocks":     "#dc2626",
	"supersedes": "#9333ea",
}

// WholeDOT writes the graph in Graphviz DOT: one cluster per folder, edges
// labelled and coloured by link type, dangling targets as dashed red
// boxes.
func WholeDOT(w io.Writer, g *graph.Whole) error {
	var b strings.Builder
	b.WriteString("digraph memories {\n  rankdir=LR;\n  graph [fontname=\"Helvetica\"];\n  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n")
	names := nodeNames(g)
	for _, folder := range folders(g) {
		indent := "  "
		if folder != "." {
			fmt.Fprintf(&b, "  subgraph %s {\n    label=%s;\n    style=dashed;\n", dotQuote("cluster_"+folder), dotQuote(folder))
			indent = "    "
		}
		for _, n := range g.Nodes {
			if n.Folder == folder {
				attrs := "label=" + dotQuote(n.ID)
				if n.Error != "" {
					attrs += ", color=red"
				}
				fmt.Fprintf(&b, "%s%s [%s];\n", indent, names[n.Path], attrs)
			}
		}
		if folder != "." {
			b.WriteString("  }\n")
		}
	}
	for _, l := range g.Links {
		fmt.Fprintf(&b, "  %s -> %s [label=%s, color=%s, fontcolor=%s];\n", names[l.FromPath], names[l.ToPath], dotQuote(l.Type), dotQuote(linkColor[l.Type]), dotQuote(linkColor[l.Type]))
	}
	for i, l := range g.Dangling {
		id := "dangling" + strconv.Itoa(i)
		fmt.Fprintf(&b, "  %s [label=%s, color=red, fontcolor=red, style=dashed];\n", id, dotQuote(l.Target+" (missing)"))
		fmt.Fprintf(&b, "  %s -> %s [label=%s, color=red, style=dashed];\n", names[l.FromPath], id, dotQuote(l.Type))
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WholeMermaid writes the graph as a Mermaid flowchart (GitHub renders it
// in markdown): one subgraph per folder, edges labelled by link type.
func WholeMermaid(w io.Writer, g *graph.Whole) error {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	names := nodeNames(g)
	for k, folder := range folders(g) {
		indent := "  "
		if folder != "." {
			fmt.Fprintf(&b, "  subgraph f%d[%s]\n", k, mermaidText(folder))
			indent = "    "
		}
		for _, n := range g.Nodes {
			if n.Folder == folder {
				fmt.Fprintf(&b, "%s%s[%s]\n", indent, names[n.Path], mermaidText(n.ID))
			}
		}
		if folder != "." {
			b.WriteString("  end\n")
		}
	}
	for _, l := range g.Links {
		fmt.Fprintf(&b, "  %s -->|%s| %s\n", names[l.FromPath], l.Type, names[l.ToPath])
	}
	for i, l := range g.Dangling {
		fmt.Fprintf(&b, "  %s -.->|%s| dangling%d[%s]\n", names[l.FromPath], l.Type, i, mermaidText(l.Target+" (missing)"))
	}
	if len(g.Dangling) > 0 {
		b.WriteString("  classDef missing stroke:#dc2626,stroke-dasharray:4,color:#dc2626\n")
		for i := range g.Dangling {
			fmt.Fprintf(&b, "  class dangling%d missing\n", i)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// nodeNames gives each memory a plain identifier (n0, n1, …) for DOT and
// Mermaid; labels carry the ids, which may hold any character.
func nodeNames(g *graph.Whole) map[string]string {
	names := make(map[string]string, len(g.Nodes))
	for i, n := range g.Nodes {
		names[n.Path] = "n" + strconv.Itoa(i)
	}
	return names
}

func folders(g *graph.Whole) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range g.Nodes {
		if !seen[n.Folder] {
			seen[n.Folder] = true
			out = append(out, n.Folder)
		}
	}
	sort.Strings(out)
	return out
}

// dotQuote quotes a DOT string; control characters become spaces.
func dotQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// mermaidText quotes a Mermaid label, escaping the characters that end it
// and, as in text output, control characters (ESC, BEL, bidi overrides).
func mermaidText(s string) string {
	r := strings.NewReplacer(`"`, "#quot;", "<", "#lt;", ">", "#gt;", "\n", " ", "\r", " ")
	return `"` + Safe(r.Replace(s)) + `"`
}

// WholeGraph writes the whole graph w in format (dot, mermaid or json);
// with no format, its cycles (as JSON with jsonCycles).
func WholeGraph(out io.Writer, w *graph.Whole, format string, jsonCycles bool) error {
	switch format {
	case "dot":
		return WholeDOT(out, w)
	case "mermaid":
		return WholeMermaid(out, w)
	case "json":
		return WholeJSON(out, w)
	}
	if jsonCycles {
		return JSON(out, map[string]any{"cycles": w.Cycles, "count": len(w.Cycles)})
	}
	return CyclesText(out, w)
}
