package verify

import (
	"bufio"
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
)

func TestReadLines(t *testing.T) {
	tests := []struct {
		in       string
		n        int
		want     []string
		complete bool
	}{
		{"a\nb\nc\n", 10, []string{"a", "b", "c"}, true},
		{"a\nb\nc", 10, []string{"a", "b", "c"}, true},
		{"a\r\nb\r\n", 10, []string{"a", "b"}, true},
		{"a\rb\rc", 10, []string{"a", "b", "c"}, true},
		{"a\nb\nc\n", 2, []string{"a", "b"}, false},
		{"a\nb\n", 2, []string{"a", "b"}, true},
		{"", 3, []string{}, true},
		{"\n\n", 5, []string{"", ""}, true},
	}
	for _, tt := range tests {
		got, complete, err := readLines(bufio.NewReader(strings.NewReader(tt.in)), tt.n, nil)
		if err != nil || !reflect.DeepEqual(got, tt.want) || complete != tt.complete {
			t.Errorf("readLines(%q, %d) = %q, %v, %v; want %q, %v", tt.in, tt.n, got, complete, err, tt.want, tt.complete)
		}
	}
}

func FuzzReadLines(f *testing.F) {
	f.Add("a\nb\r\nc\rd", 3)
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 0 || n > 1000 {
			return
		}
		all, complete, err := readLines(bufio.NewReader(strings.NewReader(s)), 1<<30, nil)
		if err != nil || !complete {
			t.Fatal(err)
		}
		some, _, _ := readLines(bufio.NewReader(strings.NewReader(s)), n, nil)
		if len(some) > len(all) || !reflect.DeepEqual(some, all[:len(some)]) {
			t.Fatalf("prefix read %q is not a prefix of %q", some, all)
		}
		if want := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s); strings.Join(all, "\n") != strings.TrimSuffix(want, "\n") && !(len(all) == 0 && want == "") {
			t.Fatalf("lines %q do not rebuild %q", all, s)
		}
	})
}

// TestCitation covers each reason against a real working tree.
func TestCitation(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	write := func(p, s string) {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "package a\n\nfunc A() {\n\treturn\n}\n")
	write("crlf.txt", "one\r\ntwo\r\n")
	write("cr.txt", "one\rtwo\rthree")
	write("latin1.txt", "ok\ncaf\xe9\n")
	write("big.txt", strings.Repeat("x\n", 100000))
	write(".git/config", "[core]\n")
	write("a:b.go", "x\n")
	write("bin.dat", "ab\x00cd\n")
	write("lfs.bin", "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 12\n")
	write("d/x.go", "package d\n")
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	must(t, os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "abs-link")))
	must(t, os.Symlink("../"+filepath.Base(outside)+"/secret", filepath.Join(root, "rel-link")))
	must(t, os.Symlink(outside, filepath.Join(root, "dir-link")))
	must(t, os.Symlink("a.go", filepath.Join(root, "in-link")))
	must(t, os.Symlink("loop2", filepath.Join(root, "loop1")))
	must(t, os.Symlink("loop1", filepath.Join(root, "loop2")))
	if err := mkfifo(filepath.Join(root, "fifo")); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}

	tests := []struct {
		cite string // shorthand, or "path|line|snippet|end"
		want string
		kind Kind
	}{
		{"a.go|3|func A()|", "", KindNone},
		{"a.go|3|func a()|", "Snippet mismatch at line 3. Expected 'func a()', got 'func A() {'", KindSnippetMismatch},
		{"a.go|4|\treturn|", "", KindNone},
		{"a.go|4|return|", "", KindNone},
		{"a.go|1|package a\n\nfunc|", "", KindNone},
		{"a.go|1|package b\n\nfunc|", "Snippet mismatch at line 1. Expected 'package b\n\nfunc', got 'package a'", KindSnippetMismatch},
		{"a.go|2|A()|5", "", KindNone},
		{"a.go|2|nope|5", "Snippet mismatch at lines 2-5. Expected 'nope', got ''", KindSnippetMismatch},
		{"a.go|5||2", "Invalid line range: 5-2 (end before start)", KindInvalidRange},
		{"a.go|6||", "Line 6 exceeds file length (5)", KindPastEOF},
		{"a.go|-1||", "Invalid line number: -1 (must be >= 1)", KindInvalidLine},
		{"crlf.txt|2|two|", "", KindNone},
		{"cr.txt|3|three|", "", KindNone},
		{"latin1.txt|1|ok|", "", KindNone},
		{"latin1.txt|2||", "Cannot read file: latin1.txt: line 2 is not valid UTF-8", KindInvalidUTF8},
		{"big.txt|3|x|", "", KindNone},
		{"big.txt|100001||", "Line 100001 exceeds file length (100000)", KindPastEOF},
		{"abs-link|1||", "Path traversal blocked: abs-link", KindPathTraversal},
		{"rel-link", "Path traversal blocked: rel-link", KindPathTraversal},
		{"dir-link/secret", "Path traversal blocked: dir-link/secret", KindPathTraversal},
		{"in-link|3|func A|", "", KindNone},
		{"loop1|1||", "Cannot read file: loop1: too many levels of symbolic links", KindSymlinkLoop},
		{"fifo|1||", "Cannot read file: fifo: not a regular file", KindNotRegular},
		{".git/config", "Path traversal blocked: .git/config", KindPathTraversal},
		{"sub/../a.go|3||", "", KindNone},
		{`a\b.go`, `Path traversal blocked: a\b.go`, KindPathTraversal},
		{"C:/x", "Path traversal blocked: C:/x", KindPathTraversal},
		{"C:", "Path traversal blocked: C:", KindPathTraversal},
		{"a:b.go|1|x|", "", KindNone}, // a colon is an ordinary character of a file name
		{"~/x", "Path traversal blocked: ~/x", KindPathTraversal},
		{"missing", "File not found: missing", KindNotFound},
		{"", "Empty path", KindEmptyPath},
		{"d", "Not a file: d is a directory", KindNotAFile},
		{"d|1||", "Not a file: d is a directory", KindNotAFile},
		{"bin.dat", "", KindNone}, // a whole binary file exists
		{"bin.dat|1||", "Cannot read file: bin.dat: binary file", KindBinary},
		{"lfs.bin|1||", "Cannot read file: lfs.bin: git-lfs pointer (the content is not in the repository)", KindLFSPointer},
	}
	wt, err := source.NewWorktree(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.cite, func(t *testing.T) {
			c := parseCite(t, tt.cite)
			w := &want{}
			if c.HasLine {
				w.add(max(c.Line, 1), max(c.Line, c.LineEnd, c.Line+strings.Count(c.Snippet, "\n")))
			}
			kind, got := Citation(c, readFile(wt, c.Path, w))
			if got != tt.want || kind != tt.kind {
				t.Fatalf("got %s %q, want %s %q", kind, got, tt.kind, tt.want)
			}
		})
	}
}

