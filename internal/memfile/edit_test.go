package memfile

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/yamledit"
)

func TestEdits(t *testing.T) {
	tests := []struct {
		name string
		src  string
		edit func(f *File) ([]Edit, error)
		want string
	}{
		{
			"replace line keeps comments and quoting",
			"---\nid: m # the id\ncitations:\n  - path: 'a.go' # quoted\n    line: 3 # old\n    snippet: \"x := 1\"\n---\nbody\n",
			func(f *File) ([]Edit, error) { return f.SetCitation(0, Field{"line", 5}) },
			"---\nid: m # the id\ncitations:\n  - path: 'a.go' # quoted\n    line: 5 # old\n    snippet: \"x := 1\"\n---\nbody\n",
		},
		{
			"add keys to block mapping",
			"---\ncitations:\n  - path: a.go\n    line: 3\n  - path: b.go\n---\nbody\n",
			func(f *File) ([]Edit, error) {
				return f.SetCitation(0, Field{"commit", "0123456789abcdef0123456789abcdef01234567"}, Field{"verified", Timestamp("2026-11-22T10:00:00Z")})
			},
			"---\ncitations:\n  - path: a.go\n    line: 3\n    commit: 0123456789abcdef0123456789abcdef01234567\n    verified: 2026-11-22T10:00:00Z\n  - path: b.go\n---\nbody\n",
		},
		{
			"crlf kept",
			"---\r\ncitations:\r\n  - path: a.go\r\n    line: 3\r\n---\r\nbody\r\n",
			func(f *File) ([]Edit, error) {
				return f.SetCitation(0, Field{"line", 4}, Field{"snippet", "func x() {"})
			},
			"---\r\ncitations:\r\n  - path: a.go\r\n    line: 4\r\n    snippet: func x() {\r\n---\r\nbody\r\n",
		},
		{
			"a citation written to gets its backslashes turned into slashes",
			"---\ncitations:\n  - path: src\\a.go # here\n    line: 3\n  - src\\b.go:17\n  - path: src\\c.go\n---\n",
			func(f *File) ([]Edit, error) {
				e1, err := f.SetCitation(0, Field{"line", 4})
				if err != nil {
					return nil, err
				}
				e2, err := f.SetCitation(1, Field{"line", 18})
				return append(e1, e2...), err
			},
			"---\ncitations:\n  - path: src/a.go # here\n    line: 4\n  - src/b.go:18\n  - path: src\\c.go\n---\n",
		},
		{
			"flow mapping",
			"---\ncitations:\n  - {path: a.go, line: 3}\n---\n",
			func(f *File) ([]Edit, error) { return f.SetCitation(0, Field{"line", 9}, Field{"snippet", "a, b"}) },
			"---\ncitations:\n  - {path: a.go, line: 9, snippet: \"a, b\"}\n---\n",
		},
		{
			"shorthand string keeps its form",
			"---\ncitations:\n  - src/a.go:17\n  - \"src/b.go:3-4\"\n---\n",
			func(f *File) ([]Edit, error) {
				e1, err := f.SetCitation(0, Field{"line", 20})
				if err != nil {
					return nil, err
				}
				e2, err := f.SetCitation(1, Field{"path", "src/c.go"})
				return append(e1, e2...), err
			},
			"---\ncitations:\n  - src/a.go:20\n  - \"src/c.go:3-4\"\n---\n", // the author's quotes kept
		},
		{
			"a range written in the line value stays one",
			"---\ncitations:\n  - path: a.go\n    line: 23-25 # the loop\n    snippet: for\n  - path: b.go\n    line: \"3-4\"\n---\n",
			func(f *File) ([]Edit, error) {
				e1, err := f.SetCitation(0, Field{"path", "c.go"}, Field{"line", 6}, Field{"line_end", 8})
				if err != nil {
					return nil, err
				}
				e2, err := f.SetCitation(1, Field{"line_end", nil})
				return append(e1, e2...), err
			},
			"---\ncitations:\n  - path: c.go\n    line: 6-8 # the loop\n    snippet: for\n  - path: b.go\n    line: 3\n---\n",
		},
		{
			"flow list of strings (cortex)",
			"---\ncitations: [docs/a.md, src/b.go:3]\n---\n",
			func(f *File) ([]Edit, error) { return f.SetCitation(1, Field{"line", 4}) },
			"---\ncitations: [docs/a.md, src/b.go:4]\n---\n",
		},
		{
			"set top adds and replaces",
			"---\nid: m\nconfidence: 0.5\n---\n# body\n",
			func(f *File) ([]Edit, error) {
				return f.SetTop(Field{"confidence", 1.0}, Field{"last_verified", Timestamp("2026-11-22T10:00:00Z")})
			},
			"---\nid: m\nconfidence: 1.0\nlast_verified: 2026-11-22T10:00:00Z\n---\n# body\n",
		},
		{
			"set top on implicit null",
			"---\nconfidence:\n---\n",
			func(f *File) ([]Edit, error) { return f.SetTop(Field{"confidence", 0.25}) },
			"---\nconfidence: 0.25\n---\n",
		},
		{
			"append to block list",
			"---\ncitations:\n- path: a.go\n  line: 1\n# trailing comment\ntags: [x]\n---\n",
			func(f *File) ([]Edit, error) { return f.AppendCitation(false, Field{"path", "b.go"}, Field{"line", 2}) },
			"---\ncitations:\n- path: a.go\n  line: 1\n- path: b.go\n  line: 2\n# trailing comment\ntags: [x]\n---\n",
		},
		{
			"append without citations key",
			"---\nid: m\n---\nbody\n",
			func(f *File) ([]Edit, error) { return f.AppendCitation(false, Field{"path", "b.go"}, Field{"line", 2}) },
			"---\nid: m\ncitations:\n  - path: b.go\n    line: 2\n---\nbody\n",
		},
		{
			"append to file without frontmatter",
			"\xef\xbb\xbf# Title\nbody\n",
			func(f *File) ([]Edit, error) { return f.AppendCitation(false, Field{"path", "b.go"}) },
			"\xef\xbb\xbf---\ncitations:\n  - path: b.go\n---\n# Title\nbody\n",
		},
		{
			"append to null citations",
			"---\ncitations: # none yet\nid: m\n---\n",
			func(f *File) ([]Edit, error) { return f.AppendCitation(false, Field{"path", "b.go"}) },
			"---\ncitations:\n  - path: b.go\nid: m\n---\n",
		},
		{
			"append to single string",
			"---\ncitations: 'a.go:3'\n---\n",
			func(f *File) ([]Edit, error) { return f.AppendCitation(true, Field{"path", "b.go"}, Field{"line", 4}) },
			"---\ncitations:\n  - 'a.go:3'\n  - b.go:4\n---\n",
		},
		{
			"append to flow list",
			"---\ncitations: [a.go]\n---\n",
			func(f *File) ([]Edit, error) { return f.AppendCitation(true, Field{"path", "b.go"}) },
			"---\ncitations: [a.go, b.go]\n---\n",
		},
		{
			"remove middle citation",
			"---\ncitations:\n  - path: a.go\n    line: 1\n  - path: b.go\n    line: 2\n  - path: c.go\n---\n",
			func(f *File) ([]Edit, error) { return f.RemoveCitation(1) },
			"---\ncitations:\n  - path: a.go\n    line: 1\n  - path: c.go\n---\n",
		},
		{
			"remove last citation",
			"---\ncitations:\n  - path: a.go\n  - path: b.go\n    line: 2\ntags: []\n---\n",
			func(f *File) ([]Edit, error) { return f.RemoveCitation(1) },
			"---\ncitations:\n  - path: a.go\ntags: []\n---\n",
		},
		{
			"remove flow item",
			"---\ncitations: [a.go, b.go, c.go]\n---\n",
			func(f *File) ([]Edit, error) { return f.RemoveCitation(2) },
			"---\ncitations: [a.go, b.go]\n---\n",
		},
		{
			"delete key",
			"---\ncitations:\n  - path: a.go\n    line: 1\n    line_end: 4\n    snippet: x\n---\n",
			func(f *File) ([]Edit, error) { return f.SetCitation(0, Field{"line_end", nil}) },
			"---\ncitations:\n  - path: a.go\n    line: 1\n    snippet: x\n---\n",
		},
		{
			"a shorthand written as a mapping to hold a commit",
			"---\ncitations:\n  - a.go:5 # the handler\n  - \"src\\\\b c.go#L3-L4\"\n  - c.go\n---\nbody\n",
			func(f *File) ([]Edit, error) {
				e1, err := f.SetCitationAsMapping(0, Field{"commit", "0123456789abcdef0123456789abcdef01234567"})
				if err != nil {
					return nil, err
				}
				e2, err := f.SetCitationAsMapping(1, Field{"line", 7}, Field{"line_end", nil}, Field{"verified", Timestamp("2026-11-22T10:00:00Z")})
				return append(e1, e2...), err
			},
			"---\ncitations:\n  - {path: a.go, line: 5, commit: 0123456789abcdef0123456789abcdef01234567} # the handler\n  - {path: src/b c.go, line: 7, verified: 2026-11-22T10:00:00Z}\n  - c.go\n---\nbody\n",
		},
		{
			"a shorthand in a flow list, and one standing for the list",
			"---\ncitations: [a.go:5, 'b.go:6']\nmore: [c.go:1]\n---\n",
			func(f *File) ([]Edit, error) { return f.SetCitationAsMapping(1, Field{"commit", "abc"}) },
			"---\ncitations: [a.go:5, {path: b.go, line: 6, commit: abc}]\nmore: [c.go:1]\n---\n",
		},
		{
			"the one shorthand of the list",
			"---\ncitations: a.go:5-9\n---\n",
			func(f *File) ([]Edit, error) { return f.SetCitationAsMapping(0, Field{"commit", "abc"}) },
			"---\ncitations: [{path: a.go, line: 5, line_end: 9, commit: abc}]\n---\n",
		},
		{
			"a flow mapping with a comma after its last entry",
			"---\ncitations:\n  - {path: a.go, line: 3,}\n  - {path: b.go, }\n---\n",
			func(f *File) ([]Edit, error) {
				e1, err := f.SetCitation(0, Field{"commit", "abc"})
				if err != nil {
					return nil, err
				}
				e2, err := f.SetCitation(1, Field{"line", 4}, Field{"commit", "abc"})
				return append(e1, e2...), err
			},
			"---\ncitations:\n  - {path: a.go, line: 3, commit: abc}\n  - {path: b.go, line: 4, commit: abc}\n---\n",
		},
		{
			"a mapping gets its fields set",
			"---\ncitations:\n  - path: a.go\n    line: 5\n---\n",
			func(f *File) ([]Edit, error) { return f.SetCitationAsMapping(0, Field{"commit", "abc"}) },
			"---\ncitations:\n  - path: a.go\n    line: 5\n    commit: abc\n---\n",
		},
		{
			"replace block scalar snippet",
			"---\ncitations:\n  - path: a.go\n    snippet: |\n      one\n      two\n    line: 2\n---\n",
			func(f *File) ([]Edit, error) { return f.SetCitation(0, Field{"snippet", "three"}) },
			"---\ncitations:\n  - path: a.go\n    snippet: three\n    line: 2\n---\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("m.md", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			edits, err := tt.edit(f)
			if err != nil {
				t.Fatal(err)
			}
			// the same edits from a compacted file (as loaded by the store)
			g, _ := Parse("m.md", []byte(tt.src))
			g.Compact()
			edits2, err := tt.edit(g)
			if err != nil || fmt.Sprint(edits2) != fmt.Sprint(edits) {
				t.Fatalf("edits after Compact differ: %v %v / %v", err, edits2, edits)
			}
			got, _, err := Rewrite(f, edits)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("got:\n%q\nwant:\n%q", got, tt.want)
			}
		})
	}
}

