package graph

import (
	"context"
	"path"
	"strings"

	"github.com/git-memcite/git-memcite/internal/prose"
)

// TypeReferences is the type of a link found in a memory's prose (a
// markdown or wiki link, a name in backticks, a related:-style list):
// related, supersedes and the like when a frontmatter key says so,
// references otherwise (docs/prose-references.md).
const TypeReferences = "references"

// frontTypes maps the frontmatter lists of memory references to link
// types.
var frontTypes = map[string]string{"related": "related", "related_memories": "related", "supersedes": "supersedes"}

// proseEdges returns the links memory i makes in its prose that resolve
// to a memory now. A link that resolves to nothing is left to verify,
// which knows whether it held when it was written.
func (g *Graph) proseEdges(ctx context.Context, i int) ([]Edge, error) {
	m := g.mems[i]
	if g.NoProse || m.File == nil {
		return nil, nil
	}
	var out []Edge
	seen := map[int]bool{}
	for _, r := range prose.Extract(m.File.Src, prose.Options{}) {
		if r.Kind != prose.KindMemory {
			continue
		}
		to := -1
		t := strings.TrimPrefix(r.Target, "./")
		if r.Form == prose.FormLink || strings.HasPrefix(r.Target, "../") {
			if j, ok := g.byPath(strings.TrimSuffix(path.Join(path.Dir(m.Path), t), ".md")); ok {
				to = j
			}
		}
		if to < 0 {
			j, err := g.Resolve(ctx, t)
			if err != nil {
				continue // not found or ambiguous: no edge
			}
			to = j
		}
		if to == i || seen[to] {
			continue
		}
		seen[to] = true
		typ := TypeReferences
		if ft, ok := frontTypes[r.Key]; ok {
			typ = ft
		}
		out = append(out, Edge{From: i, To: to, Type: typ, Target: r.Target, Line: r.MemLine})
	}
	return out, nil
}
