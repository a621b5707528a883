package hookrun

import (
	"context"
	"io"
	"sort"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/source"
)

// files is a source.Source over a map of path to content.
type files map[string]string

func (f files) Name() string { return "test" }

func (f files) Stat(p string) (source.Entry, error) {
	if c, ok := f[p]; ok {
		return source.Entry{Kind: source.KindFile, Size: int64(len(c))}, nil
	}
	for k := range f {
		if strings.HasPrefix(k, p+"/") {
			return source.Entry{Kind: source.KindDir}, nil
		}
	}
	return source.Entry{}, source.ErrNotExist
}

func (f files) ReadFile(p string) ([]byte, error) {
	if c, ok := f[p]; ok {
		return []byte(c), nil
	}
	return nil, source.ErrNotExist
}

func (f files) Open(p string) (io.ReadCloser, error) {
	b, err := f.ReadFile(p)
	if err != nil {
		return nil, err
	}
	return io.NopCloser(strings.NewReader(string(b))), nil
}

func (f files) List(dir string) ([]string, error) {
	var out []string
	for k := range f {
		if dir == "" || dir == "." || strings.HasPrefix(k, dir+"/") {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out, nil
}

func with(base files, kv ...string) files {
	out := files{}
	for k, v := range base {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == "" {
			delete(out, kv[i])
		} else {
			out[kv[i]] = kv[i+1]
		}
	}
	return out
}

const (
	code  = "package a\n\nfunc Hello() {}\nfunc Bye() {}\n"
	memA  = "---\ncitations:\n  - path: a.go\n    line: 3\n    snippet: func Hello()\n---\n"
	memB  = "---\ncitations:\n  - path: a.go\n    line: 4\n    snippet: func Bye()\n  - path: a.go\n    line: 9\n---\n"
	memB2 = "---\ncitations:\n  - path: a.go\n    line: 4\n    snippet: func Bye()\n  - path: a.go\n    line: 8\n---\n"
	dir   = ".serena/memories"
)

func TestCompareClassifies(t *testing.T) {
	head := files{"a.go": code, dir + "/a.md": memA, dir + "/b.md": memB}
	tests := []struct {
		name   string
		before files // nil: first commit
		after  files
		want   []string // "memory#index class"
		broken []string // "memory changed"
	}{
		{"nothing changed: b's old stale citation is preexisting", head, head,
			[]string{"b.md#1 preexisting"}, nil},
		{"moving a cited line is introduced", head, with(head, "a.go", "package a\n\n\nfunc Hello() {}\nfunc Bye() {}\n"),
			[]string{"a.md#0 introduced", "b.md#0 introduced", "b.md#1 preexisting"}, nil},
		{"editing a memory file marks all its stale citations", head, with(head, dir+"/b.md", memB2),
			[]string{"b.md#1 in-changed-memory"}, nil},
		{"deleting the cited file", head, with(head, "a.go", ""),
			[]string{"a.md#0 introduced", "b.md#0 introduced", "b.md#1 preexisting"}, nil},
		{"a new memory file", head, with(head, dir+"/c.md", memB2),
			[]string{"b.md#1 preexisting", "c.md#1 in-changed-memory"}, nil},
		{"first commit", nil, head,
			[]string{"b.md#1 no-history"}, nil},
		{"a malformed memory file, new and old", with(head, dir+"/old.md", "---\n: [\n---\n"), with(head, dir+"/old.md", "---\n: [\n---\n", dir+"/new.md", "---\ncitations: {\n---\n"),
			[]string{"b.md#1 preexisting"}, []string{"new.md true", "old.md false"}},
		{"no memory directory at all", nil, files{"a.go": code}, nil, nil},
	}
	names := map[Class]string{Introduced: "introduced", InChangedMemory: "in-changed-memory", NoHistory: "no-history", Preexisting: "preexisting"}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			var before Before
			if tc.before != nil {
				before = func([]string) (source.Source, error) { calls++; return tc.before, nil }
			}
			out, err := Compare(context.Background(), tc.after, before, []string{dir})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range out.Stale {
				got = append(got, strings.TrimPrefix(s.Memory.Path, dir+"/")+"#"+itoa(s.Result.Citation.Index)+" "+names[s.Class])
			}
			var broken []string
			for _, b := range out.Broken {
				broken = append(broken, strings.TrimPrefix(b.Memory.Path, dir+"/")+" "+map[bool]string{true: "true", false: "false"}[b.Changed])
			}
			sort.Strings(got)
			sort.Strings(broken)
			if strings.Join(got, ",") != strings.Join(tc.want, ",") || strings.Join(broken, ",") != strings.Join(tc.broken, ",") {
				t.Errorf("stale %v broken %v; want %v %v", got, broken, tc.want, tc.broken)
			}
			if calls > 1 {
				t.Errorf("before read %d times", calls)
			}
		})
	}
}

func TestCompareSkipsBeforeWhenNothingIsStale(t *testing.T) {
	after := files{"a.go": code, dir + "/a.md": memA}
	called := false
	out, err := Compare(context.Background(), after, func([]string) (source.Source, error) { called = true; return after, nil }, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if called || len(out.Stale) != 0 || out.Citations != 1 || out.Memories != 1 {
		t.Errorf("called=%v outcome=%+v", called, out)
	}
}

func TestClassBlocks(t *testing.T) {
	for _, tc := range []struct {
		c      Class
		policy PreCommitPolicy
		want   bool
	}{
		{Introduced, Block, true}, {InChangedMemory, Block, true}, {NoHistory, Block, true},
		{Preexisting, Block, false}, {Preexisting, Strict, true}, {Introduced, Warn, false}, {Introduced, Off, false},
	} {
		if got := tc.c.Blocks(tc.policy); got != tc.want {
			t.Errorf("%v.Blocks(%s) = %v", tc.c, tc.policy, got)
		}
	}
}

func itoa(i int) string { return string(rune('0' + i)) }
