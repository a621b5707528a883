// Package yamledit edits YAML files the way their authors wrote them: by
// splicing bytes and whole lines, never by re-encoding, so that comments,
// quoting, key order, unknown keys, blank lines and everything around a
// change stay byte for byte. YAML is parsed (read-only, go.yaml.in/yaml/v3)
// only to find where things are; the rules for lines are YAML's own:
//
//   - indentation is spaces; a tab is never indentation (a line whose
//     leading spaces are followed by a tab cannot start a node, so it
//     continues the one above);
//   - a '#' starts a comment at the start of a line or after a space or
//     tab, and never inside a quoted scalar; a line of a block scalar is
//     content whatever it starts with;
//   - a comment says nothing about structure: comment and blank lines
//     belong to a block only when content of the block follows them.
//
// memfile (memory files' frontmatter) and hookinstall (hook managers'
// configuration files) both edit through it.
package yamledit

import (
	"bytes"
	"fmt"
	"sort"
)

// Edit replaces Src[Start:End] with New.
type Edit struct {
	Start, End int
	New        string
}

// Apply splices edits into src. Edits must not overlap; insertions at the
// same offset keep their order.
func Apply(src []byte, edits []Edit) ([]byte, error) {
	es := append([]Edit(nil), edits...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Start < es[j].Start })
	var out bytes.Buffer
	out.Grow(len(src) + 256)
	pos := 0
	for _, e := range es {
		if e.Start < pos || e.End < e.Start || e.End > len(src) {
			return nil, fmt.Errorf("edits overlap or fall outside the file (%d-%d after %d)", e.Start, e.End, pos)
		}
		out.Write(src[pos:e.Start])
		out.WriteString(e.New)
		pos = e.End
	}
	out.Write(src[pos:])
	return out.Bytes(), nil
}
