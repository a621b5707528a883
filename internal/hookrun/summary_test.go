package hookrun

import (
	"reflect"
	"testing"

	"github.com/git-memcite/git-memcite/internal/vcache"
)

// TestCompactCited: paths no memory cites any more leave the table once
// they are most of it; the memories still cite the same paths.
func TestCompactCited(t *testing.T) {
	paths := func(s *vcache.Summary) [][]string {
		var out [][]string
		for _, m := range s.Memories {
			var ps []string
			for _, c := range m.Cites {
				ps = append(ps, s.Cited[c])
			}
			out = append(out, ps)
		}
		return out
	}
	s := &vcache.Summary{
		Cited:    []string{"a", "b", "c", "d", "e"},
		Memories: []vcache.SummaryMemory{{Path: "m1", Cites: []int32{4, 1}}, {Path: "m2"}},
	}
	want := paths(s)
	compactCited(s)
	if !reflect.DeepEqual(s.Cited, []string{"b", "e"}) || !reflect.DeepEqual(paths(s), want) {
		t.Errorf("compacted to %q, memories cite %q, want %q", s.Cited, paths(s), want)
	}
	s.Cited = append(s.Cited, "x") // 2 of 3 used: kept as it is
	compactCited(s)
	if len(s.Cited) != 3 {
		t.Errorf("compacted a table mostly in use: %q", s.Cited)
	}
}
