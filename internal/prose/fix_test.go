package prose

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/verify"
)

func TestFixFor(t *testing.T) {
	const mem = ".serena/memories/topic/notes.md"
	tests := []struct {
		name string
		ref  verify.ProseRef
		want string // "" for no fix
	}{
		{"root path", verify.ProseRef{Kind: "path", Form: FormBackticked, Text: "src/shop.go", Target: "src/shop.go", Now: "src/order.go"}, "src/order.go"},
		{"path with lines keeps its lines outside the bytes", verify.ProseRef{Kind: "lines", Form: FormPathLine, Text: "src/shop.go", Target: "src/shop.go", Now: "lib/shop.go"}, "lib/shop.go"},
		{"bare name", verify.ProseRef{Kind: "path", Form: FormBare, Text: "shop.go", Target: "src/shop.go", Now: "src/order.go"}, "order.go"},
		{"suffix path", verify.ProseRef{Kind: "path", Form: FormBackticked, Text: "app/shop.go", Target: "src/app/shop.go", Now: "src/app/order.go"}, "src/app/order.go"},
		{"relative link", verify.ProseRef{Kind: "path", Form: FormLink, Text: "../../../src/shop.go", Target: "src/shop.go", Now: "src/order.go"}, "../../../src/order.go"},
		{"memory link", verify.ProseRef{Kind: "memory", Form: FormLink, Text: "other.md", Target: ".serena/memories/topic/other.md", Now: ".serena/memories/topic/other-renamed.md"}, "other-renamed.md"},
		{"memory link moved to another folder", verify.ProseRef{Kind: "memory", Form: FormLink, Text: "other.md", Target: ".serena/memories/topic/other.md", Now: ".serena/memories/archive/other.md"}, "../archive/other.md"},
		{"wiki link", verify.ProseRef{Kind: "memory", Form: FormWiki, Text: "other", Target: ".serena/memories/topic/other.md", Now: ".serena/memories/topic/renamed.md"}, "renamed"},
		{"frontmatter name", verify.ProseRef{Kind: "memory", Form: FormFrontmatter, Text: "other", Target: ".serena/memories/other.md", Now: ".serena/memories/renamed.md"}, "renamed"},
		{"deleted: nowhere to go", verify.ProseRef{Kind: "path", Form: FormBackticked, Text: "src/gone.go", Target: "src/gone.go"}, ""},
		{"unknown bytes", verify.ProseRef{Kind: "path", Form: FormFrontmatter, Text: "a", Target: "a", Now: "b", Start: -1, Stop: -1}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.ref
			if r.Stop == 0 {
				r.Start, r.Stop = 10, 10+len(r.Text)
			}
			f, ok := FixFor(mem, r)
			if got := map[bool]string{true: f.New}[ok]; got != tc.want {
				t.Errorf("got %q (ok %v); want %q", f.New, ok, tc.want)
			}
		})
	}
}

func TestApplyTouchesOnlyTheReferenceBytes(t *testing.T) {
	src := []byte("---\r\nid: n\r\n---\r\nSee `src/shop.go` and [o](other.md).\r\n\xff odd byte kept\r\n")
	a := Extract(src, Options{})
	if len(a) != 2 {
		t.Fatalf("refs: %+v", a)
	}
	fixes := []Fix{
		{Line: a[1].MemLine, Start: a[1].Start, Stop: a[1].Stop, Old: a[1].Target, New: "renamed.md"},
		{Line: a[0].MemLine, Start: a[0].Start, Stop: a[0].Stop, Old: a[0].Target, New: "src/order.go"},
	}
	out, err := Apply(src, fixes)
	if err != nil {
		t.Fatal(err)
	}
	want := "---\r\nid: n\r\n---\r\nSee `src/order.go` and [o](renamed.md).\r\n\xff odd byte kept\r\n"
	if string(out) != want {
		t.Errorf("got %q\nwant %q", out, want)
	}
	// a file changed since it was read is not rewritten
	if _, err := Apply([]byte("---\r\nid: n\r\n---\r\nSee `src/xxxx.go`"), fixes[1:]); err == nil {
		t.Error("no error for bytes that changed")
	}
}

