package prose

import (
	"context"
	"fmt"
	"strings"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// Resolver judges the references of a memory's prose one at a time, as
// CheckProse does (the commit that wrote each line, the reference
// resolved there, its fate since), without the symbol pass: adopt pins
// what it finds to frontmatter citations and links.
type Resolver struct {
	j     *judge
	lines map[*store.Memory][]string
}

// Resolver lists the files of src once, for the references resolved with
// it.
func (c *Checker) Resolver(src source.Source) (*Resolver, error) {
	paths, err := src.List("")
	if err != nil {
		return nil, fmt.Errorf("prose: listing %s: %w", src.Name(), err)
	}
	return &Resolver{j: &judge{c: c, src: src, now: newTracked(paths), mems: newMemIndex(c.All)}, lines: map[*store.Memory][]string{}}, nil
}

// Resolve judges reference r of memory m where its line was written.
// ok is false for what is no reference (a bare or backticked name that
// named nothing, a symbol). The citation's Commit is the commit that
// wrote the line ("" when it is not committed).
func (rs *Resolver) Resolve(ctx context.Context, m *store.Memory, r Ref) (pc verify.ProseCitation, ok bool, err error) {
	if r.Kind == KindSymbol || m.File == nil {
		return pc, false, nil
	}
	lines, seen := rs.lines[m]
	if !seen {
		lines = strings.Split(string(m.File.Src), "\n")
		rs.lines[m] = lines
	}
	text := ""
	if r.MemLine-1 < len(lines) {
		text = strings.TrimRight(lines[r.MemLine-1], "\r")
	}
	written, err := rs.j.c.writtenAt(ctx, m.Path, text)
	if err != nil {
		return pc, false, err
	}
	pc, ok, err = rs.j.ref(ctx, m, r, written)
	if err == nil && ok && pc.Ref.Unresolved && r.Line > 0 && !written.IsZero() {
		// lines not known where it was written: the file's blob may be
		// missing from the repository rather than short
		err = rs.readable(written, pc.Citation.Path)
	}
	return pc, ok, err
}

// readable returns an error wrapping gitblame.ErrNotFound when the blob
// of p at commit c is missing from the repository.
func (rs *Resolver) readable(c gitblame.Hash, p string) error {
	blob, ok, err := rs.j.c.entryAt(c, p)
	if err != nil || !ok {
		return err
	}
	_, err = rs.j.c.H.Blob(blob)
	return err
}
