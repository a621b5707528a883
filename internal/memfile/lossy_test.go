package memfile

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

func TestParseLossy(t *testing.T) {
	src := []byte("---\nid: m\n---\n# t\nbad \xff\xfe line\ngood `a.go:3`\n")
	if _, err := Parse("m.md", src); err == nil {
		t.Fatal("Parse accepted a file that is not UTF-8")
	}
	f, lines, err := ParseLossy("m.md", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 1 || lines[0] != 5 {
		t.Errorf("lines %v; want [5]", lines)
	}
	if len(f.Src) != len(src) || f.ID != "m" {
		t.Errorf("src %q, id %q", f.Src, f.ID)
	}
	edits, err := f.AppendLink("related", "other")
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := Rewrite(f, edits)
	if err != nil {
		t.Fatal(err)
	}
	out, err = RestoreBody(out, f, src)
	if err != nil {
		t.Fatal(err)
	}
	want := []byte("---\nid: m\nlinks:\n  - related: other\n---\n# t\nbad \xff\xfe line\ngood `a.go:3`\n")
	if !bytes.Equal(out, want) {
		t.Errorf("got %q; want %q (the body byte for byte)", out, want)
	}
	// in the frontmatter: Parse's error
	if _, _, err := ParseLossy("m.md", []byte("---\nid: \xff\n---\nbody\n")); err == nil {
		t.Error("a frontmatter that is not UTF-8 was accepted")
	}
}

// FuzzParseLossy: ParseLossy never panics; a file it reads keeps the
// input's length (offsets and lines unchanged), is valid UTF-8, and an
// appended link restores the input's body byte for byte.
func FuzzParseLossy(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte("---\nid: m\n---\nbad \xff line\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		m, _, err := ParseLossy("f.md", src)
		if err != nil {
			return
		}
		if len(m.Src) != len(src) || !utf8.Valid(m.Src) {
			t.Fatalf("read %q from %q", m.Src, src)
		}
		edits, err := m.AppendLink("related", "x")
		if err != nil {
			return
		}
		out, _, err := Rewrite(m, edits)
		if err != nil {
			return
		}
		out, err = RestoreBody(out, m, src)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasSuffix(out, src[len(src)-len(m.Body()):]) {
			t.Fatalf("body not kept: %q from %q", out, src)
		}
	})
}
