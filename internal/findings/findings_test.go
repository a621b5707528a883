package findings

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// check verifies the memories of a temporary working tree.
func check(t *testing.T, files map[string]string) *Report {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, err := source.NewWorktree(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Load(context.Background(), src, []string{"mem"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := verify.Check(context.Background(), src, st.Memories, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return FromVerify("verify-all", rep)
}

const code = "package a\n\nfunc Hello() {}\n"

func TestFromVerify(t *testing.T) {
	r := check(t, map[string]string{
		"a.go": code,
		"mem/m.md": "---\nid: m\nconfidence: 9\ncitations:\n" +
			"  - path: a.go\n    line: 3\n    snippet: func Hello()\n" + // line 5: valid
			"  - path: a.go\n    line: 3\n    snippet: func Bye()\n" + // line 8
			"  - a.go:40\n" + // line 11
			"  - gone.go\n" + // line 12
			"  - ../up.go\n" + // line 13
			"  - a.go:0\n" + // line 14
			"  - a.go:3-9\n" + // line 15
			"---\n",
		"mem/broken.md": "---\ncitations:\n  - line: 2\n---\n",
	})
	type want struct {
		rule  string
		level Level
		file  string
		line  int
		cited string
		msg   string
	}
	wants := []want{
		{RuleMalformedMemory, Error, "mem/broken.md", 3, "", "memory cannot be parsed: citation 1 has no path"},
		{RuleSnippetMismatch, Error, "mem/m.md", 8, "a.go:3", "stale citation of a.go:3: Snippet mismatch at line 3. Expected 'func Bye()', got 'func Hello() {}'"},
		{RuleLineOutOfRange, Error, "mem/m.md", 11, "a.go:40", "stale citation of a.go:40: Line 40 exceeds file length (3)"},
		{RuleFileNotFound, Error, "mem/m.md", 12, "gone.go", "stale citation of gone.go: File not found: gone.go"},
		{RulePathTraversal, Error, "mem/m.md", 13, "../up.go", "stale citation of ../up.go: Path traversal blocked: ../up.go"},
		{RuleLineOutOfRange, Error, "mem/m.md", 14, "a.go", "stale citation of a.go:0: Invalid line number: 0 (must be >= 1)"},
		{RuleLineOutOfRange, Error, "mem/m.md", 15, "a.go:3-9", "stale citation of a.go:3-9: Line 9 exceeds file length (3)"},
		{RuleMemoryWarning, Warning, "mem/m.md", 3, "", "confidence 9 is outside 0 to 1; using 0.5"},
	}
	if len(r.Findings) != len(wants) {
		for _, f := range r.Findings {
			t.Logf("%+v", f)
		}
		t.Fatalf("%d findings, want %d", len(r.Findings), len(wants))
	}
	for i, w := range wants {
		f := r.Findings[i]
		got := want{f.RuleID, f.Level, f.MemoryFile, f.MemoryLine, f.CitedLocation(), f.Message}
		if got != w {
			t.Errorf("finding %d:\n got %+v\nwant %+v", i, got, w)
		}
		if len(f.Fingerprint) != 32 {
			t.Errorf("finding %d: fingerprint %q", i, f.Fingerprint)
		}
	}
	if r.Summary.Errors != 7 || r.Summary.Warnings != 1 || r.Summary.Memories != 2 || r.Summary.Citations != 7 {
		t.Errorf("summary %+v", r.Summary)
	}
}

// TestFingerprintStable: editing a memory above a citation moves the
// finding's line but keeps its fingerprint; changing the citation or the
// memory file changes it; the same citation twice gets two fingerprints.
func TestFingerprintStable(t *testing.T) {
	base := "---\nid: m\ncitations:\n  - a.go:40\n  - a.go:40\n---\n"
	moved := "---\nid: m\nsubject: s\ntags: [x]\ncitations:\n  - a.go:40\n  - a.go:40\n---\n"
	other := "---\nid: m\ncitations:\n  - a.go:41\n  - a.go:40\n---\n"
	fp := func(mem, name string) []string {
		r := check(t, map[string]string{"a.go": code, "mem/" + name: mem})
		var out []string
		for _, f := range r.Findings {
			out = append(out, f.Fingerprint)
		}
		return out
	}
	a, b, c, d := fp(base, "m.md"), fp(moved, "m.md"), fp(other, "m.md"), fp(base, "n.md")
	if len(a) != 2 || a[0] == a[1] {
		t.Fatalf("duplicate citations share a fingerprint: %v", a)
	}
	if strings.Join(a, ",") != strings.Join(b, ",") {
		t.Errorf("moving the citations changed fingerprints: %v vs %v", a, b)
	}
	if c[0] == a[0] || c[0] == a[1] {
		t.Errorf("a different citation has a known fingerprint")
	}
	if d[0] == a[0] {
		t.Errorf("another memory file has the same fingerprint")
	}
}

// TestRuleFor pins the rule id of every kind of stale citation: rule ids
// are part of the output formats and of the fingerprints baselines hold.
func TestRuleFor(t *testing.T) {
	want := map[verify.Kind]string{
		verify.KindEmptyPath:       RuleFileNotFound,
		verify.KindPathTraversal:   RulePathTraversal,
		verify.KindNotFound:        RuleFileNotFound,
		verify.KindNotAFile:        RuleFileNotFound,
		verify.KindNotRegular:      RuleUnreadable,
		verify.KindSymlinkLoop:     RuleUnreadable,
		verify.KindIgnored:         RuleUnreadable,
		verify.KindUnreadable:      RuleUnreadable,
		verify.KindBinary:          RuleUnreadable,
		verify.KindLFSPointer:      RuleUnreadable,
		verify.KindInvalidLine:     RuleLineOutOfRange,
		verify.KindInvalidRange:    RuleLineOutOfRange,
		verify.KindPastEOF:         RuleLineOutOfRange,
		verify.KindInvalidUTF8:     RuleUnreadable,
		verify.KindSnippetMismatch: RuleSnippetMismatch,
		verify.KindMoved:           RuleLinesMoved,
		verify.KindEdited:          RuleLinesEdited,
		verify.KindDeleted:         RuleLinesDeleted,
		verify.KindAmbiguous:       RuleStaleUnspecified,
	}
	for _, k := range verify.Kinds() {
		rule, ok := want[k]
		if !ok {
			t.Errorf("kind %s has no pinned rule: add it here (and to docs/ci.md)", k)
			continue
		}
		if got := RuleFor(k); got != rule {
			t.Errorf("RuleFor(%s) = %s, want %s", k, got, rule)
		}
		if _, ok := RuleByID(rule); !ok {
			t.Errorf("RuleFor(%s) = %s: no such rule", k, rule)
		}
	}
	if got := RuleFor(verify.KindNone); got != RuleStaleUnspecified {
		t.Errorf("RuleFor(none) = %s, want %s", got, RuleStaleUnspecified)
	}
	for _, r := range Rules {
		if !strings.HasPrefix(r.ID, RulePrefix) || r.Short == "" || r.Full == "" || r.Help == "" || r.Name == "" {
			t.Errorf("rule %+v is incomplete", r)
		}
	}
}

func TestSeveritiesAndFailOn(t *testing.T) {
	fs := []Finding{
		{RuleID: RuleSnippetMismatch, Level: Error},
		{RuleID: RuleFileNotFound, Level: Error},
		{RuleID: RuleMemoryWarning, Level: Warning},
	}
	got := Severities(append([]Finding(nil), fs...), map[string]Level{
		"snippet-mismatch": Warning, RuleMemoryWarning: Off,
	})
	if len(got) != 2 || got[0].Level != Warning || got[1].Level != Error {
		t.Fatalf("got %+v", got)
	}
	for _, tc := range []struct {
		fs   []Finding
		min  Level
		want bool
	}{
		{got, Error, true},
		{got[:1], Error, false},
		{got[:1], Warning, true},
		{got, Off, false},
		{nil, Note, false},
	} {
		if AtLeast(tc.fs, tc.min) != tc.want {
			t.Errorf("AtLeast(%v, %v) != %v", tc.fs, tc.min, tc.want)
		}
	}
	for _, s := range []string{"error", "warning", "note", "off"} {
		l, err := ParseLevel(s)
		if err != nil || l.String() != s {
			t.Errorf("ParseLevel(%q) = %v, %v", s, l, err)
		}
	}
	if _, err := ParseLevel("fatal"); err == nil {
		t.Error("ParseLevel(fatal) gave no error")
	}
}

func TestBaseline(t *testing.T) {
	doc := `{"schemaVersion": 1, "findings": [{"fingerprint": "aa"}, {"fingerprint": "bb"}]}`
	b, err := ReadBaseline(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	r := &Report{Findings: []Finding{
		{Fingerprint: "aa", Level: Error}, {Fingerprint: "cc", Level: Error}, {Fingerprint: "bb", Level: Warning},
	}}
	b.Filter(r)
	if len(r.Findings) != 1 || r.Findings[0].Fingerprint != "cc" || r.Summary.Baselined != 2 || r.Summary.Errors != 1 || r.Summary.Warnings != 0 {
		t.Errorf("after filtering: %+v", r)
	}
	for _, bad := range []string{`[]`, `{"schemaVersion": 2, "findings": []}`, `{"findings": []}`, `not json`} {
		if _, err := ReadBaseline(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadBaseline(%s): no error", bad)
		}
	}
}

func TestSortChangedFirst(t *testing.T) {
	fs := []Finding{
		{RuleID: "r", Level: Warning, MemoryFile: "m/z.md", MemoryLine: 1},
		{RuleID: "r", Level: Error, MemoryFile: "m/a.md", MemoryLine: 1},
		{RuleID: "r", Level: Error, MemoryFile: "m/b.md", MemoryLine: 1, CitedPath: "src/x.go"},
		{RuleID: "r", Level: Error, MemoryFile: "m/c.md", MemoryLine: 1},
		{RuleID: "r", Level: Warning, MemoryFile: "m/y.md", MemoryLine: 1},
	}
	order := func() string {
		var s []string
		for _, f := range fs {
			s = append(s, f.MemoryFile)
		}
		return strings.Join(s, " ")
	}
	SortChangedFirst(fs, nil)
	if got, want := order(), "m/a.md m/b.md m/c.md m/y.md m/z.md"; got != want {
		t.Errorf("no changes: %s, want %s", got, want)
	}
	// a changed memory or cited file comes first within its level, never
	// before a more serious finding
	SortChangedFirst(fs, map[string]bool{"m/c.md": true, "src/x.go": true, "m/z.md": true})
	if got, want := order(), "m/b.md m/c.md m/a.md m/z.md m/y.md"; got != want {
		t.Errorf("with changes: %s, want %s", got, want)
	}
}
