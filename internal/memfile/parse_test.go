package memfile

import (
	"errors"
	"strings"
	"testing"
)

func TestParseShapes(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		check func(t *testing.T, f *File)
	}{
		{"no frontmatter", "# Title\n\nbody\n", func(t *testing.T, f *File) {
			if f.HasFrontmatter || len(f.Citations) != 0 || string(f.Body()) != "# Title\n\nbody\n" {
				t.Fatalf("got %+v", f)
			}
		}},
		{"bom crlf blank lines", "\xef\xbb\xbf\r\n\r\n---\r\nid: x\r\ncitations:\r\n  - path: a.go\r\n    line: 3\r\n---\r\nbody\r\n", func(t *testing.T, f *File) {
			if f.ID != "x" || len(f.Citations) != 1 || f.Citations[0].Line != 3 || string(f.Body()) != "body\r\n" {
				t.Fatalf("got id=%q cits=%+v body=%q", f.ID, f.Citations, f.Body())
			}
			if f.Citations[0].SrcLine != 6 {
				t.Errorf("SrcLine = %d, want 6", f.Citations[0].SrcLine)
			}
		}},
		{"citations null", "---\ncitations:\n---\n", func(t *testing.T, f *File) {
			if len(f.Citations) != 0 {
				t.Fatal(f.Citations)
			}
		}},
		{"citations empty list", "---\ncitations: []\n---\n", func(t *testing.T, f *File) {
			if len(f.Citations) != 0 {
				t.Fatal(f.Citations)
			}
		}},
		{"single string", "---\ncitations: src/a.go:17\n---\n", func(t *testing.T, f *File) {
			c := f.Citations[0]
			if c.Path != "src/a.go" || c.Line != 17 || c.Form != FormString {
				t.Fatal(c)
			}
		}},
		{"shorthand shapes", "---\ncitations:\n  - src/a.go\n  - src/a.go:17\n  - src/a.go:17-28\n  - https://example.com/x\n  - src/b.go#L3-L5\n---\n", func(t *testing.T, f *File) {
			want := []string{"src/a.go", "src/a.go:17", "src/a.go:17-28", "https://example.com/x", "src/b.go:3-5"}
			for i, w := range want {
				if got := f.Citations[i].Location(); got != w {
					t.Errorf("citation %d = %q, want %q", i, got, w)
				}
			}
			if f.Citations[3].URL == "" {
				t.Error("URL not recognised")
			}
		}},
		{"numeric string and range line", "---\ncitations:\n  - path: a\n    line: \"3\"\n  - path: b\n    line: \"2-3\"\n  - path: c\n    line: 4.0\n---\n", func(t *testing.T, f *File) {
			if f.Citations[0].Line != 3 || f.Citations[1].Line != 2 || f.Citations[1].LineEnd != 3 || f.Citations[2].Line != 4 {
				t.Fatal(f.Citations)
			}
		}},
		{"zero and negative lines parse", "---\ncitations:\n  - path: a\n    line: 0\n  - path: b\n    line: -4\n---\n", func(t *testing.T, f *File) {
			if !f.Citations[0].HasLine || f.Citations[0].Line != 0 || f.Citations[1].Line != -4 {
				t.Fatal(f.Citations)
			}
		}},
		{"extra keys tolerated", "---\ncitations:\n  - path: a\n    valid: true\n    mismatch_reason: null\n    commit: 0123456789abcdef0123456789abcdef01234567\n---\n", func(t *testing.T, f *File) {
			if f.Citations[0].Commit != "0123456789abcdef0123456789abcdef01234567" {
				t.Fatal(f.Citations)
			}
		}},
		{"warnings", "---\nname: x\ntype: feedback\nconfidence: HIGH\ntags: oops\nlinks:\n  - frobs: y\n  - RELATED: z\n  - link_type: IMPLEMENTS\n    target_id: adr-1\n---\n", func(t *testing.T, f *File) {
			if f.Confidence != DefaultConfidence || f.HasConfidence {
				t.Errorf("confidence = %v", f.Confidence)
			}
			if len(f.Warnings) != 3 {
				t.Errorf("warnings = %v", f.Warnings)
			}
			if len(f.Links) != 2 || f.Links[0] != (Link{"related", "z", 8}) || f.Links[1].Type != "implements" || f.Links[1].Target != "adr-1" {
				t.Errorf("links = %+v", f.Links)
			}
		}},
		{"exempt and confidence", "---\nexempt: true\nconfidence: 0.75\nlast_verified: 2026-01-01T00:00:00Z\n---\n", func(t *testing.T, f *File) {
			if !f.Exempt || f.Confidence != 0.75 || f.LastVerified != "2026-01-01T00:00:00Z" {
				t.Fatal(f)
			}
		}},
		{"backslashes read as slashes, with a warning", "---\ncitations:\n  - path: 'src\\a.go'\n    line: 2\n  - src\\b.go:3\n  - 'C:\\x.go:4'\n  - '\\\\server\\share\\y.go'\n  - src/c.go\n---\n", func(t *testing.T, f *File) {
			want := []string{"src/a.go:2", "src/b.go:3", "C:/x.go:4", "//server/share/y.go", "src/c.go"}
			for i, w := range want {
				if got := f.Citations[i].Location(); got != w {
					t.Errorf("citation %d = %q, want %q", i+1, got, w)
				}
			}
			if len(f.Warnings) != 4 {
				t.Fatalf("warnings = %v", f.Warnings)
			}
			if got := f.Warnings[0].String(); got != `m.md:3: citation 1: path src\a.go is written with backslashes; read as src/a.go (citation paths are slash-separated)` {
				t.Errorf("warning = %s", got)
			}
		}},
		{"multi-line snippet", "---\ncitations:\n  - path: a\n    line: 2\n    line_end: 3\n    snippet: |\n      a\n      b\n---\n", func(t *testing.T, f *File) {
			if f.Citations[0].Snippet != "a\nb\n" || f.Citations[0].LineEnd != 3 {
				t.Fatalf("%q", f.Citations[0].Snippet)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("m.md", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, f)
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		msg       string
	}{
		{"malformed yaml", "---\nid: x\ncitations: [\n---\n", 3, "invalid YAML"},
		{"non utf8", "---\nid: x\n---\nbad \xff\n", 4, "not valid UTF-8"},
		{"no path", "---\ncitations:\n  - line: 3\n---\n", 3, "has no path"},
		{"fractional line", "---\ncitations:\n  - path: a\n    line: 3.5\n---\n", 4, "3.5 is not a whole number"},
		{"citations mapping", "---\ncitations:\n  path: a\n---\n", 3, "citations must be a list"},
		{"not closed", "---\nid: x\n", 1, "no closing"},
		{"not a mapping", "---\n- a\n- b\n---\n", 2, "not a mapping"},
		{"duplicate key", "---\nid: a\nid: b\n---\n", 3, "duplicate key"},
		{"word line", "---\ncitations:\n  - path: a\n    line: three\n---\n", 4, "not a whole number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("mem/x.md", []byte(tt.src))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *ParseError", err)
			}
			if pe.File != "mem/x.md" || pe.Line != tt.line || !strings.Contains(pe.Msg, tt.msg) {
				t.Fatalf("got %v; want line %d containing %q", pe, tt.line, tt.msg)
			}
		})
	}
}

func TestAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\na: &a [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]\n")
	prev := "a"
	for i := 0; i < 9; i++ {
		name := string(rune('b' + i))
		b.WriteString(name + ": &" + name + " [*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + "]\n")
		prev = name
	}
	b.WriteString("citations: *" + prev + "\n---\n")
	_, err := Parse("bomb.md", []byte(b.String()))
	if err == nil {
		t.Fatal("alias bomb parsed without error")
	}
}

// TestUnknownKeyWarnings: a misspelt key is named with its likely meaning
// and the memory-file line; extensions (x-…) and notes are silent, and so
// are the store's own top-level keys.
func TestUnknownKeyWarnings(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"citations:\n  - path: a.go\n    lines: 3\n", `case.md:4: citation 1: unknown key "lines" (did you mean "line"?); ignored`},
		{"citations:\n  - path: a.go\n    snipet: x\n", `case.md:4: citation 1: unknown key "snipet" (did you mean "snippet"?); ignored`},
		{"citations:\n  - paht: b.go\n    path: a.go\n", `case.md:3: citation 1: unknown key "paht" (did you mean "path"?); ignored`},
		{"citations:\n  - path: a.go\n    Line: 3\n", `case.md:4: citation 1: unknown key "Line" (did you mean "line"?); ignored`},
		{"citations:\n  - path: a.go\n    owner: me\n", `case.md:4: citation 1: unknown key "owner"; kept but not read (extensions start with "x-")`},
		{"citations:\n  - path: a.go\n    x-owner: me\n    note: why\n", ""},
		{"citation:\n  - a.go\n", `case.md:2: unknown key "citation" (did you mean "citations"?); ignored`},
		{"confidance: 0.5\n", `case.md:2: unknown key "confidance" (did you mean "confidence"?); ignored`},
		{"title: T\ncreated: 2026-01-01\ntype: note\n", ""},
	} {
		f, err := Parse("case.md", []byte("---\n"+tc.yaml+"---\n"))
		if err != nil {
			t.Fatalf("%q: %v", tc.yaml, err)
		}
		got := ""
		for _, w := range f.Warnings {
			got += w.String()
		}
		if got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.yaml, got, tc.want)
		}
	}
}

