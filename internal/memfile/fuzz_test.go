package memfile

import (
	"bytes"
	"testing"
)

var fuzzSeeds = []string{
	"---\nid: x\ncitations:\n  - path: a.go\n    line: 3\n    snippet: \"x\"\n---\nbody\n",
	"\xef\xbb\xbf\r\n---\r\ncitations: [a.go:1, 'b.go:2-3']\r\n---\r\n",
	"---\ncitations: a.go\nlinks:\n  - related: y\n---\n",
	"---\ncitations:\n- {path: a, line: \"2-3\"}\n- path: b\n  line: 4 # c\n  commit: 0123456789abcdef0123456789abcdef01234567\n---\n",
	"no frontmatter\n",
	"---\n---\n",
	"---\ncitations:\n  - path: a\n    snippet: |\n      x\n      y\n    line: 1\n---\n",
}

// FuzzParse: Parse never panics, and a parsed file's body is a suffix of
// the input.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := Parse("f.md", src)
		if err != nil {
			return
		}
		if !bytes.HasSuffix(src, m.Body()) {
			t.Fatalf("body %q is not a suffix of the input", m.Body())
		}
	})
}

// FuzzShorthand: citation strings never panic and render back to a string
// that parses to the same citation.
func FuzzShorthand(f *testing.F) {
	for _, s := range []string{"a.go", "a.go:17", "src/a.go:17-28", "a#L3-L4", "https://x", "a:b:3", ":3", "a:-3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseShorthand(s)
		if err != nil {
			return
		}
		d, err := ParseShorthand(c.Location())
		if err != nil {
			t.Fatalf("%q -> %q does not parse: %v", s, c.Location(), err)
		}
		if d.Path != c.Path || d.Line != c.Line || d.LineEnd != c.LineEnd || d.URL != c.URL {
			t.Fatalf("%q -> %+v -> %q -> %+v", s, c, c.Location(), d)
		}
	})
}

// FuzzRewrite: setting a citation's line and adding a commit either fails
// cleanly or produces a file that parses, keeps the body byte-for-byte and
// holds exactly the values written, while the other citations are unchanged.
func FuzzRewrite(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), 7, "func x() {")
	}
	f.Fuzz(func(t *testing.T, src []byte, line int, snippet string) {
		m, err := Parse("f.md", src)
		if err != nil || len(m.Citations) == 0 {
			return
		}
		c := m.Citations[0]
		fields := []Field{{"line", line}}
		if c.Form == FormMapping {
			fields = append(fields, Field{"snippet", snippet}, Field{"commit", "0123456789abcdef0123456789abcdef01234567"})
		}
		edits, err := m.SetCitation(0, fields...)
		if err != nil {
			return
		}
		out, g, err := Rewrite(m, edits)
		if err != nil {
			return // refused: the original stays
		}
		if !bytes.Equal(g.Body(), m.Body()) || len(g.Citations) != len(m.Citations) {
			t.Fatalf("rewrite changed body or citation count:\n%q\n%q", src, out)
		}
		nc := g.Citations[0]
		if nc.Line != line || (c.Form == FormMapping && (nc.Snippet != snippet && !(snippet == "" && !nc.HasSnippet))) {
			t.Fatalf("rewrite wrote line=%d snippet=%q, read back %d %q:\n%q", line, snippet, nc.Line, nc.Snippet, out)
		}
		for i := 1; i < len(m.Citations); i++ {
			a, b := m.Citations[i], g.Citations[i]
			if a.Path != b.Path || a.Line != b.Line || a.Snippet != b.Snippet || a.Commit != b.Commit {
				t.Fatalf("citation %d changed: %+v -> %+v\n%q", i, a, b, out)
			}
		}
	})
}
