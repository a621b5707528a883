package prose

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/symdef"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
)

func TestSymbolContainer(t *testing.T) {
	for in, want := range map[string]string{
		"Type.method":                    "Type",
		"pkg.Type.method":                "Type",
		"plain":                          "",
		"A::b":                           "A",
		"build_all.py::assert_no_writes": "build_all",
		"mod.sub.func":                   "sub",
	} {
		if got := symbolContainer(in); got != want {
			t.Errorf("symbolContainer(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLikeName(t *testing.T) {
	tests := []struct {
		a, b string
		like bool
	}{
		{"load_orders", "load_all_orders", true},
		{"getUser", "getUserById", true},
		{"parse", "parse_v2", true},
		{"loadConfig", "load_config", true},
		{"compute_totl", "compute_total", true},
		{"load_orders", "render", false},
		{"Total", "compute", false},
		{"_probe_copilot", "_probe_failed", false},
		{"TestGetCommit", "TestGreenOnMain", false},
		{"_api_commits", "_add_comments", false},
		{"_validated_absolute_path", "_validate_body_path", false},
	}
	for _, tt := range tests {
		if got := likeName(tt.a, tt.b); got != tt.like {
			t.Errorf("likeName(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}

// countingSource is a tree of files that counts the code files read and
// names every file by its content (as gitrepo's working tree does for an
// unchanged file).
type countingSource struct {
	files map[string]string
	reads map[string]int
}

func (s *countingSource) Name() string { return "test tree" }
func (s *countingSource) Stat(p string) (source.Entry, error) {
	if c, ok := s.files[p]; ok {
		return source.Entry{Kind: source.KindFile, Size: int64(len(c))}, nil
	}
	return source.Entry{}, fs.ErrNotExist
}
func (s *countingSource) ReadFile(p string) ([]byte, error) {
	c, ok := s.files[p]
	if !ok {
		return nil, fs.ErrNotExist
	}
	s.reads[p]++
	return []byte(c), nil
}
func (s *countingSource) Open(p string) (io.ReadCloser, error) {
	b, err := s.ReadFile(p)
	return io.NopCloser(bytes.NewReader(b)), err
}
func (s *countingSource) List(string) ([]string, error) {
	var out []string
	for p := range s.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}
func (s *countingSource) ContentID(p string) (string, bool) {
	c, ok := s.files[p]
	if !ok || strings.HasPrefix(p, "dirty/") { // dirty/: modified, no name
		return "", false
	}
	return fmt.Sprintf("blob:%x", sha256.Sum256([]byte(c))), true
}

// TestSymbolsWarmReadsNoCodeFile: a second run with the verification
// cache reads no code file it knows, only the modified one, and judges
// the same.
func TestSymbolsWarmReadsNoCodeFile(t *testing.T) {
	src := &countingSource{reads: map[string]int{}, files: map[string]string{
		"a.py":       "def compute_total(items):\n    return sum(items)\n",
		"b.go":       "package b\n\nfunc Helper() {}\n",
		"lib/x.lua":  "local used_word = 1\n",
		"dirty/c.py": "def fresh_one():\n    pass\n",
	}}
	body := "`compute_total()`, `Helper()`, `used_word` and `fresh_one()` and `missing_thing()`.\n"
	f, err := memfile.Parse(".serena/memories/m.md", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	mems := []*store.Memory{{Path: ".serena/memories/m.md", Dir: ".serena/memories", ID: "m", File: f}}
	dir := t.TempDir()
	run := func() string {
		cache := vcache.Open(dir, "test")
		ctx := context.Background()
		defer func() {
			if err := cache.Save(dir); err != nil {
				t.Fatal(err)
			}
		}()
		c := &Checker{Dirs: []string{".serena/memories"}, All: mems, Cache: cache}
		out, err := c.CheckProse(ctx, src, mems)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, pc := range out[0] {
			got = append(got, fmt.Sprintf("%s %s %s %v", pc.Ref.Text, pc.Status, pc.Ref.Now, pc.Ref.Unresolved))
		}
		return strings.Join(got, "; ")
	}
	first := run()
	for _, want := range []string{"compute_total valid a.py:1 false", "Helper valid b.go:3 false", "used_word valid  false", "fresh_one valid dirty/c.py:1 false", "missing_thing skipped  true"} {
		if !strings.Contains(first, want) {
			t.Errorf("first run: %s; want %q", first, want)
		}
	}
	clear(src.reads)
	if again := run(); again != first {
		t.Errorf("warm run: %s; first: %s", again, first)
	}
	if fmt.Sprint(src.reads) != "map[dirty/c.py:1]" {
		t.Errorf("warm run read %v; want only the modified file", src.reads)
	}
}

// FuzzDefsCache: what the cache keeps of a file's definitions reads back
// as they were.
func FuzzDefsCache(f *testing.F) {
	f.Add("a.py", []byte("class A:\n    def f(self): pass\n"))
	f.Add("a.go", []byte("package a\ntype T struct{ X int }\nfunc (t T) M() {}\n"))
	f.Add("a.rs", []byte("impl Foo {\n fn bar() {}\n}\n"))
	f.Fuzz(func(t *testing.T, p string, src []byte) {
		defs := symdef.Definitions(p, src)
		var back []symdef.Def
		eachDef(encodeDefs(defs), func(d symdef.Def) { back = append(back, d) })
		if fmt.Sprint(back) != fmt.Sprint(defs) && !(len(back) == 0 && len(defs) == 0) {
			t.Fatalf("read back %v; kept %v", back, defs)
		}
	})
}

// TestCheckProseLater: CheckProseLater judges every reference but the
// symbols, and later the symbols, as CheckProse judges them all; after
// Release the checker judges nothing.
func TestCheckProseLater(t *testing.T) {
	src := &countingSource{reads: map[string]int{}, files: map[string]string{
		"a.py": "def compute_total(items):\n    return sum(items)\n",
		"b.go": "package b\n\nfunc Helper() {}\n",
	}}
	body := "`compute_total()` is in a.py, `Helper()` in b.go, and `missing_thing()`.\n"
	f, err := memfile.Parse(".serena/memories/m.md", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	mems := []*store.Memory{{Path: ".serena/memories/m.md", Dir: ".serena/memories", ID: "m", File: f}}
	text := func(pcs []verify.ProseCitation) string {
		var out []string
		for _, pc := range pcs {
			out = append(out, fmt.Sprintf("%s %s %s %s %v", pc.Ref.Kind, pc.Ref.Text, pc.Status, pc.Ref.Now, pc.Ref.Unresolved))
		}
		return strings.Join(out, "; ")
	}
	ctx := context.Background()
	all, err := (&Checker{Dirs: []string{".serena/memories"}, All: mems}).CheckProse(ctx, src, mems)
	if err != nil {
		t.Fatal(err)
	}
	c := &Checker{Dirs: []string{".serena/memories"}, All: mems}
	now, later, err := c.CheckProseLater(ctx, src, mems)
	if err != nil {
		t.Fatal(err)
	}
	for _, pc := range now[0] {
		if pc.Ref.Kind == "symbol" {
			t.Errorf("judged now: %s %s", pc.Ref.Kind, pc.Ref.Text)
		}
	}
	syms, err := later()
	if err != nil {
		t.Fatal(err)
	}
	if len(syms[0]) != 3 {
		t.Errorf("judged later: %s; want the 3 symbols", text(syms[0]))
	}
	if got, want := text(append(now[0], syms[0]...)), text(all[0]); got != want {
		t.Errorf("now, then later: %s\nCheckProse: %s", got, want)
	}
	c.Release()
	if _, err := c.CheckProse(ctx, src, mems); !errors.Is(err, errReleased) {
		t.Errorf("CheckProse after Release: %v; want %v", err, errReleased)
	}
}

// blobNamed is a content whose files hold the words of blobs it names
// (source.BlobNamer).
type blobNamed struct {
	source.Source
	blobs map[string]string
}

func (b blobNamed) BlobID(p string) (string, bool) {
	id, ok := b.blobs[p]
	return id, ok
}

// TestKnownBlobs: the blobs known to lack the names the code lacks are
// those of the code files read or cached: named by their content id, or,
// for a file named by its stat data, by the blob the content names.
func TestKnownBlobs(t *testing.T) {
	h := func(c byte) string { return "blob:" + strings.Repeat(string(c), 40) }
	cp := &codeParse{
		src:   blobNamed{blobs: map[string]string{"b.py": h('b'), "d.py": h('d')}},
		paths: []string{"a.py", "b.py", "c.py", "d.py"},
		files: []codeFile{
			{id: h('a'), read: true},     // named by its blob
			{id: "stat:x", cached: true}, // by its stat data; the content names its blob
			{id: "stat:y", read: true},   // by its stat data only
			{id: "stat:z"},               // not read: its words are not known
		},
	}
	got := (&symbolIndex{code: cp}).knownBlobs()
	want := map[gitblame.Hash]bool{}
	for _, c := range "ab" {
		hh, err := gitblame.ParseHash(strings.Repeat(string(c), 40))
		if err != nil {
			t.Fatal(err)
		}
		want[hh] = true
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("knownBlobs = %v, want %v", got, want)
	}
}
