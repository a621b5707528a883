package gitblame

import (
	"errors"
	"fmt"
	"time"
)

// BaseSource says which evidence chose a citation's base commit.
type BaseSource int

// Base sources, in the order InferBase tries them.
const (
	// BaseNone: no evidence; the tracker will search the target's content.
	BaseNone BaseSource = iota
	// BaseCommit: the citation's commit field.
	BaseCommit
	// BaseVerified: the newest first-parent commit at or before the
	// citation's verified timestamp.
	BaseVerified
	// BaseMemoryFile: the newest first-parent commit that changed the
	// memory file holding the citation.
	BaseMemoryFile
	// BaseWritten: the commit that wrote the citation as it stands into its
	// memory file (derived by the caller from the memory file's history).
	BaseWritten
)

var baseNames = [...]string{"none", "commit field", "verified timestamp", "memory file history", "the commit that wrote it"}

// String describes s for messages.
func (s BaseSource) String() string {
	if s < BaseNone || s > BaseWritten {
		return fmt.Sprintf("BaseSource(%d)", int(s))
	}
	return baseNames[s]
}

// BaseHint is what a citation says about when it was made.
type BaseHint struct {
	// Commit is the citation's commit field (any revision git accepts).
	Commit string
	// Verified is the citation's verified timestamp; zero if absent.
	Verified time.Time
	// MemoryFile is the repo-relative path of the memory file holding the
	// citation; empty if unknown.
	MemoryFile string
}

// InferBase picks the commit a citation should be tracked from, searching
// the first-parent history of head: the citation's commit field if it
// names an existing commit; else the newest commit whose committer date is
// not after the verified timestamp; else the newest commit that changed
// the memory file. It reports which evidence it used and, in note, why
// earlier evidence was skipped.
func InferBase(h History, head Hash, hint BaseHint) (base Hash, src BaseSource, note string, err error) {
	if hint.Commit != "" {
		c, err := h.Resolve(hint.Commit)
		switch {
		case err == nil:
			return c, BaseCommit, "", nil
		case errors.Is(err, ErrNotFound):
			note = fmt.Sprintf("commit %s is not in the repository", hint.Commit)
		default:
			return ZeroHash, BaseNone, "", fmt.Errorf("gitblame: resolving citation commit: %w", err)
		}
	}
	if !hint.Verified.IsZero() {
		c, err := walkFirstParents(h, head, func(c, _ *Commit) (bool, error) {
			return !c.CommitDate.After(hint.Verified), nil
		})
		if err != nil {
			return ZeroHash, BaseNone, note, err
		}
		if c != nil {
			return c.Hash, BaseVerified, note, nil
		}
		note = join(note, "no commit at or before the verified time")
	}
	if hint.MemoryFile != "" {
		c, err := walkFirstParents(h, head, func(c, p *Commit) (bool, error) {
			a, aok, err := h.Entry(c.Tree, hint.MemoryFile)
			if err != nil {
				return false, err
			}
			if p == nil {
				return aok, nil
			}
			b, bok, err := h.Entry(p.Tree, hint.MemoryFile)
			if err != nil {
				return false, err
			}
			return aok != bok || a != b, nil
		})
		if err != nil {
			return ZeroHash, BaseNone, note, err
		}
		if c != nil {
			return c.Hash, BaseMemoryFile, note, nil
		}
		note = join(note, "the memory file was never committed")
	}
	return ZeroHash, BaseNone, note, nil
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// walkFirstParents returns the first commit, from head back along first
// parents, for which match is true; p is its first parent (nil at a root
// or at the edge of a shallow clone).
func walkFirstParents(h History, head Hash, match func(c, p *Commit) (bool, error)) (*Commit, error) {
	c, err := h.Commit(head)
	if err != nil {
		return nil, fmt.Errorf("gitblame: reading %s: %w", head.Short(), err)
	}
	for c != nil {
		var p *Commit
		if len(c.Parents) > 0 {
			p, err = h.Commit(c.Parents[0])
			if err != nil && !errors.Is(err, ErrNotFound) {
				return nil, fmt.Errorf("gitblame: walking first parents: %w", err)
			}
		}
		ok, err := match(c, p)
		if err != nil {
			return nil, err
		}
		if ok {
			return c, nil
		}
		c = p
	}
	return nil, nil
}
