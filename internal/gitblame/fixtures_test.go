package gitblame_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitfixture"
	"github.com/git-memcite/git-memcite/internal/githistory"
)

// cite is a citation of the fixture file shop.go at the tag "base".
type cite struct {
	path    string
	line    int
	end     int
	snippet string
}

// want is an expected result: status and location, plus for Gone the
// subject of the commit that deleted the lines.
type want struct {
	status  gitblame.Status
	path    string
	line    int
	end     int
	goneIn  string // subject of GoneIn's commit
	blame   string // subject of Result.Blame()'s commit
	snippet bool   // SnippetFound
	sim     float64
}

func (w want) String() string {
	return fmt.Sprintf("%v %s:%d-%d goneIn=%q blame=%q snippet=%v sim=%.2f", w.status, w.path, w.line, w.end, w.goneIn, w.blame, w.snippet, w.sim)
}

func got(r gitblame.Result) want {
	w := want{status: r.Status, path: r.Location.Path, line: r.Location.Line, end: r.Location.LineEnd, snippet: r.SnippetFound, sim: r.Similarity}
	if r.GoneIn != nil && r.GoneIn.Commit != nil {
		w.goneIn = r.GoneIn.Commit.Subject
	}
	if b := r.Blame(); b != nil && b.Commit != nil {
		w.blame = b.Commit.Subject
	}
	return w
}

func track(t *testing.T, scenario string, cites []cite, target string) []gitblame.Result {
	t.Helper()
	dir := gitfixture.Replay(t, filepath.Join("..", "..", "testdata", "repos", scenario+".txtar"))
	repo, err := githistory.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	base, err := repo.Resolve("base")
	if err != nil {
		t.Fatal(err)
	}
	head, err := repo.Resolve(target)
	if err != nil {
		t.Fatal(err)
	}
	anchors := make([]gitblame.Anchor, len(cites))
	for i, c := range cites {
		anchors[i] = gitblame.Anchor{Path: c.path, Line: c.line, LineEnd: c.end, Snippet: c.snippet, Base: base}
	}
	res, err := gitblame.New(repo).Track(context.Background(), anchors, gitblame.Target{Commit: head})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestFixtures(t *testing.T) {
	type tc struct {
		cite cite
		want want
	}
	const (
		loop   = "total += item.Price * item.Qty"
		empty  = `errors.New("empty order")`
		sprint = "fmt.Sprintf"
	)
	tests := []struct {
		scenario string
		cases    []tc
	}{
		{"insert-delete-above", []tc{
			{cite{"shop.go", 19, 0, loop}, want{status: gitblame.Moved, path: "shop.go", line: 20, end: 20, blame: "document the package", snippet: true, sim: 1}},
			{cite{"shop.go", 22, 0, "}"}, want{status: gitblame.Moved, path: "shop.go", line: 23, end: 23, blame: "document the package", snippet: true, sim: 1}},
			{cite{"shop.go", 16, 22, "func Total"}, want{status: gitblame.Moved, path: "shop.go", line: 17, end: 23, blame: "document the package", snippet: true, sim: 1}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			cites := make([]cite, len(tt.cases))
			for i, c := range tt.cases {
				cites[i] = c.cite
			}
			res := track(t, tt.scenario, cites, "main")
			for i, c := range tt.cases {
				g := got(res[i])
				g.sim = round2(g.sim)
				if g != c.want {
					t.Errorf("%s:%d %q:\n got %v (note %q)\nwant %v", c.cite.path, c.cite.line, c.cite.snippet, g, res[i].Note, c.want)
				}
			}
		})
	}
}

func round2(f float64) float64 { return float64(int(f*100+0.5)) / 100 }

var _ = strings.TrimSpace
