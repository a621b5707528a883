package hookrun

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
)

// SuggestLine proposes a new line for a stale citation: when its snippet (one
// line) occurs on exactly one line of the cited file in src, and that is
// not the cited line, the citation most likely moved there. Anything else
// (no snippet, a range, a multi-line snippet, zero or several matches) has
// no suggestion: a guess could be wrong, and a wrong fix is worse than
// none.
func SuggestLine(src source.Source, c memfile.Citation) (int, bool) {
	if !c.HasLine || !c.HasSnippet || c.LineEnd != 0 || c.URL != "" ||
		strings.ContainsAny(strings.TrimRight(c.Snippet, "\r\n"), "\r\n") {
		return 0, false
	}
	p, err := source.Clean(c.Path)
	if err != nil {
		return 0, false
	}
	b, err := src.ReadFile(p)
	if err != nil {
		return 0, false
	}
	snippet := strings.TrimRight(c.Snippet, "\r\n")
	found := 0
	for i, l := range strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n") {
		if strings.Contains(l, snippet) {
			if found != 0 {
				return 0, false
			}
			found = i + 1
		}
	}
	if found == 0 || found == c.Line {
		return 0, false
	}
	return found, true
}

// ApplyMoves rewrites the citation lines of one memory file in the working
// tree (top/path): moves maps a citation index to its new line. The file
// must still hold exactly expect (the version that was checked), so local
// edits are never overwritten; only the line values change, every other
// byte is kept. Nothing is staged.
func ApplyMoves(top, path string, expect []byte, moves map[int]int) error {
	full := filepath.Join(top, filepath.FromSlash(path))
	cur, err := os.ReadFile(full)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if string(cur) != string(expect) {
		return fmt.Errorf("%s has local changes; not rewritten", path)
	}
	f, err := memfile.Parse(path, cur)
	if err != nil {
		return err
	}
	var edits []memfile.Edit
	for i, line := range moves {
		e, err := f.SetCitation(i, memfile.Field{Key: "line", Value: line})
		if err != nil {
			return fmt.Errorf("%s: citation %d: %w", path, i+1, err)
		}
		edits = append(edits, e...)
	}
	out, _, err := memfile.Rewrite(f, edits)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return memfile.WriteFile(full, cur, out)
}
