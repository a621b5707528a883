package prose

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/store"
)

// TestSnakeCaseMemoryName: a backticked snake_case name that names a
// memory of the store is a link to it, not a symbol; one that names no
// memory is still a symbol, and a memory does not link to itself.
func TestSnakeCaseMemoryName(t *testing.T) {
	src := &countingSource{reads: map[string]int{}, files: map[string]string{
		"src/config.py": "def load_config():\n    return {}\n",
	}}
	memory := func(path, body string) *store.Memory {
		f, err := memfile.Parse(path, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		return &store.Memory{Path: path, Dir: ".serena/memories", ID: strings.TrimSuffix(path[len(".serena/memories/"):], ".md"), File: f}
	}
	overview := memory(".serena/memories/project_overview.md", "Read `project_overview` first.\n")
	notes := memory(".serena/memories/notes.md", "See `project_overview`; `load_config()` reads the settings.\n")
	c := &Checker{Dirs: []string{".serena/memories"}, All: []*store.Memory{overview, notes}}
	out, err := c.CheckProse(context.Background(), src, []*store.Memory{overview, notes})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, pcs := range out {
		for _, pc := range pcs {
			got = append(got, fmt.Sprintf("%d %s %s %s", i, pc.Ref.Kind, pc.Ref.Text, pc.Status))
		}
	}
	want := "1 memory project_overview valid|1 symbol load_config valid"
	if strings.Join(got, "|") != want {
		t.Errorf("got  %q\nwant %q", strings.Join(got, "|"), want)
	}
}
