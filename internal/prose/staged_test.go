package prose

import (
	"context"
	"io"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
)

// mapSource is a source of files held in a map.
type mapSource map[string]string

func (m mapSource) Name() string { return "index" }

func (m mapSource) Stat(p string) (source.Entry, error) {
	if s, ok := m[p]; ok {
		return source.Entry{Kind: source.KindFile, Size: int64(len(s))}, nil
	}
	for q := range m {
		if strings.HasPrefix(q, p+"/") {
			return source.Entry{Kind: source.KindDir}, nil
		}
	}
	return source.Entry{}, source.ErrNotExist
}

func (m mapSource) ReadFile(p string) ([]byte, error) {
	if s, ok := m[p]; ok {
		return []byte(s), nil
	}
	return nil, source.ErrNotExist
}

func (m mapSource) Open(p string) (io.ReadCloser, error) {
	s, ok := m[p]
	if !ok {
		return nil, source.ErrNotExist
	}
	return io.NopCloser(strings.NewReader(s)), nil
}

func (m mapSource) List(dir string) ([]string, error) {
	var out []string
	for p := range m {
		if dir == "" || dir == "." || strings.HasPrefix(p, dir+"/") {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

func (m mapSource) Read(p string) ([]byte, bool, error) {
	s, ok := m[p]
	return []byte(s), ok, nil
}

const memDir = ".serena/memories"

// stagedRun runs CheckStaged on HEAD's files head and the index's files
// idx, with the renames given; it returns one line per finding and
// whether the memories' references were asked for.
func stagedRun(t *testing.T, head, idx mapSource, renames map[string]string) (got []string, askedRefs bool) {
	t.Helper()
	var changed []string
	for p, s := range head {
		if n, ok := idx[p]; !ok || n != s {
			changed = append(changed, p)
		}
	}
	for p := range idx {
		if _, ok := head[p]; !ok {
			changed = append(changed, p)
		}
	}
	sort.Strings(changed)
	fs, err := CheckStaged(context.Background(), Staged{
		Head: head, Index: idx, Changed: changed, Dirs: []string{memDir},
		Refs: func() ([]MemoryRefs, error) {
			askedRefs = true
			mems, err := store.Find(idx, []string{memDir})
			if err != nil {
				return nil, err
			}
			var out []MemoryRefs
			for _, m := range mems {
				out = append(out, MemoryRefs{Path: m.Path, Dir: m.Dir, Refs: Extract([]byte(idx[m.Path]), Options{})})
			}
			return out, nil
		},
		Renames: func() (map[string]string, error) { return renames, nil },
		Grep: func(names, _ []string) (map[string]bool, error) {
			found := map[string]bool{}
			for p, s := range idx {
				if !strings.HasSuffix(p, ".py") {
					continue
				}
				eachWord([]byte(s), func(w []byte) {
					for _, n := range names {
						if n == string(w) {
							found[n] = true
						}
					}
				})
			}
			return found, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		got = append(got, f.Memory+":"+strconv.Itoa(f.Ref.Line)+": "+f.Ref.Kind+" "+f.Kind.String()+" "+f.Ref.Now+": "+f.Reason)
	}
	return got, askedRefs
}

func with(base mapSource, edits ...string) mapSource {
	out := mapSource{}
	for k, v := range base {
		out[k] = v
	}
	for i := 0; i+1 < len(edits); i += 2 {
		if edits[i+1] == "\x00" {
			delete(out, edits[i])
		} else {
			out[edits[i]] = edits[i+1]
		}
	}
	return out
}

func TestCheckStaged(t *testing.T) {
	head := mapSource{
		memDir + "/notes.md":       "# Notes\n\nThe helpers are in `src/util.py`; `do_total()` sums; see conf.toml.\n\nSee [pricing](pricing.md) and [[archive/old]].\n",
		memDir + "/pricing.md":     "# Pricing\n",
		memDir + "/archive/old.md": "# Old\n",
		memDir + "/plans.md":       "# Plans\n\nThe cache will be `src/cache/store.py`. Read README.md first.\n",
		"src/util.py":              "def helper():\n    pass\n",
		"src/shop.py":              "def do_total(o):\n    return sum(o)\n",
		"conf.toml":                "a = 1\n",
		"lib/store.py":             "x = 1\n",
		"a/README.md":              "a\n",
		"b/README.md":              "b\n",
	}
	tests := []struct {
		name    string
		idx     mapSource
		renames map[string]string
		want    []string
		refs    bool // the memories' references were asked for
	}{
		{"code added only: no memory read", with(head, "src/shop.py", head["src/shop.py"]+"def more():\n    pass\n"), nil, nil, false},
		{"a new file: no memory read", with(head, "src/new.py", "x = 2\n"), nil, nil, false},
		{"renamed path", with(head, "src/util.py", "\x00", "src/helpers.py", head["src/util.py"]), map[string]string{"src/util.py": "src/helpers.py"},
			[]string{memDir + "/notes.md:3: path path-moved src/helpers.py: File src/util.py renamed to src/helpers.py in this commit"}, true},
		{"deleted bare name", with(head, "conf.toml", "\x00"), nil,
			[]string{memDir + "/notes.md:3: path path-deleted : File conf.toml deleted in this commit"}, true},
		{"deleted path never resolved: unresolved, nothing", with(head, "lib/store.py", "\x00"), nil, nil, true},
		{"symbol removed", with(head, "src/shop.py", "def add(o):\n    return sum(o)\n"), nil,
			[]string{memDir + "/notes.md:3: symbol symbol-gone : Symbol do_total removed in this commit (its definition was in src/shop.py)"}, true},
		{"symbol kept elsewhere", with(head, "src/shop.py", "def add(o):\n    return sum(o)\n", "src/other.py", "do_total = add\n"), nil, nil, false},
		{"memory deleted", with(head, memDir+"/pricing.md", "\x00"), nil,
			[]string{memDir + "/notes.md:5: memory memory-deleted : Memory .serena/memories/pricing.md deleted in this commit"}, true},
		{"memory renamed", with(head, memDir+"/archive/old.md", "\x00", memDir+"/archive/older.md", "# Old\n"), map[string]string{memDir + "/archive/old.md": memDir + "/archive/older.md"},
			[]string{memDir + "/notes.md:5: memory memory-renamed .serena/memories/archive/older.md: Memory .serena/memories/archive/old.md renamed to .serena/memories/archive/older.md in this commit"}, true},
		{"a sentence this commit writes is not checked", with(head, "conf.toml", "\x00", memDir+"/plans.md", head[memDir+"/plans.md"]+"The config is in conf.toml.\n"), nil,
			[]string{memDir + "/notes.md:3: path path-deleted : File conf.toml deleted in this commit"}, true},
		{"the memory's own fix goes with the commit", with(head, "src/util.py", "\x00", "src/helpers.py", head["src/util.py"],
			memDir+"/notes.md", strings.Replace(head[memDir+"/notes.md"], "src/util.py", "src/helpers.py", 1)), map[string]string{"src/util.py": "src/helpers.py"}, nil, true},
		{"ambiguous at HEAD: no reference", with(head, "a/README.md", "\x00", memDir+"/plans.md", head[memDir+"/plans.md"]), nil, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, asked := stagedRun(t, head, tc.idx, tc.renames)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if asked != tc.refs {
				t.Errorf("references asked for: %v, want %v", asked, tc.refs)
			}
		})
	}
}

func TestDefinedWords(t *testing.T) {
	tests := []struct {
		name, code string
		want       []string
	}{
		{"python", "class Shop(Base):\n    def do_total(self, o):\n        return all(o)\nLIMIT = 3\nif x == 1:\n    main()\n", []string{"LIMIT", "Shop", "do_total"}},
		{"go", "package p\n\nfunc Total(o []int) int {\n\treturn sum(o)\n}\n\nfunc (s *Shop) Add(x int) {}\n\ntype Shop struct{}\nvar limit = 3\n", []string{"Add", "Shop", "Total", "limit"}},
		{"typescript", "export async function loadUser(id: string) {\n  const user = await fetchUser(id);\n  return user;\n}\nexport default class Store {}\n", []string{"Store", "loadUser", "user"}},
		{"c-like", "#define MAX_ITEMS 8\nstatic int count_items(struct list *l) {\n    return helper(l);\n}\npublic override string ToString()\n", []string{"MAX_ITEMS", "ToString", "count_items"}},
		{"shell and powershell", "deploy() {\n  run_step\n}\nfunction Get-Thing {\n  Invoke-Other\n}\n", []string{"Get-Thing", "deploy"}},
		{"calls are not definitions", "result = compute(x)\nprint(value)\nreturn build(a, b)\nnew Widget(a);\n", []string{"result"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for w := range definedWords([]byte(tc.code)) {
				got = append(got, w)
			}
			sort.Strings(got)
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRefNamesMayName(t *testing.T) {
	src := "# N\n\n`src/util.py`, `do_total()` and [[other]].\n"
	n := NamesOf([]MemoryRefs{{Path: memDir + "/n.md", Dir: memDir, Refs: Extract([]byte(src), Options{})}})
	tests := []struct {
		name    string
		deleted []string
		removed []string
		want    bool
	}{
		{"nothing removed", nil, nil, false},
		{"a file of another name", []string{"lib/other.py"}, nil, false},
		{"a file of that name", []string{"lib/util.py"}, nil, true},
		{"a memory", []string{memDir + "/x.md"}, nil, true},
		{"another name", nil, []string{"helper"}, false},
		{"a named symbol", nil, []string{"do_total"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, r := map[string]bool{}, map[string]string{}
			for _, p := range tc.deleted {
				d[p] = true
			}
			for _, w := range tc.removed {
				r[w] = "f.py"
			}
			if got := n.mayName(d, r); got != tc.want {
				t.Errorf("mayName = %v, want %v (names %+v)", got, tc.want, n)
			}
		})
	}
}