func TestNoopRewriteIsIdentical(t *testing.T) {
	src := []byte("\xef\xbb\xbf---\r\n# comment\r\nid: m\r\ncitations:\r\n  - path: a.go\r\n---\r\nbody\r\n")
	f, err := Parse("m.md", src)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := Rewrite(f, nil)
	if err != nil || !bytes.Equal(got, src) {
		t.Fatalf("no-op rewrite changed the file: %q %v", got, err)
	}
}

func TestQuoteStringRoundTrips(t *testing.T) {
	for _, s := range []string{"plain", "a: b", "#x", "- x", "true", "123", "null", "it's", `say "hi"`, "tab\there", " lead", "trail ", "a\nb", "~", "ünïcode", "x #y", "[a]", "{b}", "@x", "%y", "`z"} {
		f, err := Parse("m.md", []byte("---\nk: "+yamledit.QuoteString(s, false)+"\n---\n"))
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		k, v := yamledit.Lookup(f.root, "k")
		if k == nil || v.Value != s || v.Tag != "!!str" {
			t.Errorf("%q rendered as %q reads back as %q (%s)", s, yamledit.QuoteString(s, false), v.Value, v.Tag)
		}
	}
}

// TestDuplicateKeys: a key written twice in a citation (YAML forbids it)
// is read as its last value with a warning naming the line, and an edit
// of that citation is refused: it could not know which one to change.
// Found by FuzzRewrite. (Twice at the top level is a parse error.)
func TestDuplicateKeys(t *testing.T) {
	src := "---\nconfidence: 0.5\ncitations:\n  - path: a.go\n    snippet: one\n    snippet: two\n    line: 3\n---\nbody\n"
	f, err := Parse("m.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c := f.Citations[0]
	if c.Snippet != "two" {
		t.Errorf("snippet = %q, want the last value", c.Snippet)
	}
	if len(f.Warnings) != 1 || f.Warnings[0].Line != 6 || !strings.Contains(f.Warnings[0].Msg, `"snippet" appears more than once`) {
		t.Errorf("warnings = %v", f.Warnings)
	}
	if _, err := f.SetCitation(0, Field{"line", 4}, Field{"snippet", "x"}); err == nil || !strings.Contains(err.Error(), `m.md:4: citation 1 has the key "snippet" more than once`) {
		t.Errorf("SetCitation: err = %v", err)
	}
	if _, err := f.SetCitation(0, Field{"line", 4}); err != nil {
		t.Errorf("SetCitation of another key: %v", err)
	}
	if _, err := f.SetTop(Field{"confidence", 1.0}); err != nil {
		t.Errorf("SetTop: %v", err)
	}
}

// TestMultiLineScalarThenNewKey: keys added after a quoted value that runs
// over two lines go after its closing quote, not inside it (FuzzRewrite).
func TestMultiLineScalarThenNewKey(t *testing.T) {
	src := "---\ncitations:\n  - path: \"a\n  b.go\"\n---\n"
	f, err := Parse("m.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	edits, err := f.SetCitation(0, Field{"commit", "0123456789abcdef0123456789abcdef01234567"})
	if err != nil {
		t.Fatal(err)
	}
	out, g, err := Rewrite(f, edits)
	if err != nil {
		t.Fatal(err)
	}
	if c := g.Citations[0]; c.Path != "a b.go" || c.Commit != "0123456789abcdef0123456789abcdef01234567" {
		t.Fatalf("got %+v from %q", c, out)
	}
}

// TestCROnlyLineEndings: a file with classic Mac line endings (CR only)
// gets CR-ended lines from every edit, never an LF.
func TestCROnlyLineEndings(t *testing.T) {
	src := "---\rid: m\rcitations:\r  - path: a.go\r    line: 3\r    snippet: f\r---\rBody\rmore\r"
	apply := func(t *testing.T, src string, edit func(f *File) ([]Edit, error)) string {
		t.Helper()
		f, err := Parse("m.md", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		es, err := edit(f)
		if err != nil {
			t.Fatal(err)
		}
		out, _, err := Rewrite(f, es)
		if err != nil {
			t.Fatal(err)
		}
		if strings.ContainsRune(string(out), '\n') {
			t.Fatalf("an LF was written:\n%q", out)
		}
		if !strings.HasSuffix(string(out), "---\rBody\rmore\r") {
			t.Fatalf("the body changed:\n%q", out)
		}
		return string(out)
	}
	out := apply(t, src, func(f *File) ([]Edit, error) {
		return f.SetCitation(0, Field{Key: "line", Value: 4}, Field{Key: "commit", Value: "0123456789abcdef0123456789abcdef01234567"})
	})
	out = apply(t, out, func(f *File) ([]Edit, error) {
		return f.AppendCitation(false, Field{Key: "path", Value: "b.go"}, Field{Key: "line", Value: 1})
	})
	out = apply(t, out, func(f *File) ([]Edit, error) { return f.AppendCitation(true, Field{Key: "path", Value: "c.go"}) })
	out = apply(t, out, func(f *File) ([]Edit, error) {
		return f.SetTop(Field{Key: "confidence", Value: 0.5}, Field{Key: "last_verified", Value: Timestamp("2026-01-01T00:00:00Z")})
	})
	for i := 2; i >= 0; i-- {
		out = apply(t, out, func(f *File) ([]Edit, error) { return f.RemoveCitation(i) })
	}
	if want := "---\rid: m\rcitations: []\rconfidence: 0.5\rlast_verified: 2026-01-01T00:00:00Z\r---\rBody\rmore\r"; out != want {
		t.Errorf("got\n%q\nwant\n%q", out, want)
	}
	// no frontmatter yet
	out = apply(t, "Body\rmore\r", func(f *File) ([]Edit, error) { return f.SetTop(Field{Key: "id", Value: "m"}) })
	if want := "---\rid: m\r---\rBody\rmore\r"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

// TestRewriteKeepsQuoting: a new value replacing a quoted one is written in
// the author's quotes; one that cannot be single-quoted gets double quotes.
func TestRewriteKeepsQuoting(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"  - path: a.go\n    snippet: \"old\"\n", "  - path: a.go\n    snippet: \"new: it's\"\n"},
		{"  - path: a.go\n    snippet: 'old'\n", "  - path: a.go\n    snippet: 'new: it''s'\n"},
		{"  - path: a.go\n    snippet: old\n", "  - path: a.go\n    snippet: \"new: it's\"\n"},
		{"  - {path: a.go, snippet: 'old'}\n", "  - {path: a.go, snippet: 'new: it''s'}\n"},
	} {
		f, err := Parse("m.md", []byte("---\ncitations:\n"+tc.src+"---\n"))
		if err != nil {
			t.Fatal(err)
		}
		es, err := f.SetCitation(0, Field{Key: "snippet", Value: "new: it's"})
		if err != nil {
			t.Fatal(err)
		}
		out, _, err := Rewrite(f, es)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSuffix(strings.TrimPrefix(string(out), "---\ncitations:\n"), "---\n"); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
	f, _ := Parse("m.md", []byte("---\ncitations:\n  - 'a.go:3'\n---\n"))
	es, err := f.SetCitation(0, Field{Key: "line", Value: 4})
	if err != nil {
		t.Fatal(err)
	}
	if out, _, _ := Rewrite(f, es); string(out) != "---\ncitations:\n  - 'a.go:4'\n---\n" {
		t.Errorf("shorthand: %q", out)
	}
}

func TestSetCitationAsMappingRefuses(t *testing.T) {
	for _, src := range []string{
		"---\ncitations:\n  - &a a.go:5\nsee: *a\n---\n",
		"---\ncitations:\n  - !!str a.go:5\n---\n",
		"---\ncitations:\n  - a.go\n---\n",
		"---\ncitations:\n  - https://example.com/a.go#L5\n---\n",
	} {
		f, err := Parse("m.md", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if e, err := f.SetCitationAsMapping(0, Field{"commit", "abc"}); err == nil {
			t.Errorf("%q: edits %v, want an error", src, e)
		}
	}
}
