package hookrun

import (
	"errors"
	"fmt"
	"testing"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/store"
)

// mem is a parsed memory at p citing paths ("https://…" for a URL).
func mem(p string, paths ...string) *store.Memory {
	f := &memfile.File{}
	for i, c := range paths {
		if len(c) > 8 && c[:8] == "https://" {
			f.Citations = append(f.Citations, memfile.Citation{Index: i, URL: c})
			continue
		}
		f.Citations = append(f.Citations, memfile.Citation{Index: i, Path: c})
	}
	return &store.Memory{Path: p, Dir: dir, File: f}
}

func TestSelect(t *testing.T) {
	broken := &store.Memory{Path: dir + "/bad.md", Dir: dir, Err: errors.New("bad yaml")}
	exempt := mem(dir+"/ex.md", "src/a.go")
	exempt.File.Exempt = true
	for _, tc := range []struct {
		name    string
		changed []string
		links   []string
		m       *store.Memory
		want    bool
	}{
		{"memory edited", []string{dir + "/a.md"}, nil, mem(dir+"/a.md", "src/x.go"), true},
		{"other memory edited", []string{dir + "/b.md"}, nil, mem(dir+"/a.md", "src/x.go"), false},
		{"new memory (renamed to)", []string{dir + "/old.md", dir + "/new.md"}, nil, mem(dir + "/new.md"), true},
		{"cited file edited", []string{"src/a.go"}, nil, mem(dir+"/a.md", "src/x.go", "src/a.go"), true},
		{"cited file deleted or renamed away", []string{"src/a.go", "src/b.go"}, nil, mem(dir+"/a.md", "src/a.go"), true},
		{"cited path written another way", []string{"src/a.go"}, nil, mem(dir+"/a.md", "./src//a.go"), true},
		{"unrelated file", []string{"src/b.go"}, nil, mem(dir+"/a.md", "src/a.go", "src/ab.go"), false},
		{"sibling with a common prefix", []string{"src/a.go.orig"}, nil, mem(dir+"/a.md", "src/a.go"), false},
		{"cited directory gains a file", []string{"src/pkg/new.go"}, nil, mem(dir+"/a.md", "src/pkg"), true},
		{"cited root", []string{"x"}, nil, mem(dir+"/a.md", "."), true},
		{"file under a cited path that became a directory", []string{"src/a.go"}, nil, mem(dir+"/a.md", "src/a.go/x"), true},
		{"submodule commit moves", []string{"vendor/sub"}, nil, mem(dir+"/a.md", "vendor/sub/lib/x.c"), true},
		{"cited through a symlink, target edited", []string{"src/real.go"}, []string{"src/link.go"}, mem(dir+"/a.md", "src/link.go"), true},
		{"cited through a symlinked directory", []string{"lib/a.go"}, []string{"alias"}, mem(dir+"/a.md", "alias/a.go"), true},
		{"memory file is a symlink", []string{"docs/x.md"}, []string{dir + "/a.md"}, mem(dir + "/a.md"), true},
		{"URL citations read nothing", []string{"src/a.go"}, nil, mem(dir+"/a.md", "https://example.com/src/a.go"), false},
		{"escaping path reads nothing", []string{"a.go"}, nil, mem(dir+"/a.md", "../a.go"), false},
		{"broken memory unchanged", []string{"src/a.go"}, nil, broken, false},
		{"broken memory edited", []string{dir + "/bad.md"}, nil, broken, true},
		{"exempt memory unchanged", []string{"src/a.go"}, nil, exempt, false},
		{"nothing staged", nil, nil, mem(dir+"/a.md", "src/a.go"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sel, ok := Select(tc.changed, tc.links, []string{dir})
			if !ok {
				t.Fatal("Select: full check")
			}
			if got := sel.Affects(tc.m); got != tc.want {
				t.Errorf("Affects(%s) = %v, want %v", tc.m.Path, got, tc.want)
			}
		})
	}
}

// TestSelectFull: changes that can alter any verdict are checked in full.
func TestSelectFull(t *testing.T) {
	for _, tc := range []struct {
		name    string
		changed []string
		dirs    []string
		full    bool
	}{
		{"code only", []string{"src/a.go", "README.md"}, []string{dir}, false},
		{"attributes", []string{"src/.gitattributes"}, []string{dir}, true},
		{"root attributes", []string{".gitattributes"}, []string{dir}, true},
		{"ignore rules", []string{"docs/.gitignore"}, []string{dir}, true},
		{"submodules", []string{".gitmodules"}, []string{dir}, true},
		{"LFS configuration", []string{".lfsconfig"}, []string{dir}, true},
		{"team configuration", []string{".memcite.yaml"}, []string{dir}, true},
		{"a memory directory replaced", []string{".serena"}, []string{dir}, true},
		{"the memory directory itself", []string{dir}, []string{dir}, true},
		{"second memory directory", []string{"notes"}, []string{dir, "notes/"}, true},
		{"a file in the memory directory", []string{dir + "/a.md"}, []string{dir}, false},
		{"a lookalike name", []string{"src/gitattributes", "x.gitignore"}, []string{dir}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ok := Select(tc.changed, nil, tc.dirs)
			if ok == tc.full {
				t.Errorf("Select(%q): partial %v, want full %v", tc.changed, ok, tc.full)
			}
		})
	}
}

// BenchmarkAffects: selecting among 50,000 memories of 5 citations each
// for a commit of ten files.
func BenchmarkAffects(b *testing.B) {
	var mems []*store.Memory
	for i := 0; i < 50000; i++ {
		var ps []string
		for c := 0; c < 5; c++ {
			f := (i*5 + c) % 10000
			ps = append(ps, fmt.Sprintf("pkg%03d/sub%d/file%05d.go", f/100, f%7, f))
		}
		mems = append(mems, mem(fmt.Sprintf("%s/topic%02d/mem-%05d.md", dir, i%20, i), ps...))
	}
	var changed []string
	for f := 0; f < 10; f++ {
		changed = append(changed, fmt.Sprintf("pkg%03d/sub%d/file%05d.go", f*37/100, f*37%7, f*37))
	}
	sel, _ := Select(changed, nil, []string{dir})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := 0
		for _, m := range mems {
			if sel.Affects(m) {
				n++
			}
		}
		if n == 0 {
			b.Fatal("nothing selected")
		}
	}
}
