package gitblame_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
	"github.com/git-memcite/git-memcite/internal/testing/longtest"
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
	repo, base, head := historyAt(t, dir, target)
	if want := os.Getenv("GIT_DEFAULT_HASH"); want != "" && repo.Repo().ObjectFormat != want {
		t.Fatalf("object format %s, want %s", repo.Repo().ObjectFormat, want)
	}
	anchors := make([]gitblame.Anchor, len(cites))
	for i, c := range cites {
		anchors[i] = gitblame.Anchor{Path: c.path, Line: c.line, LineEnd: c.end, Snippet: c.snippet, Base: base}
	}
	res, err := gitblame.ListChainForTest(gitblame.New(repo)).Track(context.Background(), anchors, gitblame.Target{Commit: head})
	if err != nil {
		t.Fatal(err)
	}
	// the walk through every commit gives the same results
	all, err := gitblame.New(fullWalk{repo}).Track(context.Background(), anchors, gitblame.Target{Commit: head})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res, all) {
		t.Errorf("%s: stepping through the commits that change a tracked path:\n%+v\nthrough every commit:\n%+v", scenario, res, all)
	}
	return res
}

func TestFixtures(t *testing.T) {
	type tc struct {
		cite cite
		want want
	}
	// The standard citations of the base shop.go (see testdata/repos).
	var (
		cTotalLoop = cite{"shop.go", 19, 0, "total += item.Price * item.Qty"}
		cEmpty     = cite{"shop.go", 27, 0, `errors.New("empty order")`}
		cSprintf   = cite{"shop.go", 41, 0, "fmt.Sprintf"}
		cBrace     = cite{"shop.go", 22, 0, "}"} // Total's closing brace: trivial
		cTotalFunc = cite{"shop.go", 16, 22, "func Total"}
		cValidate  = cite{"shop.go", 25, 35, ""}
		cQty       = cite{"shop.go", 31, 0, "bad quantity"}
	)
	tests := []struct {
		scenario string
		cases    []tc
	}{
		{"crlf", []tc{
			{cTotalLoop, want{status: gitblame.Unchanged, path: "shop.go", line: 19, end: 19, snippet: true, sim: 1}},
			{cEmpty, want{status: gitblame.Unchanged, path: "shop.go", line: 27, end: 27, snippet: true, sim: 1}},
			{cSprintf, want{status: gitblame.Unchanged, path: "shop.go", line: 41, end: 41, snippet: true, sim: 1}},
			{cBrace, want{status: gitblame.Unchanged, path: "shop.go", line: 22, end: 22, snippet: true, sim: 1}},
			{cTotalFunc, want{status: gitblame.Unchanged, path: "shop.go", line: 16, end: 22, snippet: true, sim: 1}},
			{cValidate, want{status: gitblame.Unchanged, path: "shop.go", line: 25, end: 35, sim: 1}},
			{cQty, want{status: gitblame.Unchanged, path: "shop.go", line: 31, end: 31, snippet: true, sim: 1}},
		}},
		{"delete-block", []tc{
			{cTotalLoop, want{status: gitblame.Moved, path: "shop.go", line: 20, end: 20, blame: "document total", snippet: true, sim: 1}},
			{cEmpty, want{status: gitblame.Gone, goneIn: "drop validation", blame: "drop validation"}},
			{cSprintf, want{status: gitblame.Moved, path: "shop.go", line: 29, end: 29, blame: "drop validation", snippet: true, sim: 1}},
			{cBrace, want{status: gitblame.Moved, path: "shop.go", line: 23, end: 23, blame: "document total", snippet: true, sim: 1}},
			{cTotalFunc, want{status: gitblame.Moved, path: "shop.go", line: 17, end: 23, blame: "document total", snippet: true, sim: 1}},
			{cValidate, want{status: gitblame.Gone, goneIn: "drop validation", blame: "drop validation"}},
			{cQty, want{status: gitblame.Gone, goneIn: "drop validation", blame: "drop validation"}},
		}},
		{"delete-file", []tc{
			{cTotalLoop, want{status: gitblame.Gone, goneIn: "remove shop", blame: "remove shop"}},
			{cEmpty, want{status: gitblame.Gone, goneIn: "remove shop", blame: "remove shop"}},
			{cSprintf, want{status: gitblame.Gone, goneIn: "remove shop", blame: "remove shop"}},
			{cBrace, want{status: gitblame.Gone, goneIn: "remove shop", blame: "remove shop"}},
			{cTotalFunc, want{status: gitblame.Gone, goneIn: "remove shop", blame: "remove shop"}},
			{cValidate, want{status: gitblame.Gone, goneIn: "remove shop", blame: "remove shop"}},
			{cQty, want{status: gitblame.Gone, goneIn: "remove shop", blame: "remove shop"}},
		}},
		{"duplicate-block", []tc{
			{cTotalLoop, want{status: gitblame.Moved, path: "shop.go", line: 28, end: 28, blame: "add subtotal", snippet: true, sim: 1}},
			{cEmpty, want{status: gitblame.Moved, path: "shop.go", line: 36, end: 36, blame: "add subtotal", snippet: true, sim: 1}},
			{cSprintf, want{status: gitblame.Moved, path: "shop.go", line: 50, end: 50, blame: "add subtotal", snippet: true, sim: 1}},
			{cBrace, want{status: gitblame.Moved, path: "shop.go", line: 31, end: 31, blame: "add subtotal", snippet: true, sim: 1}},
			{cTotalFunc, want{status: gitblame.Moved, path: "shop.go", line: 25, end: 31, blame: "add subtotal", snippet: true, sim: 1}},
			{cValidate, want{status: gitblame.Moved, path: "shop.go", line: 34, end: 44, blame: "add subtotal", sim: 1}},
			{cQty, want{status: gitblame.Moved, path: "shop.go", line: 40, end: 40, blame: "add subtotal", snippet: true, sim: 1}},
		}},
		{"edit-cited-line", []tc{
			{cTotalLoop, want{status: gitblame.Changed, path: "shop.go", line: 19, end: 19, blame: "count quantities in totals", snippet: true, sim: 0.71}},
			{cEmpty, want{status: gitblame.Unchanged, path: "shop.go", line: 27, end: 27, snippet: true, sim: 1}},
			{cSprintf, want{status: gitblame.Unchanged, path: "shop.go", line: 41, end: 41, snippet: true, sim: 1}},
			{cBrace, want{status: gitblame.Unchanged, path: "shop.go", line: 22, end: 22, snippet: true, sim: 1}},
			{cTotalFunc, want{status: gitblame.Changed, path: "shop.go", line: 16, end: 22, blame: "count quantities in totals", snippet: true, sim: 0.96}},
			{cValidate, want{status: gitblame.Unchanged, path: "shop.go", line: 25, end: 35, sim: 1}},
			{cQty, want{status: gitblame.Unchanged, path: "shop.go", line: 31, end: 31, snippet: true, sim: 1}},
		}},
		{"extract-new-file", []tc{
			{cTotalLoop, want{status: gitblame.Unchanged, path: "shop.go", line: 19, end: 19, snippet: true, sim: 1}},
			{cEmpty, want{status: gitblame.Unchanged, path: "shop.go", line: 27, end: 27, snippet: true, sim: 1}},
			{cSprintf, want{status: gitblame.Moved, path: "render.go", line: 9, end: 9, blame: "extract rendering", snippet: true, sim: 1}},
			{cBrace, want{status: gitblame.Unchanged, path: "shop.go", line: 22, end: 22, snippet: true, sim: 1}},
			{cTotalFunc, want{status: gitblame.Unchanged, path: "shop.go", line: 16, end: 22, snippet: true, sim: 1}},
			{cValidate, want{status: gitblame.Unchanged, path: "shop.go", line: 25, end: 35, sim: 1}},
			{cQty, want{status: gitblame.Unchanged, path: "shop.go", line: 31, end: 31, snippet: true, sim: 1}},
		}},
		{"insert-delete-above", []tc{
			{cTotalLoop, want{status: gitblame.Moved, path: "shop.go", line: 20, end: 20, blame: "document the package", snippet: true, sim: 1}},
			{cEmpty, want{status: gitblame.Moved, path: "shop.go", line: 28, end: 28, blame: "document the package", snippet: true, sim: 1}},
			{cSprintf, want{status: gitblame.Moved, path: "shop.go", line: 42, end: 42, blame: "document the package", snippet: true, sim: 1}},
			{cBrace, want{status: gitblame.Moved, path: "shop.go", line: 23, end: 23, blame: "document the package", snippet: true, sim: 1}},
			{cTotalFunc, want{status: gitblame.Moved, path: "shop.go", line: 17, end: 23, blame: "document the package", snippet: true, sim: 1}},
			{cValidate, want{status: gitblame.Moved, path: "shop.go", line: 26, end: 36, blame: "document the package", sim: 1}},
			{cQty, want{status: gitblame.Moved, path: "shop.go", line: 32, end: 32, blame: "document the package", snippet: true, sim: 1}},
		}},
		{"merge-both-sides", []tc{
			{cTotalLoop, want{status: gitblame.Moved, path: "shop.go", line: 22, end: 22, blame: "merge feature", snippet: true, sim: 1}},
			{cEmpty, want{status: gitblame.Moved, path: "shop.go", line: 30, end: 30, blame: "merge feature", snippet: true, sim: 1}},
			{cSprintf, want{status: gitblame.Moved, path: "shop.go", line: 44, end: 44, blame: "merge feature", snippet: true, sim: 1}},
			{cBrace, want{status: gitblame.Moved, path: "shop.go", line: 25, end: 25, blame: "merge feature", snippet: true, sim: 1}},
			{cTotalFunc, want{status: gitblame.Moved, path: "shop.go", line: 19, end: 25, blame: "merge feature", snippet: true, sim: 1}},
			{cValidate, want{status: gitblame.Moved, path: "shop.go", line: 28, end: 38, blame: "merge feature", sim: 1}},
			{cQty, want{status: gitblame.Moved, path: "shop.go", line: 34, end: 34, blame: "merge feature", snippet: true, sim: 1}},
		}},
		{"move-folder", []tc{
			{cTotalLoop, want{status: gitblame.Moved, path: "internal/shop/shop.go", line: 20, end: 20, blame: "move into internal", snippet: true, sim: 1}},
			{cEmpty, want{status: gitblame.Moved, path: "internal/shop/shop.go", line: 28, end: 28, blame: "move into internal", snippet: true, sim: 1}},
			{cSprintf, want{status: gitblame.Moved, path: "internal/shop/shop.go", line: 42, end: 42, blame: "move into internal", snippet: true, sim: 1}},
			{cBrace, want{status: gitblame.Moved, path: "internal/shop/shop.go", line: 23, end: 23, blame: "move into internal", snippet: true, sim: 1}},
			{cTotalFunc, want{status: gitblame.Moved, path: "internal/shop/shop.go", line: 17, end: 23, blame: "move into internal", snippet: true, sim: 1}},
			{cValidate, want{status: gitblame.Moved, path: "internal/shop/shop.go", line: 26, end: 36, blame: "move into internal", sim: 1}},
			{cQty, want{status: gitblame.Moved, path: "internal/shop/shop.go", line: 32, end: 32, blame: "move into internal", snippet: true, sim: 1}},
		}},
		{"move-to-other-file", []tc{
			{cTotalLoop, want{status: gitblame.Unchanged, path: "shop.go", line: 19, end: 19, snippet: true, sim: 1}},
			{cEmpty, want{status: gitblame.Moved, path: "discount.go", line: 19, end: 19, blame: "move validation next to discounts", snippet: true, sim: 1}},
			{cSprintf, want{status: gitblame.Moved, path: "shop.go", line: 28, end: 28, blame: "move validation next to discounts", snippet: true, sim: 1}},
			{cBrace, want{status: gitblame.Unchanged, path: "shop.go", line: 22, end: 22, snippet: true, sim: 1}},
			{cTotalFunc, want{status: gitblame.Unchanged, path: "shop.go", line: 16, end: 22, snippet: true, sim: 1}},
			{cValidate, want{status: gitblame.Moved, path: "discount.go", line: 17, end: 27, blame: "move validation next to discounts", sim: 1}},
			{cQty, want{status: gitblame.Moved, path: "discount.go", line: 23, end: 23, blame: "move validation next to discounts", snippet: true, sim: 1}},
		}},
		{"move-within-file", []tc{
			{cTotalLoop, want{status: gitblame.Moved, path: "shop.go", line: 41, end: 41, blame: "reorder functions", snippet: true, sim: 1}},
			{cEmpty, want{status: gitblame.Moved, path: "shop.go", line: 18, end: 18, blame: "reorder functions", snippet: true, sim: 1}},
			{cSprintf, want{status: gitblame.Moved, path: "shop.go", line: 32, end: 32, blame: "reorder functions", snippet: true, sim: 1}},
			{cBrace, want{status: gitblame.Moved, path: "shop.go", line: 44, end: 44, blame: "reorder functions", snippet: true, sim: 1}},
			{cTotalFunc, want{status: gitblame.Moved, path: "shop.go", line: 38, end: 44, blame: "reorder functions", snippet: true, sim: 1}},
			{cValidate, want{status: gitblame.Moved, path: "shop.go", line: 16, end: 26, blame: "reorder functions", sim: 1}},
			{cQty, want{status: gitblame.Moved, path: "shop.go", line: 22, end: 22, blame: "reorder functions", snippet: true, sim: 1}},
		}},
		{"reindent", []tc{
			{cTotalLoop, want{status: gitblame.Changed, path: "shop.go", line: 20, end: 20, blame: "guard nil items", snippet: true, sim: 1}},
			{cEmpty, want{status: gitblame.Moved, path: "shop.go", line: 29, end: 29, blame: "guard nil items", snippet: true, sim: 1}},
			{cSprintf, want{status: gitblame.Moved, path: "shop.go", line: 43, end: 43, blame: "guard nil items", snippet: true, sim: 1}},
			{cBrace, want{status: gitblame.Moved, path: "shop.go", line: 24, end: 24, blame: "guard nil items", snippet: true, sim: 1}},
			{cTotalFunc, want{status: gitblame.Changed, path: "shop.go", line: 16, end: 24, blame: "guard nil items", snippet: true, sim: 0.86}},
			{cValidate, want{status: gitblame.Moved, path: "shop.go", line: 27, end: 37, blame: "guard nil items", sim: 1}},
			{cQty, want{status: gitblame.Moved, path: "shop.go", line: 33, end: 33, blame: "guard nil items", snippet: true, sim: 1}},
		}},
		{"rename-edit", []tc{
			{cTotalLoop, want{status: gitblame.Moved, path: "order.go", line: 19, end: 19, blame: "rename and reword errors", snippet: true, sim: 1}},
			{cEmpty, want{status: gitblame.Changed, path: "order.go", line: 27, end: 27, blame: "rename and reword errors", sim: 0.66}},
			{cSprintf, want{status: gitblame.Moved, path: "order.go", line: 41, end: 41, blame: "rename and reword errors", snippet: true, sim: 1}},
			{cBrace, want{status: gitblame.Moved, path: "order.go", line: 22, end: 22, blame: "rename and reword errors", snippet: true, sim: 1}},
			{cTotalFunc, want{status: gitblame.Moved, path: "order.go", line: 16, end: 22, blame: "rename and reword errors", snippet: true, sim: 1}},
			{cValidate, want{status: gitblame.Changed, path: "order.go", line: 25, end: 35, blame: "rename and reword errors", sim: 0.97}},
			{cQty, want{status: gitblame.Moved, path: "order.go", line: 31, end: 31, blame: "rename and reword errors", snippet: true, sim: 1}},
		}},
		{"rename-identifier", []tc{
			{cTotalLoop, want{status: gitblame.Changed, path: "shop.go", line: 19, end: 19, blame: "rename item to it", sim: 0.87}},
			{cEmpty, want{status: gitblame.Unchanged, path: "shop.go", line: 27, end: 27, snippet: true, sim: 1}},
			{cSprintf, want{status: gitblame.Changed, path: "shop.go", line: 41, end: 41, blame: "rename item to it", snippet: true, sim: 0.91}},
			{cBrace, want{status: gitblame.Unchanged, path: "shop.go", line: 22, end: 22, snippet: true, sim: 1}},
			{cTotalFunc, want{status: gitblame.Changed, path: "shop.go", line: 16, end: 22, blame: "rename item to it", snippet: true, sim: 0.97}},
			{cValidate, want{status: gitblame.Changed, path: "shop.go", line: 25, end: 35, blame: "rename item to it", sim: 0.98}},
			{cQty, want{status: gitblame.Changed, path: "shop.go", line: 31, end: 31, blame: "rename item to it", snippet: true, sim: 0.94}},
		}},
		{"rename", []tc{
			{cTotalLoop, want{status: gitblame.Moved, path: "order.go", line: 19, end: 19, blame: "rename shop.go to order.go", snippet: true, sim: 1}},
			{cEmpty, want{status: gitblame.Moved, path: "order.go", line: 27, end: 27, blame: "rename shop.go to order.go", snippet: true, sim: 1}},
			{cSprintf, want{status: gitblame.Moved, path: "order.go", line: 41, end: 41, blame: "rename shop.go to order.go", snippet: true, sim: 1}},
			{cBrace, want{status: gitblame.Moved, path: "order.go", line: 22, end: 22, blame: "rename shop.go to order.go", snippet: true, sim: 1}},
			{cTotalFunc, want{status: gitblame.Moved, path: "order.go", line: 16, end: 22, blame: "rename shop.go to order.go", snippet: true, sim: 1}},
			{cValidate, want{status: gitblame.Moved, path: "order.go", line: 25, end: 35, blame: "rename shop.go to order.go", sim: 1}},
			{cQty, want{status: gitblame.Moved, path: "order.go", line: 31, end: 31, blame: "rename shop.go to order.go", snippet: true, sim: 1}},
		}},
		{"split-file", []tc{
			{cTotalLoop, want{status: gitblame.Moved, path: "total.go", line: 19, end: 19, blame: "split shop.go", snippet: true, sim: 1}},
			{cEmpty, want{status: gitblame.Moved, path: "check.go", line: 11, end: 11, blame: "split shop.go", snippet: true, sim: 1}},
			{cSprintf, want{status: gitblame.Moved, path: "total.go", line: 28, end: 28, blame: "split shop.go", snippet: true, sim: 1}},
			{cBrace, want{status: gitblame.Moved, path: "total.go", line: 22, end: 22, blame: "split shop.go", snippet: true, sim: 1}},
			{cTotalFunc, want{status: gitblame.Moved, path: "total.go", line: 16, end: 22, blame: "split shop.go", snippet: true, sim: 1}},
			{cValidate, want{status: gitblame.Moved, path: "check.go", line: 9, end: 19, blame: "split shop.go", sim: 1}},
			{cQty, want{status: gitblame.Moved, path: "check.go", line: 15, end: 15, blame: "split shop.go", snippet: true, sim: 1}},
		}},
		{"swap-blocks", []tc{
			{cTotalLoop, want{status: gitblame.Moved, path: "shop.go", line: 32, end: 32, blame: "swap functions", snippet: true, sim: 1}},
			{cEmpty, want{status: gitblame.Moved, path: "shop.go", line: 18, end: 18, blame: "swap functions", snippet: true, sim: 1}},
			{cSprintf, want{status: gitblame.Unchanged, path: "shop.go", line: 41, end: 41, snippet: true, sim: 1}},
			{cBrace, want{status: gitblame.Moved, path: "shop.go", line: 35, end: 35, blame: "swap functions", snippet: true, sim: 1}},
			{cTotalFunc, want{status: gitblame.Moved, path: "shop.go", line: 29, end: 35, blame: "swap functions", snippet: true, sim: 1}},
			{cValidate, want{status: gitblame.Moved, path: "shop.go", line: 16, end: 26, blame: "swap functions", sim: 1}},
			{cQty, want{status: gitblame.Moved, path: "shop.go", line: 22, end: 22, blame: "swap functions", snippet: true, sim: 1}},
		}},
	}
	// every reader gives the same answers: the index and refs read
	// in-process and by git's commands (MEMCITE_BACKEND=git) on SHA-1, and
	// SHA-256 (objects and history are read through git with each; plain
	// `go test` runs the last two on the scenarios in allReaders, the long
	// tests on all)
	readers := []struct{ name, backend, hash string }{
		{"in-process", "", "sha1"}, {"git-binary", "git", "sha1"}, {"sha256", "", "sha256"},
	}
	allReaders := map[string]bool{"merge-both-sides": true, "move-folder": true, "split-file": true, "crlf": true}
	for _, rd := range readers {
		for _, tt := range tests {
			t.Run(rd.name+"/"+tt.scenario, func(t *testing.T) {
				if rd.name != "in-process" && !allReaders[tt.scenario] {
					longtest.Skip(t, "every fixture with every reader")
				}
				t.Cleanup(gitrepo.ForceGitBinary(rd.backend == "git"))
				t.Setenv("GIT_DEFAULT_HASH", rd.hash)
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
}

func round2(f float64) float64 { return float64(int(f*100+0.5)) / 100 }

// blobCounter counts a history's single and batched blob reads.
type blobCounter struct {
	gitblame.History
	br            gitblame.BlobsReader
	single, batch int
	batched       int // blobs read in batches
}

func (c *blobCounter) Blob(h gitblame.Hash) ([]byte, error) {
	c.single++
	return c.History.Blob(h)
}

func (c *blobCounter) Blobs(hs []gitblame.Hash, f func(i int, data []byte, err error)) {
	c.batch++
	c.batched += len(hs)
	c.br.Blobs(hs, f)
}

// TestPrefetchStepFiles: a line that left its file is looked for in the
// other files the step changed, whose contents are read in one batch, and
// followed as the walk that reads them one by one follows it.
func TestPrefetchStepFiles(t *testing.T) {
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	git("init", "-q")
	body := func(tag string) string {
		var b strings.Builder
		for i := range 20 {
			fmt.Fprintf(&b, "func %s%02d(v int) int { return v * %d }\n", tag, i, i+7)
		}
		return b.String()
	}
	moving := "func movingTarget(orders []Order) error { return validateEverything(orders, true) }\n"
	gitfixture.Write(t, dir, "a.go", body("a")+moving+body("z"))
	gitfixture.Write(t, dir, "b.go", body("b"))
	gitfixture.Write(t, dir, "c.go", body("c"))
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	git("tag", "base")
	// the line leaves a.go for d.go, and b.go and c.go change too
	gitfixture.Write(t, dir, "a.go", body("a")+body("z"))
	gitfixture.Write(t, dir, "b.go", body("b")+body("bb"))
	gitfixture.Write(t, dir, "c.go", body("cc")+body("c"))
	gitfixture.Write(t, dir, "d.go", body("d")+moving)
	git("add", "-A")
	git("commit", "-q", "-m", "move")
	repo, base, head := historyAt(t, dir, "HEAD")
	anchors := []gitblame.Anchor{{Path: "a.go", Line: 21, Snippet: "movingTarget", Base: base}}
	c := &blobCounter{History: repo, br: repo}
	res, err := gitblame.New(c).Track(context.Background(), anchors, gitblame.Target{Commit: head})
	if err != nil {
		t.Fatal(err)
	}
	one, err := gitblame.New(fullWalk{repo}).Track(context.Background(), anchors, gitblame.Target{Commit: head})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res, one) {
		t.Errorf("with the step's files read in a batch:\n%+v\none by one:\n%+v", res, one)
	}
	if l := res[0].Location; l.Path != "d.go" || l.Line != 21 {
		t.Fatalf("the line is at %s:%d, not d.go:21 (%v)", l.Path, l.Line, res[0].Status)
	}
	if c.batch == 0 || c.batched < 3 {
		t.Errorf("the step's files were read one by one (%d single reads; %d batches of %d blobs)", c.single, c.batch, c.batched)
	}
}

// historyAt opens the history of the repository at dir, and resolves its
// tag "base" and target.
func historyAt(t *testing.T, dir, target string) (*gitrepo.History, gitblame.Hash, gitblame.Hash) {
	t.Helper()
	repo, err := gitrepo.OpenHistory(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		repo.Close()
		repo.Repo().Close()
	})
	base, err := repo.Resolve("base")
	if err != nil {
		t.Fatal(err)
	}
	head, err := repo.Resolve(target)
	if err != nil {
		t.Fatal(err)
	}
	return repo, base, head
}
