package graph

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/source"
)

// writeStore writes memories (path below .serena/memories → links, one
// "type: target" or "type=target" per entry; "=" uses the {link_type,
// target_id} shape) and returns a graph over them.
func writeStore(t *testing.T, mems map[string][]string, extra map[string]string) *Graph {
	t.Helper()
	dir := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(dir, ".serena", "memories", filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for rel, links := range mems {
		var b strings.Builder
		b.WriteString("---\nlinks:\n")
		for _, l := range links {
			if typ, target, ok := strings.Cut(l, "="); ok {
				fmt.Fprintf(&b, "  - link_type: %s\n    target_id: %s\n", strings.ToUpper(typ), target)
				continue
			}
			fmt.Fprintf(&b, "  - %s\n", l)
		}
		b.WriteString("---\nbody\n")
		write(rel+".md", b.String())
	}
	for rel, text := range extra {
		write(rel, text)
	}
	src, err := source.NewWorktree(dir)
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(src, []string{".serena/memories"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// tree renders a traversal compactly: "id@depth<type" in visit order.
func tree(tr *Traversal) []string {
	var out []string
	for _, v := range tr.Visits {
		s := fmt.Sprintf("%s@%d", v.ID, v.Depth)
		if v.Type != "" {
			s += "<" + v.Type
		}
		out = append(out, s)
	}
	return out
}

func TestTraverse(t *testing.T) {
	chain := map[string][]string{
		"a": {"related: b", "implements=c"},
		"b": {"extends: d"},
		"c": {"related: d"},
		"d": {"blocks: e"},
		"e": nil,
	}
	tests := []struct {
		name      string
		mems      map[string][]string
		extra     map[string]string
		root      string
		opt       Options
		want      []string
		cycles    []string
		dangling  []string
		reached   int
		truncated int
	}{
		{
			name: "bfs unlimited, both link shapes", mems: chain, root: "a", opt: Options{MaxDepth: -1},
			want:    []string{"a@0", "b@1<related", "c@1<implements", "d@2<extends", "e@3<blocks"},
			reached: 3,
		},
		{
			name: "dfs goes deep first", mems: chain, root: "a", opt: Options{Strategy: DFS, MaxDepth: -1},
			want:    []string{"a@0", "b@1<related", "d@2<extends", "e@3<blocks", "c@1<implements"},
			reached: 3,
		},
		{
			name: "depth limit", mems: chain, root: "a", opt: Options{MaxDepth: 1},
			want: []string{"a@0", "b@1<related", "c@1<implements"}, reached: 1, truncated: 2,
		},
		{
			name: "depth zero is the root alone", mems: chain, root: "a", opt: Options{MaxDepth: 0},
			want: []string{"a@0"}, truncated: 1,
		},
		{
			name: "link type filter", mems: chain, root: "a", opt: Options{MaxDepth: -1, Types: []string{"implements", "related"}}, // b extends d is not followed
			want: []string{"a@0", "b@1<related", "c@1<implements", "d@2<related"}, reached: 2,
		},
		{
			name: "two-node cycle reported, not followed", root: "a", opt: Options{MaxDepth: -1},
			mems:    map[string][]string{"a": {"related: b"}, "b": {"related: a"}},
			want:    []string{"a@0", "b@1<related"},
			cycles:  []string{"a → b → a"},
			reached: 1,
		},
		{
			name: "self-loop", root: "a", opt: Options{MaxDepth: -1},
			mems:   map[string][]string{"a": {"related: a"}},
			want:   []string{"a@0"},
			cycles: []string{"a → a"},
		},
		{
			name: "dfs finds the back edge of a triangle", root: "a", opt: Options{Strategy: DFS, MaxDepth: -1},
			mems:    map[string][]string{"a": {"related: b"}, "b": {"extends: c"}, "c": {"blocks: a"}},
			want:    []string{"a@0", "b@1<related", "c@2<extends"},
			cycles:  []string{"a → b → c → a"},
			reached: 2,
		},
		{
			name: "diamond is not a cycle", root: "a", opt: Options{MaxDepth: -1},
			mems:    map[string][]string{"a": {"related: b", "related: c"}, "b": {"related: d"}, "c": {"related: d"}, "d": nil},
			want:    []string{"a@0", "b@1<related", "c@1<related", "d@2<related"},
			reached: 2,
		},
		{
			name: "dangling target", root: "a", opt: Options{MaxDepth: -1},
			mems:     map[string][]string{"a": {"related: gone", "supersedes: b"}, "b": nil},
			want:     []string{"a@0", "b@1<supersedes"},
			dangling: []string{"a -related-> gone: no such memory"},
			reached:  1,
		},
		{
			name: "path-qualified, stem and frontmatter-id targets", root: "x/a", opt: Options{MaxDepth: -1},
			mems: map[string][]string{"x/a": {"related: y/b", "extends: c.md", "implements: the-d"}, "y/b": nil, "z/c": nil},
			extra: map[string]string{
				"w/file-d.md": "---\nid: the-d\n---\n",
			},
			want:    []string{"x/a@0", "y/b@1<related", "z/c@1<extends", "the-d@1<implements"},
			reached: 1,
		},
		{
			name: "ambiguous stem is dangling", root: "a", opt: Options{MaxDepth: -1},
			mems:     map[string][]string{"a": {"related: dup"}, "p/dup": nil, "q/dup": nil},
			want:     []string{"a@0"},
			dangling: []string{"a -related-> dup: ambiguous: file name of .serena/memories/p/dup.md, .serena/memories/q/dup.md"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			g := writeStore(t, tc.mems, tc.extra)
			root, err := g.Resolve(ctx, tc.root)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := g.Traverse(ctx, root, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := tree(tr); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("visits: got %q; want %q", got, tc.want)
			}
			var cycles, dangling []string
			for _, c := range tr.Cycles {
				cycles = append(cycles, strings.Join(c.Path, " → "))
			}
			for _, d := range tr.Dangling {
				dangling = append(dangling, fmt.Sprintf("%s -%s-> %s: %s", d.From, d.Type, d.Target, d.Reason))
			}
			if !reflect.DeepEqual(cycles, tc.cycles) {
				t.Errorf("cycles: got %q; want %q", cycles, tc.cycles)
			}
			if !reflect.DeepEqual(dangling, tc.dangling) {
				t.Errorf("dangling: got %q; want %q", dangling, tc.dangling)
			}
			if tr.MaxDepthReached != tc.reached || tr.Truncated != tc.truncated {
				t.Errorf("max depth reached %d, truncated %d; want %d, %d", tr.MaxDepthReached, tr.Truncated, tc.reached, tc.truncated)
			}
		})
	}
}

func TestTraverseRejectsUnknownType(t *testing.T) {
	g := writeStore(t, map[string][]string{"a": nil}, nil)
	if _, err := g.Traverse(context.Background(), 0, Options{Types: []string{"cites"}}); err == nil || !strings.Contains(err.Error(), `unknown link type "cites"`) {
		t.Fatalf("got %v; want an unknown link type error", err)
	}
}

// TestTraverseReadsLazily checks that a traversal reads only what it
// reaches when every target resolves by file name.
func TestTraverseReadsLazily(t *testing.T) {
	mems := map[string][]string{"a": {"related: b"}, "b": nil}
	for i := 0; i < 50; i++ {
		mems[fmt.Sprintf("other/m%02d", i)] = []string{"related: a"}
	}
	g := writeStore(t, mems, nil)
	ctx := context.Background()
	root, _ := g.Resolve(ctx, "a")
	if _, err := g.Traverse(ctx, root, Options{MaxDepth: -1}); err != nil {
		t.Fatal(err)
	}
	read := 0
	for _, l := range g.loaded {
		if l {
			read++
		}
	}
	if read != 2 {
		t.Fatalf("read %d memories; want 2", read)
	}
}

func TestBuild(t *testing.T) {
	g := writeStore(t, map[string][]string{
		"a":    {"related: b", "related: gone"},
		"b":    {"extends: c"},
		"c":    {"blocks: a"},
		"d":    {"related: d"},
		"e":    nil,
		"f":    {"implements: e"},
		"x/dd": {"supersedes: x/dd"},
	}, nil)
	w, err := g.Build(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %q; want %q", name, got, want)
		}
	}
	check("roots", w.Roots, []string{"d", "f", "x/dd"})
	check("orphans", w.Orphans, []string{"d", "x/dd"})
	check("cycles", w.Cycles, [][]string{{"a", "b", "c", "a"}, {"d", "d"}, {"x/dd", "x/dd"}})
	check("dangling", len(w.Dangling), 1)
	back, err := g.Backlinks(context.Background(), mustResolve(t, g, "e"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 1 || back[0].From != "f" || back[0].Type != "implements" {
		t.Errorf("backlinks of e: got %+v", back)
	}
	w2, err := g.Build(context.Background(), []string{"related"})
	if err != nil {
		t.Fatal(err)
	}
	check("related-only cycles", w2.Cycles, [][]string{{"d", "d"}})
}

func mustResolve(t *testing.T, g *Graph, name string) int {
	t.Helper()
	i, err := g.Resolve(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return i
}

// TestResolveByFrontmatterID covers the id scan, which reads a plain
// "id:" line without a YAML parse and falls back to a parse otherwise.
func TestResolveByFrontmatterID(t *testing.T) {
	g := writeStore(t, nil, map[string]string{
		"plain.md":     "---\nid: plain-id\n---\n",
		"crlf.md":      "\xef\xbb\xbf\r\n---\r\nsubject: x\r\nid: crlf-id\r\n---\r\n",
		"quoted.md":    "---\nid: \"quoted id\"\n---\n",
		"comment.md":   "---\nid: commented # not part of it\n---\n",
		"nested.md":    "---\nmeta:\n  id: not-top-level\n---\n",
		"nullid.md":    "---\nid: null\n---\n",
		"nofm.md":      "id: not-frontmatter\n",
		"long.md":      "---\n" + strings.Repeat("tags: [x]\n", 1) + "subject: " + strings.Repeat("y", 5000) + "\nid: after-4k\n---\n",
		"dup-a.md":     "---\nid: twice\n---\n",
		"sub/dup-b.md": "---\nid: twice\n---\n",
	})
	ctx := context.Background()
	for name, want := range map[string]string{
		"plain-id": ".serena/memories/plain.md", "crlf-id": ".serena/memories/crlf.md", "quoted id": ".serena/memories/quoted.md",
		"commented": ".serena/memories/comment.md", "after-4k": ".serena/memories/long.md",
	} {
		i, err := g.Resolve(ctx, name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if g.Path(i) != want {
			t.Errorf("%s: got %s; want %s", name, g.Path(i), want)
		}
	}
	for name, want := range map[string]string{
		"not-top-level": "no such memory", "null": "no such memory", "not-frontmatter": "no such memory", "twice": "ambiguous",
	} {
		if _, err := g.Resolve(ctx, name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v; want %q", name, err, want)
		}
	}
}
