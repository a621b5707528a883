package verify

import (
	"context"
	"strings"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
)

// One checks a single citation against src and returns the reason it is
// stale, or "" when it holds (URLs hold: they are not fetched).
func One(ctx context.Context, src source.Source, c memfile.Citation) (string, error) {
	if c.URL != "" {
		return "", nil
	}
	cr := &CitationResult{Citation: &c}
	w := &want{cites: []*CitationResult{cr}}
	if c.HasLine {
		end := max(c.Line, c.LineEnd, c.Line+strings.Count(strings.TrimRight(c.Snippet, "\n"), "\n"))
		w.add(max(c.Line, 1), end)
	}
	if err := readAll(ctx, src, map[string]*want{c.Path: w}, nil); err != nil {
		return "", err
	}
	return cr.Reason, nil
}
