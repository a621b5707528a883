package cite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/source"
)

func TestResolveBareNameAmbiguousEvenAtRoot(t *testing.T) {
	tr := NewTracked([]string{"README.md", "docs/README.md", "go.mod", "tools/go.mod", "src/only.go"})
	for _, name := range []string{"README.md", "go.mod"} {
		if p, cands := tr.resolve(name); p != "" || len(cands) != 2 {
			t.Errorf("%s: resolved to %q (%v); want ambiguous between 2", name, p, cands)
		}
	}
	if p, _ := tr.resolve("only.go"); p != "src/only.go" {
		t.Errorf("only.go: %q", p)
	}
	if p, _ := tr.resolve("docs/README.md"); p != "docs/README.md" {
		t.Errorf("docs/README.md: %q", p)
	}
}

func TestRangeSnippetIsTheMostDistinctiveLine(t *testing.T) {
	file := strings.Join([]string{
		`if (x == "lot") {`, // 1
		`  a()`,             // 2
		`}`,                 // 3
		``,                  // 4
		`if (x == "lot") {`, // 5
		`  handleLotOrder(x)`,
		`}`,
	}, "\n") + "\n"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.js"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := source.NewWorktree(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := rangeSnippet(src, "f.js", 4, 7); got != "handleLotOrder(x)" {
		t.Errorf("range 4-7: got %q; want the distinctive line", got)
	}
	if got := rangeSnippet(src, "f.js", 3, 4); got != "" {
		t.Errorf("range 3-4 (a brace and a blank line): got %q; want none", got)
	}
}
