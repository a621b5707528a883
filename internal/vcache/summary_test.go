package vcache

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func sampleSummary(tree string) *Summary {
	return &Summary{
		Tree:  tree,
		Dirs:  []string{".serena/memories", "docs/mem"},
		Cited: []string{"src/a.go", "src/b é.go", "lib"},
		Memories: []SummaryMemory{
			{Path: ".serena/memories/a.md", Stale: 0, Cites: []int32{0, 2}},
			{Path: ".serena/memories/b.md", Broken: true, Stale: -1, Cites: []int32{}},
			{Path: ".serena/memories/c.md", Exempt: true, Stale: -1, Cites: []int32{}},
			{Path: "docs/mem/d.md", Volatile: true, Stale: 3, Cites: []int32{1}},
		},
	}
}

func tree(i int) string { return fmt.Sprintf("%040x", i) }

func TestSummaryRoundTrip(t *testing.T) {
	dir := t.TempDir()
	want := sampleSummary(tree(1))
	if got := ReadSummary(dir, "tool 1", want.Tree); got != nil {
		t.Fatalf("summary before any was written: %+v", got)
	}
	if err := WriteSummary(dir, filepath.Join(dir, "tmp"), "tool 1", want); err != nil {
		t.Fatal(err)
	}
	got := ReadSummary(dir, "tool 1", want.Tree)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back\n%+v\nwant\n%+v", got, want)
	}
	for name, read := range map[string]func() *Summary{
		"another build": func() *Summary { return ReadSummary(dir, "tool 2", want.Tree) },
		"another tree":  func() *Summary { return ReadSummary(dir, "tool 1", tree(2)) },
		"not an id":     func() *Summary { return ReadSummary(dir, "tool 1", "../cache") },
	} {
		if s := read(); s != nil {
			t.Errorf("%s: got a summary", name)
		}
	}
	if tmp, _ := os.ReadDir(filepath.Join(dir, "tmp")); len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

// TestSummaryDamaged: a summary cut short, with a flipped byte, or of
// another version is not used.
func TestSummaryDamaged(t *testing.T) {
	dir := t.TempDir()
	s := sampleSummary(tree(1))
	if err := WriteSummary(dir, filepath.Join(dir, "tmp"), "t", s); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(summaryDir(dir), s.Tree)
	good, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(good); i += 7 {
		for _, bad := range [][]byte{good[:i], flip(good, i)} {
			os.WriteFile(p, bad, 0o644)
			if got := ReadSummary(dir, "t", s.Tree); got != nil {
				t.Fatalf("damaged at %d: read %+v", i, got)
			}
		}
	}
}

// TestSummaryKeep: only the SummaryKeep most recently written or read
// summaries stay.
func TestSummaryKeep(t *testing.T) {
	dir := t.TempDir()
	base := time.Now().Add(-time.Hour)
	for i := 1; i <= SummaryKeep+3; i++ {
		if err := WriteSummary(dir, filepath.Join(dir, "tmp"), "t", sampleSummary(tree(i))); err != nil {
			t.Fatal(err)
		}
		// distinct times, whatever the file system's resolution
		at := base.Add(time.Duration(i) * time.Second)
		os.Chtimes(filepath.Join(summaryDir(dir), tree(i)), at, at)
		if i == 2 && ReadSummary(dir, "t", tree(1)) == nil { // used now: the newest
			t.Fatal("summary 1 not read")
		}
	}
	var names []string
	ents, _ := os.ReadDir(summaryDir(dir))
	for _, e := range ents {
		names = append(names, strings.TrimLeft(e.Name(), "0"))
	}
	if want := []string{"1", "5", "6", "7"}; !reflect.DeepEqual(names, want) {
		t.Errorf("kept %v, want %v", names, want)
	}
}

func FuzzDecodeSummary(f *testing.F) {
	f.Add(encodeSummary("t", sampleSummary(tree(1))))
	f.Add(encodeSummary("", &Summary{Tree: tree(2)}))
	f.Add([]byte(summaryMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, tool, err := decodeSummary(data)
		if err != nil {
			return
		}
		// what decodes encodes back to the same bytes
		if again := encodeSummary(tool, s); string(again) != string(data) {
			t.Fatalf("re-encoded differently:\n%q\n%q", again, data)
		}
	})
}
