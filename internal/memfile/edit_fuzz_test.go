package memfile

import (
	"reflect"
	"testing"

	"go.yaml.in/yaml/v3"
)

// frontValues decodes a file's frontmatter into plain values (nil when it
// does not decode as a mapping).
func frontValues(f *File) map[string]any {
	if !f.HasFrontmatter {
		return map[string]any{}
	}
	var m map[string]any
	if err := yaml.Unmarshal(f.Src[f.fmStart:f.fmEnd], &m); err != nil {
		return nil
	}
	if m == nil {
		m = map[string]any{}
	}
	return m
}

// FuzzEditKeepsOthers: every frontmatter edit changes only what it is
// asked to change. After the edit, each top-level key it did not touch
// decodes to the value it had, and so does every citation and link it did
// not touch (block scalars with keep chomping included, whose value
// includes the blank lines after them).
func FuzzEditKeepsOthers(f *testing.F) {
	for _, s := range fuzzSeeds {
		for op := range 7 {
			f.Add([]byte(s), uint8(op))
		}
	}
	f.Add([]byte("---\nx: |+\n  a\ncitations:\n  - a.go\n\n---\n"), uint8(2))
	f.Add([]byte("---\ncitations:\n  - path: a.go\n    note: |+\n      x\n\n---\n"), uint8(1))
	f.Add([]byte("---\nx: |+\n  a\nconfidence: 1\n\ny: 2\n---\n"), uint8(4))
	f.Fuzz(func(t *testing.T, src []byte, op uint8) {
		m, err := Parse("f.md", src)
		if err != nil {
			return
		}
		before := frontValues(m)
		if before == nil {
			return
		}
		var edits []Edit
		changed := map[string]bool{}
		var citeKept func(i int) int // the new index of old citation i, or -1
		switch op % 7 {
		case 0: // add a top-level key
			if _, ok := before["memcite_probe"]; ok {
				return
			}
			edits, err = m.SetTop(Field{"memcite_probe", "v"})
			changed["memcite_probe"] = true
		case 1: // append a citation
			edits, err = m.AppendCitation(false, Field{"path", "z.go"}, Field{"line", 3})
			changed["citations"] = true
			citeKept = func(i int) int { return i }
		case 2: // remove the first citation
			if len(m.Citations) == 0 {
				return
			}
			edits, err = m.RemoveCitation(0)
			changed["citations"] = true
			citeKept = func(i int) int { return i - 1 }
		case 3: // append a link
			edits, err = m.AppendLink("related", "other")
			changed["links"] = true
		case 4: // delete a top-level key
			if _, ok := before["confidence"]; !ok {
				return
			}
			edits, err = m.SetTop(Field{"confidence", nil})
			changed["confidence"] = true
		case 5: // set the first citation's line
			if len(m.Citations) == 0 {
				return
			}
			edits, err = m.SetCitation(0, Field{"line", 9})
			changed["citations"] = true
			citeKept = func(i int) int { return i }
		case 6: // write the first citation as a mapping holding a commit
			if len(m.Citations) == 0 {
				return
			}
			edits, err = m.SetCitationAsMapping(0, Field{"commit", "0123456789abcdef0123456789abcdef01234567"})
			changed["citations"] = true
			citeKept = func(i int) int { return i }
		}
		if err != nil {
			return
		}
		out, g, err := Rewrite(m, edits)
		if err != nil && op%7 == 6 {
			t.Fatalf("a shorthand written as a mapping does not parse: %v\n%q\n%q", err, src, out)
		}
		if err != nil {
			return
		}
		if op%7 == 6 {
			a, b := m.Citations[0], g.Citations[0]
			if b.Form != FormMapping || b.Commit != "0123456789abcdef0123456789abcdef01234567" || a.Path != b.Path || a.Line != b.Line || a.LineEnd != b.LineEnd {
				t.Fatalf("citation 1 written as %+v, was %+v:\n%q\n%q", b, a, src, out)
			}
		}
		after := frontValues(g)
		if after == nil {
			t.Fatalf("the edited frontmatter does not decode:\n%q\n%q", src, out)
		}
		for k, v := range before {
			if changed[k] {
				continue
			}
			if w, ok := after[k]; !ok || !reflect.DeepEqual(v, w) {
				t.Fatalf("key %q changed from %#v to %#v:\n%q\n%q", k, v, w, src, out)
			}
		}
		if citeKept == nil {
			return
		}
		old, _ := before["citations"].([]any)
		now, _ := after["citations"].([]any)
		for i := range old {
			j := citeKept(i)
			if j < 0 || ((op%7 == 5 || op%7 == 6) && i == 0) {
				continue
			}
			if j >= len(now) || !reflect.DeepEqual(old[i], now[j]) {
				t.Fatalf("citation %d changed:\n%q\n%q", i, src, out)
			}
		}
	})
}
