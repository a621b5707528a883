package store

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/vcache"
)

// worktree writes files (content by slash path) into a new directory and
// returns a working-tree source for it.
func worktree(t *testing.T, files map[string]string) (*source.Worktree, string) {
	t.Helper()
	dir := t.TempDir()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w, err := source.NewWorktree(dir)
	if err != nil {
		t.Fatal(err)
	}
	return w, dir
}

func paths(mems []*Memory) []string {
	var out []string
	for _, m := range mems {
		out = append(out, m.Path)
	}
	return out
}

const mem = "---\nid: x\n---\nBody.\n"

// TestFind: every .md file below the memory directories, at any depth,
// except README.md and CLAUDE.md (any case) and files in hidden folders
// below the directory; a hidden file itself is a memory.
func TestFind(t *testing.T) {
	t.Parallel()
	w, _ := worktree(t, map[string]string{
		"mem/a.md":                 mem,
		"mem/.draft.md":            mem,
		"mem/sub/deep/b.md":        mem,
		"mem/README.md":            "# about\n",
		"mem/readme.md":            "# about\n",
		"mem/sub/Claude.md":        "# about\n",
		"mem/sub/readmes.md":       mem, // not the name README.md
		"mem/.obsidian/x.md":       mem,
		"mem/sub/.trash/y.md":      mem,
		"mem/notes.txt":            "x\n",
		"mem/upper.MD":             mem, // .md is lower case
		"other/c.md":               mem,
		".serena/memories/d.md":    mem,
		".serena/memories/.o/e.md": mem,
	})
	tests := []struct {
		dirs []string
		want []string
	}{
		{[]string{"mem"}, []string{"mem/.draft.md", "mem/a.md", "mem/sub/deep/b.md", "mem/sub/readmes.md"}},
		{[]string{"./mem/"}, []string{"mem/.draft.md", "mem/a.md", "mem/sub/deep/b.md", "mem/sub/readmes.md"}},
		{[]string{"mem/sub", "other"}, []string{"mem/sub/deep/b.md", "mem/sub/readmes.md", "other/c.md"}},
		{[]string{"mem", "mem/sub"}, []string{"mem/.draft.md", "mem/a.md", "mem/sub/deep/b.md", "mem/sub/readmes.md"}}, // once each
		{[]string{DefaultDir}, []string{".serena/memories/d.md"}},                                                      // hidden above the directory is fine
	}
	for _, tt := range tests {
		mems, err := Find(w, tt.dirs)
		if err != nil {
			t.Errorf("Find(%q): %v", tt.dirs, err)
			continue
		}
		if got := paths(mems); !slices.Equal(got, tt.want) {
			t.Errorf("Find(%q) = %q\nwant %q", tt.dirs, got, tt.want)
		}
	}
	mems, _ := Find(w, []string{"mem", "other"})
	for _, m := range mems {
		if want := map[bool]string{true: "mem", false: "other"}[strings.HasPrefix(m.Path, "mem/")]; m.Dir != want {
			t.Errorf("%s: Dir %q, want %q", m.Path, m.Dir, want)
		}
		if m.File != nil || m.Err != nil {
			t.Errorf("%s: Find read the file", m.Path)
		}
	}
}

// TestFindBadDirs: a memory directory that is missing, a file, outside the
// repository or inside .git is an error naming it.
func TestFindBadDirs(t *testing.T) {
	t.Parallel()
	w, _ := worktree(t, map[string]string{"mem/a.md": mem, "file.md": mem, ".git/x.md": mem})
	tests := []struct {
		dir  string
		is   error
		text string
	}{
		{"none", ErrNoDir, "memory directory none: not found in the working tree"},
		{"file.md", nil, "memory directory file.md: not a directory"},
		{"../x", source.ErrOutside, `memory directory "../x": path leaves the repository`},
		{".git", source.ErrOutside, `memory directory ".git": path leaves the repository`},
		{"", source.ErrEmptyPath, `memory directory "": empty path`},
	}
	for _, tt := range tests {
		mems, err := Find(w, []string{"mem", tt.dir})
		if err == nil || (tt.is != nil && !errors.Is(err, tt.is)) || err.Error() != tt.text {
			t.Errorf("Find(%q) = %q, %v; want %q", tt.dir, paths(mems), err, tt.text)
		}
		if _, err := Load(context.Background(), w, []string{tt.dir}, nil); err == nil {
			t.Errorf("Load(%q, nil): no error", tt.dir)
		}
	}
}

