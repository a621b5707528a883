package memfile

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestEditsInEveryListStyle runs every citation edit on every way a
// citations list is written (indented block, PyYAML's indentless block,
// flow, comments between items, a single item): the result parses, holds
// the citations the edit meant, keeps the body, and every other line.
func TestEditsInEveryListStyle(t *testing.T) {
	styles := map[string]string{
		"indented block":            "citations:\n  - path: a.go\n    line: 1\n  - path: b.go\n    line: 2\n  - c.go:3\n",
		"indentless block (PyYAML)": "citations:\n- path: a.go\n  line: 1\n- path: b.go\n  line: 2\n- c.go:3\n",
		"flow":                      "citations: [{path: a.go, line: 1}, {path: b.go, line: 2}, c.go:3]\n",
		"comments between items":    "citations:\n  # first\n  - path: a.go\n    line: 1\n  # second\n  - path: b.go # inline\n    line: 2\n\n  - c.go:3\n  # trailing\n",
		"indentless with comments":  "citations:\n# first\n- path: a.go\n  line: 1\n# second\n- path: b.go\n  line: 2\n- c.go:3\n",
	}
	singles := map[string]string{
		"single indented":                       "citations:\n  - path: a.go\n    line: 1\n",
		"single indentless":                     "citations:\n- path: src/app.py\n  line: 2\n",
		"single flow":                           "citations: [a.go:1]\n",
		"single indentless, comment on the key": "citations: # cites\n- path: a.go\n  line: 1\n",
	}
	wrap := func(list string) string { return "---\nid: m\n" + list + "tags: [x]\n---\nbody\n- not a citation\n" }
	type op struct {
		name string
		edit func(f *File) ([]Edit, error)
		want func(paths []string) []string
	}
	var ops []op
	for i := range 3 {
		ops = append(ops, op{fmt.Sprintf("remove %d", i), func(f *File) ([]Edit, error) { return f.RemoveCitation(i) },
			func(p []string) []string { return slices.Delete(slices.Clone(p), i, i+1) }})
		ops = append(ops, op{fmt.Sprintf("set line of %d", i), func(f *File) ([]Edit, error) { return f.SetCitation(i, Field{"line", 7}) },
			func(p []string) []string { return p }})
	}
	ops = append(ops,
		op{"append mapping", func(f *File) ([]Edit, error) { return f.AppendCitation(false, Field{"path", "d.go"}, Field{"line", 4}) },
			func(p []string) []string { return append(slices.Clone(p), "d.go") }},
		op{"append string", func(f *File) ([]Edit, error) { return f.AppendCitation(true, Field{"path", "d.go"}, Field{"line", 4}) },
			func(p []string) []string { return append(slices.Clone(p), "d.go") }},
	)
	paths := func(t *testing.T, f *File) []string {
		var out []string
		for _, c := range f.Citations {
			out = append(out, c.Path)
		}
		return out
	}
	run := func(t *testing.T, src string, o op) {
		f, err := Parse("m.md", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		before := paths(t, f)
		edits, err := o.edit(f)
		if err != nil {
			t.Fatalf("%s: %v", o.name, err)
		}
		out, err := Apply([]byte(src), edits)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Parse("m.md", out)
		if err != nil {
			t.Fatalf("%s: the edited file does not parse: %v\n%s", o.name, err, out)
		}
		if got, want := paths(t, g), o.want(before); !slices.Equal(got, want) {
			t.Errorf("%s: citations %v, want %v\n%s", o.name, got, want, out)
		}
		if !strings.HasSuffix(string(out), "tags: [x]\n---\nbody\n- not a citation\n") || !strings.HasPrefix(string(out), "---\nid: m\n") {
			t.Errorf("%s: other lines changed:\n%s", o.name, out)
		}
	}
	for name, list := range styles {
		for _, o := range ops {
			t.Run(name+"/"+o.name, func(t *testing.T) { run(t, wrap(list), o) })
		}
	}
	for name, list := range singles {
		for _, o := range ops {
			if strings.HasSuffix(o.name, "1") || strings.HasSuffix(o.name, "2") {
				continue
			}
			t.Run(name+"/"+o.name, func(t *testing.T) { run(t, wrap(list), o) })
		}
	}
}
