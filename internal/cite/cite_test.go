package cite

import (
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/memfile"
)

func TestFindMentions(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string // "kind text"
	}{
		{"path and line", "see src/a.go:12 here", []string{"path-line src/a.go:12"}},
		{"range", "(src/a.go:12-20)", []string{"path-line src/a.go:12-20"}},
		{"anchor", "src/a.go#L3-L5", []string{"anchor src/a.go:3-5"}},
		{"bare file name with line", "models.py:89", []string{"path-line models.py:89"}},
		{"backticked path", "read `docs/x.md` first", []string{"backticked docs/x.md"}},
		{"backticked path with line counts once", "`src/a.go:3`", []string{"path-line src/a.go:3"}},
		{"backticked bare name", "`setup.cfg`", []string{"backticked setup.cfg"}},
		{"names without an extension", "Makefile:12 and `build/Dockerfile`", []string{"path-line Makefile:12", "backticked build/Dockerfile"}},
		{"dot folders", "see .github/workflows/ci.yml:7", []string{"path-line .github/workflows/ci.yml:7"}},
		{"several on a line, in order", "a.go:1, `b.md` and c/d.py:2-3", []string{"path-line a.go:1", "backticked b.md", "path-line c/d.py:2-3"}},
		{"cite markup", "[cite:code](src/a.go:3) - context", []string{"markdown-link src/a.go:3"}},
		{"markdown link with a line", "[dataset_state.py](src/state/dataset_state.py:475)", []string{"markdown-link src/state/dataset_state.py:475"}},
		{"line after a path", "`check.py` line 64", []string{"prose-line check.py:64"}},
		{"lines after a path", "`src/a.py` (Lines 350-370)", []string{"prose-line src/a.py:350-370"}},
		{"L17 after a path", "`src/a.py` L190", []string{"prose-line src/a.py:190"}},
		{"localised line", "`src/a.py` の Line 22", []string{"prose-line src/a.py:22"}},
		{"links to memories", "see [x](other.md) and [[wiki-name]]", []string{"markdown-link other.md", "wiki-link wiki-name"}},
		{"symbols are not mentions", "`Type.Method()` and `do_thing()`", nil},
		{"other cite types are not files", "[cite:issue](#12) [cite:url](https://x.y/a.go)", nil},
		{"urls are not paths", "https://example.com/a.go#L3 and http://host:8080", nil},
		{"times and versions are not paths", "at 10:30, v2 is out", nil},
		{"bare file names are read (resolved only when one file has the name)", "edit the README.md file", []string{"bare README.md"}},
		{"fenced code is skipped", "```\nsrc/a.go:3\n```\nsrc/b.go:4", []string{"path-line src/b.go:4"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := memfile.Parse("m.md", []byte("---\nid: m\n---\n"+tc.body+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range FindMentions(f) {
				got = append(got, m.Kind+" "+m.Text)
				if m.Line < 4 {
					t.Errorf("mention %q on line %d; the body starts on line 4", m.Text, m.Line)
				}
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %q; want %q", got, tc.want)
			}
		})
	}
}