// TestLoad: memories are parsed with their ids; a file that cannot be
// parsed, is too large or is a link leaving the repository is loaded with
// Err set and the others still are.
func TestLoad(t *testing.T) {
	t.Parallel()
	w, dir := worktree(t, map[string]string{
		"mem/a.md":          "---\nid: alpha\ncitations:\n  - a.go:1\n---\nBody.\n",
		"mem/sub/deep/b.md": "# no frontmatter\n",
		"mem/bad.md":        "---\ncitations:\n  - line: 2\n---\n",
		"secret.md":         "---\nid: secret\n---\n",
	})
	big := filepath.Join(dir, "mem", "big.md")
	if err := os.WriteFile(big, append([]byte("---\nid: big\n---\n"), make([]byte, MaxFileSize)...), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "out.md")
	if err := os.WriteFile(outside, []byte("---\nid: out\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := os.Symlink(outside, filepath.Join(dir, "mem", "out.md")) == nil &&
		os.Symlink("../secret.md", filepath.Join(dir, "mem", "in.md")) == nil
	st, err := Load(context.Background(), w, []string{"mem"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	type want struct{ id, err string }
	wants := map[string]want{
		"mem/a.md":          {"alpha", ""},
		"mem/sub/deep/b.md": {"sub/deep/b", ""},
		"mem/bad.md":        {"bad", "citation 1 has no path"},
		"mem/big.md":        {"big", "memory file is larger than 16 MiB; not read"},
	}
	if links {
		wants["mem/out.md"] = want{"out", "memory file is a symlink that leaves the repository; not read"}
		wants["mem/in.md"] = want{"secret", ""}
	}
	if len(st.Memories) != len(wants) {
		t.Fatalf("loaded %q, want %d memories", paths(st.Memories), len(wants))
	}
	for _, m := range st.Memories {
		w, ok := wants[m.Path]
		if !ok {
			t.Errorf("unexpected memory %s", m.Path)
			continue
		}
		if m.ID != w.id {
			t.Errorf("%s: id %q, want %q", m.Path, m.ID, w.id)
		}
		switch {
		case w.err == "" && m.Err != nil:
			t.Errorf("%s: %v", m.Path, m.Err)
		case w.err == "" && m.File == nil:
			t.Errorf("%s: no file", m.Path)
		case w.err != "":
			var pe *memfile.ParseError
			if !errors.As(m.Err, &pe) || pe.Msg != w.err {
				t.Errorf("%s: error %v, want a parse error %q", m.Path, m.Err, w.err)
			}
			if m.File != nil {
				t.Errorf("%s: File set with an error", m.Path)
			}
		}
	}
}

// TestLoadCancelled: a cancelled context stops the loading.
func TestLoadCancelled(t *testing.T) {
	t.Parallel()
	w, _ := worktree(t, map[string]string{"mem/a.md": mem})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Load(ctx, w, []string{"mem"}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Load: %v, want context.Canceled", err)
	}
}

// TestLoadFile: a memory file named on the command line may lie outside
// the memory directories; one that does not exist has Err set.
func TestLoadFile(t *testing.T) {
	t.Parallel()
	w, _ := worktree(t, map[string]string{"notes/n.md": "---\nid: n\n---\n"})
	m := LoadFile(context.Background(), w, "notes/n.md", "mem", nil)
	if m.Err != nil || m.ID != "n" {
		t.Errorf("LoadFile(notes/n.md, nil) = %+v", m)
	}
	m = LoadFile(context.Background(), w, "notes/none.md", "mem", nil)
	if !errors.Is(m.Err, source.ErrNotExist) {
		t.Errorf("LoadFile(notes/none.md, nil): %v, want ErrNotExist", m.Err)
	}
}

// TestResolve: a memory is found by path, by path below a memory
// directory (with or without .md), by frontmatter id, then by file stem;
// several matches of the first kind that matches are an error naming
// them.
func TestResolve(t *testing.T) {
	t.Parallel()
	w, _ := worktree(t, map[string]string{
		"mem/a.md":          "---\nid: alpha\n---\n",
		"mem/sub/deep/b.md": "# b\n",
		"mem/x/dup.md":      "# x\n",
		"mem/y/dup.md":      "# y\n",
		"mem/t1.md":         "---\nid: twin\n---\n",
		"mem/t2.md":         "---\nid: twin\n---\n",
		"mem/stem.md":       "# the stem\n",
		"mem/z.md":          "---\nid: stem\n---\n",
		"mem/deep/q.md":     "# q\n",
		"mem/r.md":          "---\nid: q\n---\n",
		"more/c.md":         "# c\n",
	})
	st, err := Load(context.Background(), w, []string{"mem", "more"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		arg, want, err string
	}{
		{"mem/a.md", "mem/a.md", ""},
		{"./mem/a.md", "mem/a.md", ""},
		{`mem\a.md`, "mem/a.md", ""},
		{"mem/x/../a.md", "mem/a.md", ""},
		{"a", "mem/a.md", ""},
		{"a.md", "mem/a.md", ""},
		{"sub/deep/b", "mem/sub/deep/b.md", ""},
		{"sub/deep/b.md", "mem/sub/deep/b.md", ""},
		{"c", "more/c.md", ""},
		{"alpha", "mem/a.md", ""},
		{"b", "mem/sub/deep/b.md", ""},
		{"b.md", "mem/sub/deep/b.md", ""},
		{"x/dup", "mem/x/dup.md", ""},
		{"stem", "mem/stem.md", ""}, // the path below the directory comes before the id
		{"q", "mem/r.md", ""},       // the id comes before the file stem
		{"deep/q", "mem/deep/q.md", ""},
		{"dup", "", `"dup" is ambiguous: mem/x/dup.md, mem/y/dup.md`},
		{"twin", "", `"twin" is ambiguous: mem/t1.md, mem/t2.md`},
		{"none", "", `"none": no such memory in mem, more`},
	}
	for _, tt := range tests {
		m, err := st.Resolve(tt.arg)
		switch {
		case tt.err != "":
			if err == nil || err.Error() != tt.err {
				t.Errorf("Resolve(%q) = %v, %v; want error %q", tt.arg, m, err, tt.err)
			}
		case err != nil:
			t.Errorf("Resolve(%q): %v", tt.arg, err)
		case m.Path != tt.want:
			t.Errorf("Resolve(%q) = %s, want %s", tt.arg, m.Path, tt.want)
		}
	}
	if _, err := st.Resolve("none"); !errors.Is(err, ErrNoMemory) {
		t.Errorf("Resolve(none): %v, want ErrNoMemory", err)
	}
}

func TestMemoryNames(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		m           Memory
		stem, relID string
	}{
		{Memory{Path: "mem/sub/a.md", Dir: "mem"}, "a", "sub/a"},
		{Memory{Path: "mem/sub/a.md", Dir: "mem/"}, "a", "sub/a"},
		{Memory{Path: "notes/a.md", Dir: "."}, "a", "notes/a"},
		{Memory{Path: "a.md", Dir: ""}, "a", "a"},
	} {
		if got := tt.m.Stem(); got != tt.stem {
			t.Errorf("%+v: Stem() = %q, want %q", tt.m, got, tt.stem)
		}
		if got := tt.m.RelID(); got != tt.relID {
			t.Errorf("%+v: RelID() = %q, want %q", tt.m, got, tt.relID)
		}
	}
}

// named names the content of the files ids lists (source.Identifier).
type named struct {
	*source.Worktree
	ids map[string]string
}

func (n named) ContentID(p string) (string, bool) {
	id, ok := n.ids[p]
	return id, ok
}

// TestContentIDFromCache: a memory whose parse the cache keeps under its
// content's name carries that name, the run that put it there as the runs
// that find it; one without a name, or loaded without a cache, carries
// none.
func TestContentIDFromCache(t *testing.T) {
	t.Parallel()
	w, _ := worktree(t, map[string]string{
		"mem/a.md": "---\nid: a\n---\nBody.\n",
		"mem/b.md": "---\nid: b\n---\nBody.\n",
	})
	src := named{w, map[string]string{"mem/a.md": "blob-a"}}
	dir := t.TempDir()
	load := func(cached bool) map[string]string {
		var c *vcache.Cache
		if cached {
			c = vcache.Open(dir, "t")
		}
		st, err := Load(context.Background(), src, []string{"mem"}, c)
		if err != nil {
			t.Fatal(err)
		}
		if c != nil {
			if err := c.Save(t.TempDir()); err != nil {
				t.Fatal(err)
			}
		}
		out := map[string]string{}
		for _, m := range st.Memories {
			if m.File == nil {
				t.Fatalf("%s: %v", m.Path, m.Err)
			}
			out[m.Path] = m.ContentID
		}
		return out
	}
	want := map[string]string{"mem/a.md": "blob-a", "mem/b.md": ""}
	for i, cached := range []bool{true, true, false} {
		if !cached {
			want["mem/a.md"] = ""
		}
		if got := load(cached); !maps.Equal(got, want) {
			t.Errorf("load %d (cache: %v): content ids %q, want %q", i+1, cached, got, want)
		}
	}
}
