package hookrun

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// Class says how a stale citation relates to the change being checked.
type Class int

// Classes of stale citations.
const (
	// Introduced: valid before the change, stale after it.
	Introduced Class = iota
	// InChangedMemory: in a memory file the change adds or edits.
	InChangedMemory
	// NoHistory: there is nothing before the change (the first commit).
	NoHistory
	// Preexisting: stale before the change too, in a memory file the
	// change does not touch.
	Preexisting
)

// Blocks reports whether a stale citation of this class blocks a commit
// under the policy.
func (c Class) Blocks(p PreCommitPolicy) bool {
	switch p {
	case Strict:
		return true
	case Block:
		return c != Preexisting
	}
	return false
}

// StaleCitation is a stale citation and how the change relates to it.
type StaleCitation struct {
	Memory *store.Memory
	Result verify.CitationResult
	Class  Class
}

// Outcome is the result of checking a change.
type Outcome struct {
	Source    string        // what was checked: "index", "commit 1a2b…"
	After     source.Source // the content checked, for follow-up reads
	Memories  int           // memory files checked
	Citations int           // verifiable citations checked
	Stale     []StaleCitation
	// Broken are memory files that cannot be read or parsed; Changed tells
	// whether the change touches them.
	Broken []BrokenMemory
	// Report is the verification of After (nil when there were no memory
	// directories).
	Report *verify.Report
	// Drifted are citations that still verify but whose lines the change
	// moved, edited or deleted (Relocation fills it in for post-* hooks):
	// without a snippet, verify only checks that the line exists.
	Drifted []relocate.Item
	Elapsed time.Duration
}

// BrokenMemory is a memory file that cannot be read or parsed.
type BrokenMemory struct {
	Memory  *store.Memory
	Changed bool // added or edited by the change
}

// Blocking returns the stale citations that block a commit under p.
func (o *Outcome) Blocking(p PreCommitPolicy) []StaleCitation {
	var out []StaleCitation
	for _, s := range o.Stale {
		if s.Class.Blocks(p) {
			out = append(out, s)
		}
	}
	return out
}

// Count returns how many stale citations have the class.
func (o *Outcome) Count(c Class) int {
	n := 0
	for _, s := range o.Stale {
		if s.Class == c {
			n++
		}
	}
	return n
}

// Before opens the content before a change; paths are the files the caller
// will read from it (it may return a source limited to them).
type Before func(paths []string) (source.Source, error)

// Compare verifies every memory in the memory directories of after and
// classifies each stale citation against before (nil when there is no
// before, as for a first commit). before is only called when something
// is stale, and only the memories with stale citations are verified
// against it: a memory file identical before and after holds the same
// citations, so the before verdict of exactly those citations tells
// "made stale by the change" from "already stale". The work done on
// before is thus proportional to what is stale, never to the repository.
func Compare(ctx context.Context, after source.Source, before Before, dirs []string) (*Outcome, error) {
	start := time.Now()
	out := &Outcome{Source: after.Name(), After: after}
	var present []string
	for _, d := range dirs {
		if _, err := after.Stat(d); errors.Is(err, source.ErrNotExist) {
			continue // no memories there (yet)
		}
		present = append(present, d)
	}
	if len(present) == 0 {
		out.Elapsed = time.Since(start)
		return out, nil
	}
	st, err := store.Load(ctx, after, present)
	if err != nil {
		return nil, err
	}
	rep, err := verify.Check(ctx, after, st.Memories)
	if err != nil {
		return nil, err
	}
	out.Report = rep
	out.Memories = len(st.Memories)
	var suspects []*verify.MemoryResult
	for i := range rep.Memories {
		m := &rep.Memories[i]
		out.Citations += m.Total
		if m.Err() != nil || m.Stale() {
			suspects = append(suspects, m)
		}
	}
	if len(suspects) == 0 {
		out.Elapsed = time.Since(start)
		return out, nil
	}
	var prev source.Source
	if before != nil {
		if prev, err = before(neededBefore(suspects)); err != nil {
			return nil, err
		}
	}
	var unchanged []*store.Memory
	changed := map[*store.Memory]bool{}
	for _, m := range suspects {
		c, err := memoryChanged(after, prev, m.Memory)
		if err != nil {
			return nil, err
		}
		changed[m.Memory] = c
		if !c && m.Err() == nil {
			unchanged = append(unchanged, m.Memory)
		}
	}
	beforeValid := map[*store.Memory][]verify.Status{}
	if len(unchanged) > 0 {
		prevRep, err := verify.Check(ctx, prev, unchanged)
		if err != nil {
			return nil, err
		}
		for i := range prevRep.Memories {
			pm := &prevRep.Memories[i]
			var sts []verify.Status
			for _, c := range pm.Citations {
				sts = append(sts, c.Status)
			}
			beforeValid[pm.Memory] = sts
		}
	}
	for _, m := range suspects {
		if m.Err() != nil {
			out.Broken = append(out.Broken, BrokenMemory{Memory: m.Memory, Changed: changed[m.Memory]})
			continue
		}
		for i, c := range m.Citations {
			if c.Status != verify.Stale {
				continue
			}
			cls := Preexisting
			switch {
			case prev == nil:
				cls = NoHistory
			case changed[m.Memory]:
				cls = InChangedMemory
			case i < len(beforeValid[m.Memory]) && beforeValid[m.Memory][i] == verify.Valid:
				cls = Introduced
			}
			out.Stale = append(out.Stale, StaleCitation{Memory: m.Memory, Result: c, Class: cls})
		}
	}
	out.Elapsed = time.Since(start)
	return out, nil
}