func parseCite(t *testing.T, s string) memfile.Citation {
	parts := strings.Split(s, "|")
	if len(parts) == 1 {
		return memfile.Citation{Path: s}
	}
	c := memfile.Citation{Path: parts[0], HasLine: true}
	c.Line = atoi(t, parts[1])
	if parts[2] != "" {
		c.Snippet, c.HasSnippet = parts[2], true
	}
	if parts[3] != "" {
		c.LineEnd = atoi(t, parts[3])
	}
	return c
}

func atoi(t *testing.T, s string) int {
	n := 0
	neg := strings.HasPrefix(s, "-")
	for _, r := range strings.TrimPrefix(s, "-") {
		n = n*10 + int(r-'0')
	}
	if neg {
		return -n
	}
	return n
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestConfidence(t *testing.T) {
	root := t.TempDir()
	must(t, os.WriteFile(filepath.Join(root, "a"), []byte("1\n2\n3\n"), 0o644))
	tests := []struct {
		src  string
		want float64
	}{
		{"---\ncitations: [a:1, a:2, a:9]\n---\n", 0.67},
		{"---\nconfidence: 0.9\n---\n", 0.9},
		{"---\nconfidence: 0.9\ncitations: [https://x]\n---\n", 0.9},
		{"---\ncitations: [a:9, a:1]\n---\n", 0.5},
		{"# none\n", 0.5},
	}
	wt, _ := source.NewWorktree(root)
	for _, tt := range tests {
		f, err := memfile.Parse("m.md", []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Check(context.Background(), wt, []*store.Memory{{Path: "m.md", ID: "m", File: f}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := rep.Memories[0].Confidence; got != tt.want {
			t.Errorf("%q: confidence %v, want %v", tt.src, got, tt.want)
		}
	}
}

// vanishing is a source whose files disappear between Stat and Open.
type vanishing struct{ source.Source }

func (vanishing) Open(string) (io.ReadCloser, error) { return nil, fs.ErrNotExist }

// failing is a source whose files cannot be opened.
type failing struct {
	source.Source
	err error
}

func (f failing) Open(string) (io.ReadCloser, error) { return nil, f.err }

// TestCitationReadErrors: errors opening a file that exists are
// "Cannot read file" reasons, told apart by kind.
func TestCitationReadErrors(t *testing.T) {
	root := t.TempDir()
	must(t, os.WriteFile(filepath.Join(root, "a"), []byte("x\n"), 0o644))
	wt, _ := source.NewWorktree(root)
	w := &want{}
	w.add(1, 1)
	c := memfile.Citation{Path: "a", Line: 1, HasLine: true}
	for _, tc := range []struct {
		err  error
		kind Kind
		want string
	}{
		{&fs.PathError{Op: "read", Path: "a", Err: source.ErrIgnored}, KindIgnored, "Cannot read file: a: ignored by git"},
		{fs.ErrPermission, KindUnreadable, "Cannot read file: a: permission denied"},
	} {
		kind, got := Citation(c, readFile(failing{wt, tc.err}, "a", w))
		if kind != tc.kind || got != tc.want {
			t.Errorf("%v: got %s %q, want %s %q", tc.err, kind, got, tc.kind, tc.want)
		}
	}
}

// TestKindNames: every kind has its own name.
func TestKindNames(t *testing.T) {
	seen := map[string]Kind{}
	for _, k := range Kinds() {
		name := k.String()
		if name == "" || strings.HasPrefix(name, "kind(") || name == KindNone.String() {
			t.Errorf("kind %d has no name", int(k))
		}
		if other, ok := seen[name]; ok {
			t.Errorf("kinds %d and %d are both %q", int(other), int(k), name)
		}
		seen[name] = k
	}
	if len(seen) != int(KindAmbiguous) {
		t.Errorf("%d kinds listed, want %d", len(seen), int(KindAmbiguous))
	}
	if got := Kind(99).String(); got != "kind(99)" {
		t.Errorf("Kind(99) = %q", got)
	}
}

// TestSharedReason: a snippet mismatch in a file git does not track does
// not repeat the file's text, even when that text looks like the reason's
// own wording.
func TestSharedReason(t *testing.T) {
	c := memfile.Citation{Path: "a", Line: 1, HasLine: true, Snippet: "want", HasSnippet: true}
	reason := snippetMismatch(c, "want", `s := ", got 'secret"`)
	for _, tc := range []struct {
		cr   CitationResult
		want string
	}{
		{CitationResult{Citation: &c, Status: Stale, Kind: KindSnippetMismatch, Reason: reason}, reason},
		{CitationResult{Citation: &c, Status: Stale, Kind: KindSnippetMismatch, Reason: reason, Untracked: true},
			"Snippet mismatch at line 1. Expected 'want' (the file is not tracked by git: its text is not shown)"},
		{CitationResult{Citation: &c, Status: Stale, Kind: KindPastEOF, Reason: "Line 1 exceeds file length (0)", Untracked: true},
			"Line 1 exceeds file length (0)"},
	} {
		if got := tc.cr.SharedReason(); got != tc.want {
			t.Errorf("SharedReason() = %q, want %q", got, tc.want)
		}
	}
}

func TestFileVanishesBeforeRead(t *testing.T) {
	root := t.TempDir()
	must(t, os.WriteFile(filepath.Join(root, "a"), []byte("x\n"), 0o644))
	wt, _ := source.NewWorktree(root)
	w := &want{}
	w.add(1, 1)
	c := memfile.Citation{Path: "a", Line: 1, HasLine: true}
	if kind, got := Citation(c, readFile(vanishing{wt}, "a", w)); kind != KindNotFound || got != "File not found: a" {
		t.Fatalf("got %s %q", kind, got)
	}
}

// TestVerdictIndependentOfOtherCitations: a citation's verdict is the
// same whether the file is read for it alone or with other citations
// (which read other lines), so that it can be cached by the content and
// the citation only.
func TestVerdictIndependentOfOtherCitations(t *testing.T) {
	root := t.TempDir()
	must(t, os.WriteFile(filepath.Join(root, "a"), []byte("ok\n\xff bad\nok\nfine\n"), 0o644))
	wt, _ := source.NewWorktree(root)
	cits := []memfile.Citation{
		{Path: "a", Line: 2, HasLine: true},
		{Path: "a", Line: 4, HasLine: true, Snippet: "fine", HasSnippet: true},
		{Path: "a", Line: 3, LineEnd: 4, HasLine: true},
		{Path: "a", Line: 1, LineEnd: 3, HasLine: true},
		{Path: "a", Line: 9, HasLine: true},
	}
	all := &want{}
	for _, c := range cits {
		all.add(c.Line, max(c.Line, c.LineEnd))
	}
	together := readFile(wt, "a", all)
	for _, c := range cits {
		alone := &want{}
		alone.add(c.Line, max(c.Line, c.LineEnd))
		k1, r1 := Citation(c, readFile(wt, "a", alone))
		k2, r2 := Citation(c, together)
		if k1 != k2 || r1 != r2 {
			t.Errorf("%s: alone %s %q, with the others %s %q", c.Location(), k1, r1, k2, r2)
		}
	}
}