// TestYAMLCorners: merge keys, explicit tags and huge numbers read as YAML
// means them, with reasons that say what is wrong.
func TestYAMLCorners(t *testing.T) {
	for _, tc := range []struct{ yaml, want, err string }{
		{yaml: "base: &b {path: a.go, line: 2}\ncitations:\n  - <<: *b\n    snippet: x\n", want: "a.go:2 snippet=x"},
		{yaml: "base: &b {path: a.go, line: 2}\ncitations:\n  - <<: *b\n    line: 7\n", want: "a.go:7 snippet="},
		{yaml: "a: &a {path: a.go}\nb: &b {line: 4}\ncitations:\n  - <<: [*a, *b]\n", want: "a.go:4 snippet="},
		{yaml: "citations:\n  - path: a.go\n    line: !!int 5\n", want: "a.go:5 snippet="},
		{yaml: "citations:\n  - path: a.go\n    line: 9223372036854775807\n", err: "case.md:4: citation 1: line: 9223372036854775807 is too large (at most 2147483647)"},
		{yaml: "citations:\n  - <<: 3\n    path: a.go\n", err: "case.md:3: a YAML merge key (<<) must name a mapping"},
		{yaml: "citations:\n  - path: a:b.go\n    line: 1\n", want: "a:b.go:1 snippet="},
	} {
		f, err := Parse("case.md", []byte("---\n"+tc.yaml+"---\n"))
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: err = %v, want %s", tc.yaml, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tc.yaml, err)
		}
		c := f.Citations[0]
		if got := c.Location() + " snippet=" + c.Snippet; got != tc.want {
			t.Errorf("%q: %s, want %s", tc.yaml, got, tc.want)
		}
	}
	// a citation that takes keys from a merge key is not edited
	f, err := Parse("case.md", []byte("---\nbase: &b {path: a.go, line: 2}\ncitations:\n  - <<: *b\n---\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.SetCitation(0, Field{Key: "line", Value: 3}); err == nil || !strings.Contains(err.Error(), "merge key") {
		t.Errorf("SetCitation on a merged citation: %v", err)
	}
}