func TestLineFixes(t *testing.T) {
	const mem = ".serena/memories/notes.md"
	tests := []struct {
		name, line, path string // line: the memory's line; path: the reference's text in it
		from, to         verify.Place
		want             string // the line after the fixes ("" for none)
	}{
		{"colon", "see src/a.go:17 here", "src/a.go", verify.Place{Path: "src/a.go", Line: 17}, verify.Place{Path: "src/a.go", Line: 23}, "see src/a.go:23 here"},
		{"colon range", "src/a.go:17-28.", "src/a.go", verify.Place{Path: "src/a.go", Line: 17, LineEnd: 28}, verify.Place{Path: "src/a.go", Line: 23, LineEnd: 34}, "src/a.go:23-34."},
		{"en dash", "src/a.go:7–9", "src/a.go", verify.Place{Path: "src/a.go", Line: 7, LineEnd: 9}, verify.Place{Path: "src/a.go", Line: 10, LineEnd: 12}, "src/a.go:10–12"},
		{"anchor", "[x](src/a.go#L17-L28)", "src/a.go", verify.Place{Path: "src/a.go", Line: 17, LineEnd: 28}, verify.Place{Path: "src/a.go", Line: 9, LineEnd: 20}, "[x](src/a.go#L9-L20)"},
		{"prose line", "`a.py` line 64, then 64 more", "a.py", verify.Place{Path: "a.py", Line: 64}, verify.Place{Path: "a.py", Line: 70}, "`a.py` line 70, then 64 more"},
		{"prose lines", "`a.py` (Lines 350-370)", "a.py", verify.Place{Path: "a.py", Line: 350, LineEnd: 370}, verify.Place{Path: "a.py", Line: 351, LineEnd: 371}, "`a.py` (Lines 351-371)"},
		{"L form", "`a.ps1` L190", "a.ps1", verify.Place{Path: "a.ps1", Line: 190}, verify.Place{Path: "a.ps1", Line: 19}, "`a.ps1` L19"},
		{"another file", "src/a.go:17", "src/a.go", verify.Place{Path: "src/a.go", Line: 17}, verify.Place{Path: "src/b.go", Line: 3}, "src/b.go:3"},
		{"range became one line", "src/a.go:17-28", "src/a.go", verify.Place{Path: "src/a.go", Line: 17, LineEnd: 28}, verify.Place{Path: "src/a.go", Line: 40}, ""},
		{"number not where read", "`a.py` has 3 parts, line 64", "a.py", verify.Place{Path: "a.py", Line: 64}, verify.Place{Path: "a.py", Line: 70}, ""},
		{"number on the next line", "`a.py` is cited\n64", "a.py", verify.Place{Path: "a.py", Line: 64}, verify.Place{Path: "a.py", Line: 70}, ""},
		{"same place", "src/a.go:17", "src/a.go", verify.Place{Path: "src/a.go", Line: 17}, verify.Place{Path: "src/a.go", Line: 17}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte("# Notes\n\n" + tc.line + "\n")
			start := len("# Notes\n\n") + strings.Index(tc.line, tc.path)
			ref := &verify.ProseRef{Kind: "lines", Form: FormPathLine, Text: tc.path, Target: tc.from.Path, Line: 3, Start: start, Stop: start + len(tc.path)}
			to := tc.to
			c := &memfile.Citation{Path: tc.from.Path, HasLine: true, Line: tc.from.Line, LineEnd: tc.from.LineEnd}
			cr := verify.CitationResult{Citation: c, Status: verify.Stale, Kind: verify.KindMoved, Prose: ref, Now: &to}
			fixes := LineFixes(src, mem, cr)
			got := ""
			if len(fixes) > 0 {
				out, err := Apply(src, fixes)
				if err != nil {
					t.Fatal(err)
				}
				got = strings.TrimSuffix(strings.TrimPrefix(string(out), "# Notes\n\n"), "\n")
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			// a verdict other than a move is never rewritten
			cr.Kind = verify.KindEdited
			if f := LineFixes(src, mem, cr); f != nil {
				t.Errorf("an edited line got fixes %v", f)
			}
		})
	}
}

func TestOccurrences(t *testing.T) {
	src := []byte("# N\n\nSee `src/app/shop.go:4` and app/shop.go:4, not app/shop.go:5 or `x/shop.go:4`.\nAgain `shop.go` line 4.\n")
	first := strings.Index(string(src), "src/app/shop.go")
	ref := verify.ProseRef{Kind: "lines", Form: FormBackticked, Text: "src/app/shop.go", Target: "src/app/shop.go", Line: 3, Start: first, Stop: first + len("src/app/shop.go")}
	c := memfile.Citation{Path: "src/app/shop.go", HasLine: true, Line: 4}
	var got []string
	for _, o := range Occurrences(src, Options{}, ref, c) {
		if string(src[o.Start:o.Stop]) != o.Text {
			t.Errorf("%q at %d-%d reads %q", o.Text, o.Start, o.Stop, src[o.Start:o.Stop])
		}
		got = append(got, fmt.Sprintf("%d:%s", o.Line, src[o.Start:o.Stop]))
	}
	want := []string{"3:src/app/shop.go", "3:app/shop.go", "4:shop.go"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// FuzzLineFixes: the rewrites of a moved reference's numbers never panic,
// apply where they were read, stay on the reference's line, and rewrite
// nothing when the numbers do not move.
func FuzzLineFixes(f *testing.F) {
	f.Add("see src/a.go:17-28 here", "src/a.go", 17, 28, 23, 34)
	f.Add("`a.py` line 64, then 64", "a.py", 64, 0, 70, 0)
	f.Add("[x](a.go#L3-L4)\nnext 3", "a.go", 3, 4, 5, 6)
	f.Fuzz(func(t *testing.T, line, path string, from, fromEnd, to, toEnd int) {
		at := strings.Index(line, path)
		if path == "" || at < 0 || len(line) > 1000 {
			return
		}
		src := []byte("# N\n\n" + line + "\n")
		start := len("# N\n\n") + at
		ref := &verify.ProseRef{Kind: "lines", Form: FormPathLine, Text: path, Target: path, Line: 3, Start: start, Stop: start + len(path)}
		c := &memfile.Citation{Path: path, HasLine: true, Line: from, LineEnd: fromEnd}
		now := verify.Place{Path: path, Line: to, LineEnd: toEnd}
		cr := verify.CitationResult{Citation: c, Status: verify.Stale, Kind: verify.KindMoved, Prose: ref, Now: &now}
		fixes := LineFixes(src, ".serena/memories/m.md", cr)
		if len(fixes) == 0 {
			return
		}
		if from == to && (fromEnd == toEnd || fromEnd <= from) {
			t.Fatalf("%q: numbers that did not move rewritten: %+v", line, fixes)
		}
		out, err := Apply(src, fixes)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		eol := bytes.IndexByte(src[start:], '\n') + start
		for _, x := range fixes {
			if x.Start < start || x.Stop > eol {
				t.Fatalf("%q: fix %+v outside the reference's line", line, x)
			}
		}
		if !bytes.HasPrefix(out, src[:start]) || !bytes.HasSuffix(out, src[eol:]) {
			t.Fatalf("%q: the rest of the file changed: %q", line, out)
		}
	})
}
