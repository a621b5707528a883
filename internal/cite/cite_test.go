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
		{"anchor", "src/a.go#L3-L5", []string{"path-line src/a.go#L3-L5"}},
		{"bare file name with line", "models.py:89", []string{"bare-filename models.py:89"}},
		{"backticked path", "read `docs/x.md` first", []string{"backticked-path docs/x.md"}},
		{"backticked path with line counts once", "`src/a.go:3`", []string{"path-line src/a.go:3"}},
		{"backticked bare name", "`setup.cfg`", []string{"bare-filename setup.cfg"}},
		{"names without an extension", "Makefile:12 and `build/Dockerfile`", []string{"bare-filename Makefile:12", "backticked-path build/Dockerfile"}},
		{"dot folders", "see .github/workflows/ci.yml:7", []string{"path-line .github/workflows/ci.yml:7"}},
		{"several on a line, in order", "a.go:1, `b.md` and c/d.py:2-3", []string{"bare-filename a.go:1", "bare-filename b.md", "path-line c/d.py:2-3"}},
		{"cite markup", "[cite:code](src/a.go:3) - context", []string{"cite-markup [cite:code](src/a.go:3)"}},
		{"other cite types are not files", "[cite:issue](#12) [cite:url](https://x.y/a.go)", nil},
		{"urls are not paths", "https://example.com/a.go#L3 and http://host:8080", nil},
		{"times and versions are not paths", "at 10:30, v2 is out", nil},
		{"prose file names without backticks or lines", "edit the README.md file", nil},
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
