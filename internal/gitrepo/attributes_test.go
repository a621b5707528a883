package gitrepo

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// TestContentIDPerPath: attributes take blob ids only from the paths git
// may convert, which are named by their stat data instead. A repository
// whose attributes convert nothing (the Go tree's `* -text`, linguist-*,
// binary) names every clean file by its blob; one that marks some paths
// text, ident or filtered names the others by their blobs.
func TestContentIDPerPath(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("working-tree content ids are given on Linux only (worktreeIDs.unchanged)")
	}
	files := []string{"a.go", "doc/x.md", "doc/y.txt", "gen/z.go"}
	for _, tc := range []struct {
		name, attrs, info string
		converted         []string // the others are named by their blobs
		// after: the working tree's .gitattributes once staged ("-":
		// removed; "": left as staged)
		after string
	}{
		{"no attributes", "", "", nil, ""},
		{"attributes that convert nothing", "* -text\n*.go linguist-generated\n*.png binary\n[attr]gen -diff linguist-generated\ngen/* gen\n", "", nil, ""},
		{"some paths text", "*.md text\n*.go linguist-language=Go\n", "", []string{"doc/x.md"}, ""},
		{"eol in a subdirectory's file", "", "", []string{"doc/y.txt"}, ""},
		{"ident through a macro", "[attr]keyword ident\ngen/*.go keyword\n", "", []string{"gen/z.go"}, ""},
		{"filter in info/attributes", "* -text\n", "a.go filter=fmt\n", []string{"a.go"}, ""},
		{"-text after text", "* text\n*.go -text\n", "", []string{"doc/x.md", "doc/y.txt"}, ""},
		{"staged only: the working tree's removed", "*.md ident\n", "", []string{"doc/x.md"}, "-"},
		{"staged differs from the working tree's", "*.md ident\n", "", []string{"doc/x.md", "a.go"}, "a.go ident\n"},
		{"untracked only", "", "", []string{"gen/z.go"}, "gen/** filter=x\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			git := gitfixture.Runner(t, dir)
			past := time.Now().Add(-time.Hour)
			git("init", "-q")
			git("config", "core.autocrlf", "false")
			for _, f := range files {
				gitfixture.Write(t, dir, f, "x\n")
				if err := os.Chtimes(filepath.Join(dir, f), past, past); err != nil {
					t.Fatal(err)
				}
			}
			if tc.attrs != "" {
				gitfixture.Write(t, dir, ".gitattributes", tc.attrs)
			}
			if tc.name == "eol in a subdirectory's file" {
				gitfixture.Write(t, dir, "doc/.gitattributes", "*.txt eol=crlf\n*.md -text\n")
			}
			if tc.info != "" {
				gitfixture.Write(t, dir, ".git/info/attributes", tc.info)
			}
			git("add", "-A")
			switch tc.after {
			case "":
			case "-":
				if err := os.Remove(filepath.Join(dir, ".gitattributes")); err != nil {
					t.Fatal(err)
				}
			default:
				gitfixture.Write(t, dir, ".gitattributes", tc.after)
			}
			r, err := Discover(dir)
			if err != nil {
				t.Fatal(err)
			}
			src, err := r.Worktree()
			if err != nil {
				t.Fatal(err)
			}
			ids := src.(source.Identifier)
			converted := map[string]bool{}
			for _, f := range tc.converted {
				converted[f] = true
			}
			for _, f := range files {
				id, ok := ids.ContentID(f)
				byBlob := strings.HasPrefix(id, "blob:")
				if !ok || byBlob == converted[f] || !byBlob && !strings.HasPrefix(id, "stat:") {
					t.Errorf("ContentID(%s) = %q, %v; want a name by its blob %v", f, id, ok, !converted[f])
				}
			}
		})
	}
}

// TestSystemAttributes: git's system attributes file is one of the
// sources read (here one of a test's; GIT_ATTR_NOSYSTEM turns it off).
func TestSystemAttributes(t *testing.T) {
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q")
	gitfixture.Write(t, dir, "a.txt", "x\n")
	git("add", "-A")
	sys := filepath.Join(t.TempDir(), "gitattributes")
	gitfixture.Write(t, filepath.Dir(sys), "gitattributes", "*.txt ident\n")
	old := systemAttributes
	defer func() { systemAttributes = old }()
	systemAttributes = func() (string, string) { return sys, "" }
	r, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := r.Config(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	srcs, unknown, _ := r.attrSources(cfg, []string{"a.txt"}, nil)
	if unknown != "" || !mayConvert(srcs) {
		t.Errorf("the system file's ident is not seen (%q, sources %d)", unknown, len(srcs))
	}
	systemAttributes = func() (string, string) { return "", "" }
	if srcs, _, _ := r.attrSources(cfg, []string{"a.txt"}, nil); mayConvert(srcs) {
		t.Errorf("attributes seen without the system file")
	}
}