// neededBefore lists what Compare reads from before: the suspect memory
// files and the files their citations name.
func neededBefore(suspects []*verify.MemoryResult) []string {
	var paths []string
	for _, m := range suspects {
		paths = append(paths, m.Memory.Path)
		if m.Memory.File == nil {
			continue
		}
		for _, c := range m.Memory.File.Citations {
			if p, err := source.Clean(c.Path); err == nil && c.URL == "" {
				paths = append(paths, p)
			}
		}
	}
	return paths
}

// memoryChanged reports whether the memory file differs between after and
// prev (a file missing from prev is changed; so is everything when there
// is no prev).
func memoryChanged(after, prev source.Source, m *store.Memory) (bool, error) {
	if prev == nil {
		return true, nil
	}
	old, err := prev.ReadFile(m.Path)
	if errors.Is(err, source.ErrNotExist) || errors.Is(err, source.ErrNotRegular) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	cur := []byte(nil)
	if m.File != nil {
		cur = m.File.Src
	} else if cur, err = after.ReadFile(m.Path); err != nil {
		return true, nil
	}
	return !bytes.Equal(old, cur), nil
}

// PreCommit checks what is being committed, idx (the index git names in
// GIT_INDEX_FILE, the temporary index of 'git commit -a' or 'git commit
// <paths>' included, from repo.Index), against HEAD. It only reads: no
// index refresh, no stash, no working-tree write. On an unborn branch
// every stale citation is NoHistory.
func PreCommit(ctx context.Context, repo *gitrepo.Repo, idx source.Source, dirs []string) (*Outcome, error) {
	before := func(paths []string) (source.Source, error) {
		head, born, err := repo.Head()
		if err != nil || !born {
			return nil, err
		}
		return commitFiles(ctx, repo, head, paths)
	}
	return Compare(ctx, idx, before, dirs)
}

// PostChange checks the result of a merge or rewrite (r.New, or the index
// after a squash merge) against r.Old.
func PostChange(ctx context.Context, repo *gitrepo.Repo, r Range, dirs []string) (*Outcome, error) {
	var after source.Source
	var err error
	if r.Squash {
		after, err = repo.Index(ctx)
	} else {
		after, err = commitSource(ctx, repo, r.New)
	}
	if err != nil {
		return nil, err
	}
	before := func(paths []string) (source.Source, error) {
		h, err := repo.ResolveCommit(ctx, r.Old)
		if err != nil {
			return nil, err
		}
		return commitFiles(ctx, repo, h, paths)
	}
	return Compare(ctx, after, before, dirs)
}

func commitSource(ctx context.Context, repo *gitrepo.Repo, rev string) (source.Source, error) {
	h, err := repo.ResolveCommit(ctx, rev)
	if err != nil {
		return nil, err
	}
	return repo.Commit(ctx, h)
}

// commitFiles reads just paths from a commit when they are all regular
// files there, else the whole tree (symlinks, directories and missing
// files need it for exact answers).
func commitFiles(ctx context.Context, repo *gitrepo.Repo, h gitrepo.OID, paths []string) (source.Source, error) {
	src, ok, err := repo.CommitFiles(ctx, h, paths)
	if err != nil || ok {
		return src, err
	}
	return repo.Commit(ctx, h)
}
