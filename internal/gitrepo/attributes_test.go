package gitrepo

import (
	"math/rand"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

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
	srcs, unknown := r.attrSources(cfg, []string{"a.txt"}, nil)
	if unknown != "" || !anyConverting(srcs) {
		t.Errorf("the system file's ident is not seen (%q, sources %d)", unknown, len(srcs))
	}
	systemAttributes = func() (string, string) { return "", "" }
	if srcs, _ := r.attrSources(cfg, []string{"a.txt"}, nil); anyConverting(srcs) {
		t.Errorf("attributes seen without the system file")
	}
}

// TestConversionsCoverGit: the paths conversions says git may convert
// include every path `git check-attr` (the working tree's attributes and
// the index's) gives a converting attribute, for random attribute files
// at the top, below it and in info/attributes, with patterns of every
// form (base names, anchored paths, **, ?, brackets, macros, -text after
// text, binary).
func TestConversionsCoverGit(t *testing.T) {
	files, lines := attrFiles, attrLines
	rng := rand.New(rand.NewSource(7))
	pick := func() string {
		var b strings.Builder
		for i, n := 0, rng.Intn(4); i < n; i++ {
			b.WriteString(lines[rng.Intn(len(lines))])
		}
		return b.String()
	}
	fixed := []map[string]string{
		{".gitattributes": "*.go -text\n* text=auto\n"},
		{".gitattributes": "* text=auto\n*.png binary\n*.go -text\n", "doc/.gitattributes": "*.go eol=crlf\n"},
		{".gitattributes": "* eol=lf\n", ".git/info/attributes": "*.md -text\n"},
		{".gitattributes": "doc/**/*.go ident\n**/x.md text\n"},
		{"doc/sub/.gitattributes": "*.go text\n"},
		{"untracked doc/sub/.gitattributes": "z.go ident\n"},
	}
	for iter := range 60 + len(fixed) {
		dir := t.TempDir()
		git := gitfixture.Runner(t, dir)
		git("init", "-q")
		git("config", "core.autocrlf", "false")
		for _, f := range files {
			gitfixture.Write(t, dir, f, "x\n")
		}
		attrs := map[string]string{".gitattributes": pick(), "doc/.gitattributes": pick(), ".git/info/attributes": pick()}
		if iter < len(fixed) {
			attrs = fixed[iter]
		}
		for p, a := range attrs {
			if !strings.HasPrefix(p, "untracked ") {
				gitfixture.Write(t, dir, p, a)
			}
		}
		git("add", "-A")
		if rng.Intn(2) == 0 { // the working tree's differs from the index's
			attrs["worktree .gitattributes"] = pick()
			gitfixture.Write(t, dir, ".gitattributes", attrs["worktree .gitattributes"])
		}
		if iter >= len(fixed) && rng.Intn(2) == 0 { // an untracked one below the top
			attrs["untracked doc/sub/.gitattributes"] = pick()
		}
		if a, ok := attrs["untracked doc/sub/.gitattributes"]; ok {
			gitfixture.Write(t, dir, "doc/sub/.gitattributes", a)
		}
		r, err := Discover(dir)
		if err != nil {
			t.Fatal(err)
		}
		idx := strings.Fields(git("ls-files"))
		var af []attrFile
		for _, f := range idx {
			if isAttrFile(f) {
				af = append(af, attrFile{f, strings.TrimSpace(git("rev-parse", ":"+f))})
			}
		}
		conv := r.conversions(idx, af)
		for _, cached := range []bool{false, true} {
			vals := checkAttr(git, cached, idx)
			for p, v := range vals {
				if gitConverts(v) && !conv.converts(p) {
					t.Errorf("iteration %d (cached %v): git may convert %s (%v), conversions says not; attributes: %q",
						iter, cached, p, v, attrs)
				}
			}
		}
	}
}

// attrFiles are the files of the attribute tests, and attrLines the lines
// of attribute files they write at random: patterns of every form (base
// names, anchored paths, **, ?, brackets, macros, -text after text,
// binary).
var (
	attrFiles = []string{"a.go", "b.md", "doc/x.md", "doc/y.txt", "doc/sub/z.go", "gen/z.go", "gen/img.png", "dac/q.txt", "A.GO"}
	attrLines = []string{
		"*.md text\n", "/a.go ident\n", "doc/** eol=lf\n", "**/z.go filter=x\n", "d?c/*.txt text\n",
		"[ab].go ident\n", "*.go -text\n", "* text=auto eol=lf\n", "*.png binary\n", "gen/ -text\n",
		"[attr]conv ident\n", "gen/* conv\n", "doc/*.md -text\n", "* -text\n", "*.txt crlf\n",
		"\"doc/x.md\" text\n", "b.md !text\n", "*.go filter\n", "doc/sub/*.go working-tree-encoding=UTF-16LE\n",
	}
	// convertingAttrs are the attributes that may make git convert content
	convertingAttrs = []string{"text", "eol", "crlf", "ident", "filter", "working-tree-encoding"}
)

// checkAttr asks `git check-attr` (of the index with cached) the values
// of the converting attributes of paths, by path and attribute.
func checkAttr(git func(...string) string, cached bool, paths []string) map[string]map[string]string {
	args := []string{"check-attr"}
	if cached {
		args = append(args, "--cached")
	}
	args = append(append(args, convertingAttrs...), "--")
	out := git(append(args, paths...)...)
	vals := map[string]map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		p, rest, _ := strings.Cut(l, ": ")
		a, v, _ := strings.Cut(rest, ": ")
		if vals[p] == nil {
			vals[p] = map[string]string{}
		}
		vals[p][a] = v
	}
	return vals
}

// gitConverts says whether git may convert a path with these values of
// the converting attributes (check-attr's "set", "unset", "unspecified"
// or a value), as convert.c decides.
func gitConverts(v map[string]string) bool {
	specified := func(a string) bool { return v[a] != "" && v[a] != "unspecified" && v[a] != "unset" }
	switch {
	case specified("ident"), specified("filter") && v["filter"] != "set", specified("working-tree-encoding") && v["working-tree-encoding"] != "set":
		return true
	case v["text"] == "unset":
		return false
	}
	return specified("text") || specified("eol") || specified("crlf")
}

// FuzzGlobSegment: a pattern of `*`, `?` and plain bytes matches a name
// without slashes as path.Match does, for ASCII (git's `?` matches a
// byte, path.Match's a character).
func FuzzGlobSegment(f *testing.F) {
	for _, s := range [][2]string{{"*.go", "a.go"}, {"a*b*c", "aXbYbc"}, {"?x*", "yx"}, {"**", ""}, {"*a", "ba"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pat, name string) {
		if pat == "" || strings.ContainsAny(pat, "[\\/") || strings.Contains(name, "/") || !ascii(pat) || !ascii(name) {
			t.Skip()
		}
		want, err := path.Match(pat, name)
		if err != nil {
			t.Skip()
		}
		if got := globSegment(pat, name); got != want {
			t.Errorf("globSegment(%q, %q) = %v, path.Match says %v", pat, name, got, want)
		}
	})
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// anyConverting says whether a line of the sources can set a converting
// attribute.
func anyConverting(srcs []attrSource) bool {
	m := macrosOf(srcs)
	for i, s := range srcs {
		if slices.ContainsFunc(rulesOf(s, i, m), func(rl attrRule) bool { return rl.text || rl.ident }) {
			return true
		}
	}
	return false
}
