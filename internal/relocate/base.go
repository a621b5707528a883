package relocate

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/memfile"
)

// A citation's base is the commit it was written against. Its commit
// field says so when it names a commit. Otherwise the base is derived
// from history, never from the clock: the commit that wrote this version
// of the citation into the memory file (walking the memory file's
// first-parent history back from the target while the citation stands
// there as it is written now), moved forward to the first commit of that
// run whose cited line holds the snippet, when there is one. A citation
// that the target's memory file does not hold yet (written or fixed since,
// not committed) was written against the content it is checked against
// now: it is taken as written. So a citation that relocate --fix rewrote
// keeps its new base in every later run, whatever its form, and a second
// --fix changes nothing.

// written says how a citation version stands in the memory file's history.
type written struct {
	base      gitblame.Hash // the commit that wrote it; zero when uncommitted
	committed bool
	// cut: the citation stands in the oldest commit a shallow clone has,
	// so the commit that wrote it is not in the repository.
	cut bool
}

// citationKey identifies a version of a citation: where it points, as it
// is written (two citations in different forms at one place are told
// apart).
func citationKey(c memfile.Citation) string {
	var b strings.Builder
	b.Grow(len(c.Path) + len(c.Snippet) + 32)
	b.WriteString(c.Path)
	b.WriteByte(0)
	b.WriteString(strconv.Itoa(c.Line))
	b.WriteByte(0)
	b.WriteString(strconv.FormatBool(c.HasLine))
	b.WriteByte(0)
	b.WriteString(strconv.Itoa(c.LineEnd))
	b.WriteByte(0)
	b.WriteString(strconv.FormatBool(c.HasSnippet))
	b.WriteByte(0)
	b.WriteString(c.Snippet)
	b.WriteByte(0)
	b.WriteString(c.Written())
	return b.String()
}

// memoryHistory is the first-parent history of one memory file from the
// target back: the versions of the file, newest first, each with the
// oldest commit of the run that holds it.
type memoryHistory struct {
	versions []memoryVersion
	cut      bool // the walk stopped at the edge of a shallow clone
	// logged: found through a PathLogger, so each version holds only the
	// commit that made it; the run of commits between is listed when a
	// snippet needs it.
	logged PathLogger
	head   gitblame.Hash
}

// PathLogger lists where a file's versions begin without walking every
// commit (gitrepo.History: git rev-list); loadMemoryHistory uses it when
// the history has it.
type PathLogger interface {
	// FileCommits lists the commits of head's first-parent chain that change
	// path against their first parent, newest first.
	FileCommits(head gitblame.Hash, path string) ([]gitblame.Hash, error)
	// FirstParents lists head's first-parent chain down to oldest, both
	// included, newest first.
	FirstParents(oldest, head gitblame.Hash) ([]gitblame.Hash, error)
}

type memoryVersion struct {
	commits []gitblame.Hash // newest first: the commits that hold this version (logged: that made it)
	byIndex []string        // citation keys in list order
	err     error           // logged: the version could not be read
}

// holds reports whether the version holds citation c (key k) as it is
// written: at the same position when the list has as many citations as
// the current one (so that a citation fixed onto the old place of another
// is not taken for it), anywhere when citations were added or removed.
func (v *memoryVersion) holds(c memfile.Citation, k string, n int) bool {
	if len(v.byIndex) == n {
		return c.Index < n && v.byIndex[c.Index] == k
	}
	return slices.Contains(v.byIndex, k)
}

// loadMemoryHistory walks the memory file's history from head back along
// first parents for at most limit versions. cur, when not nil, is the file
// as it is now: a version with the same bytes is not parsed again.
func loadMemoryHistory(h gitblame.History, head gitblame.Hash, path string, limit int, cur *memfile.File) (*memoryHistory, error) {
	if pl, ok := h.(PathLogger); ok {
		if mh, err := loadMemoryLog(h, pl, head, path, limit, cur); !errors.Is(err, errNoPathLog) {
			return mh, err
		}
	}
	mh := &memoryHistory{}
	c, err := h.Commit(head)
	if err != nil {
		return nil, err
	}
	var last *memoryVersion
	var lastBlob gitblame.Hash
	var child *gitblame.Commit // the commit walked before c
	for c != nil {
		blob, ok, err := h.Entry(c.Tree, path)
		if err != nil {
			return nil, err
		}
		if !ok && child != nil {
			// renamed, moved or copied in child: follow it to its old name
			if path, err = renamedFrom(h, c, child, path, lastBlob); err != nil {
				return nil, err
			}
			if path != "" {
				blob, ok, err = h.Entry(c.Tree, path)
				if err != nil {
					return nil, err
				}
			}
		}
		if !ok {
			break // the memory file does not exist before this
		}
		if last == nil || blob != lastBlob {
			if len(mh.versions) == limit {
				break
			}
			data, err := h.Blob(blob)
			if err != nil {
				return nil, err
			}
			f := cur
			if f == nil || !bytes.Equal(data, f.Src) {
				if f, err = memfile.Parse(path, data); err != nil {
					f = nil
				}
			}
			var v memoryVersion
			if f != nil {
				v.byIndex = make([]string, 0, len(f.Citations))
				for _, ct := range f.Citations {
					v.byIndex = append(v.byIndex, citationKey(ct))
				}
			}
			mh.versions = append(mh.versions, v)
			last, lastBlob = &mh.versions[len(mh.versions)-1], blob
		}
		last.commits = append(last.commits, c.Hash)
		child = c
		if len(c.Parents) == 0 {
			break
		}
		p, err := h.Commit(c.Parents[0])
		if errors.Is(err, gitblame.ErrNotFound) {
			mh.cut = true // the edge of a shallow clone
			break
		}
		if err != nil {
			return nil, err
		}
		c = p
	}
	return mh, nil
}

// loadMemoryLog is loadMemoryHistory through a PathLogger: the commits
// that changed the memory file (under each name it had), each version
// parsed once.
func loadMemoryLog(h gitblame.History, pl PathLogger, head gitblame.Hash, path string, limit int, cur *memfile.File) (*memoryHistory, error) {
	mh := &memoryHistory{logged: pl, head: head}
	var lastBlob gitblame.Hash
	from := head
	for {
		commits, err := pl.FileCommits(from, path)
		if err != nil {
			return nil, err
		}
		if len(commits) == 0 {
			return mh, nil
		}
		var oldest *gitblame.Commit
		for _, ch := range commits {
			c, err := h.Commit(ch)
			if err != nil {
				return nil, err
			}
			blob, ok, err := h.Entry(c.Tree, path)
			if err != nil {
				return nil, err
			}
			if !ok {
				return mh, nil // deleted here: the versions since are the file's
			}
			if len(mh.versions) > 0 && blob == lastBlob {
				v := &mh.versions[len(mh.versions)-1]
				v.commits = append(v.commits, ch) // changed and changed back
			} else {
				if len(mh.versions) == limit {
					return mh, nil
				}
				mh.versions = append(mh.versions, parseVersion(h, path, blob, cur, ch))
				if mh.versions[len(mh.versions)-1].byIndex == nil && mh.versions[len(mh.versions)-1].err != nil {
					return nil, mh.versions[len(mh.versions)-1].err
				}
				lastBlob = blob
			}
			oldest = c
		}
		// the oldest change: a creation, the edge of a shallow clone, or
		// a rename from the name the file had before
		if len(oldest.Parents) == 0 {
			return mh, nil
		}
		p, err := h.Commit(oldest.Parents[0])
		if errors.Is(err, gitblame.ErrNotFound) {
			mh.cut = true
			return mh, nil
		}
		if err != nil {
			return nil, err
		}
		if path, err = renamedFrom(h, p, oldest, path, lastBlob); err != nil || path == "" {
			return mh, err
		}
		from = p.Hash
	}
}

// parseVersion reads and parses the version of a memory file in blob
// (made by commit ch); cur, when it has the same bytes, is not parsed
// again. A version that does not parse holds no citation.
func parseVersion(h gitblame.History, path string, blob gitblame.Hash, cur *memfile.File, ch gitblame.Hash) memoryVersion {
	v := memoryVersion{commits: []gitblame.Hash{ch}}
	data, err := h.Blob(blob)
	if err != nil {
		v.err = err
		return v
	}
	f := cur
	if f == nil || !bytes.Equal(data, f.Src) {
		if f, err = memfile.Parse(path, data); err != nil {
			f = nil
		}
	}
	v.byIndex = []string{}
	if f != nil {
		for _, ct := range f.Citations {
			v.byIndex = append(v.byIndex, citationKey(ct))
		}
	}
	return v
}

// maxVersions bounds how far back a citation's writing commit is looked
// for: a citation unchanged through more versions of its memory file takes
// the oldest of them.
const maxVersions = 64

// writtenAt finds the commit that wrote c into the memory file: the oldest
// commit of the contiguous run, back from the target, whose version of the
// file holds c as it is written now; with a snippet, the first commit of
// that run (oldest first) whose cited line holds it.
func writtenAt(h gitblame.History, mh *memoryHistory, cp *memfile.Citation, n int, lines Lines) (written, error) {
	c := *cp
	key := citationKey(c)
	var run []gitblame.Hash // newest first
	all := true
	for _, v := range mh.versions {
		if !v.holds(c, key, n) {
			all = false
			break
		}
		run = append(run, v.commits...)
	}
	if len(run) == 0 {
		return written{}, nil // not committed: written against what it is checked against
	}
	if all && mh.cut {
		return written{base: run[len(run)-1], committed: true, cut: true}, nil
	}
	if c.HasSnippet && c.HasLine && c.Line >= 1 && mh.logged != nil {
		// the oldest commit of the run first: where the snippet almost
		// always held; the whole run only when it did not
		oldest := run[len(run)-1]
		ok, err := holdsSnippet(h, lines, oldest, c)
		if err != nil || ok {
			return written{base: oldest, committed: true}, err
		}
		if run, err = mh.logged.FirstParents(oldest, mh.head); err != nil {
			return written{}, err
		}
	}
	if c.HasSnippet && c.HasLine && c.Line >= 1 {
		for i := len(run) - 1; i >= 0; i-- {
			ok, err := holdsSnippet(h, lines, run[i], c)
			if err != nil {
				return written{}, err
			}
			if ok {
				return written{base: run[i], committed: true}, nil
			}
		}
	}
	return written{base: run[len(run)-1], committed: true}, nil
}

// Lines gives line n (1-based, without its line ending) of a blob, and
// false past its end: the tracker's (gitblame.Tracker.Line), whose texts
// of the cited files serve both the search for a citation's base and the
// tracking from it (a second cache of the same blobs held up to 64 MB).
type Lines interface {
	Line(blob gitblame.Hash, n int) (string, bool, error)
}

// holdsSnippet reports whether the cited line of c holds its snippet at
// commit ch.
func holdsSnippet(h gitblame.History, lines Lines, ch gitblame.Hash, c memfile.Citation) (bool, error) {
	cm, err := h.Commit(ch)
	if err != nil {
		return false, err
	}
	blob, ok, err := h.Entry(cm.Tree, c.Path)
	if err != nil || !ok {
		return false, err
	}
	line, ok, err := lines.Line(blob, c.Line)
	if err != nil || !ok {
		return false, err
	}
	first, _, _ := strings.Cut(strings.TrimSpace(c.Snippet), "\n")
	return strings.Contains(line, strings.TrimSpace(first)), nil
}

// renamedFrom returns the path the memory file at path in child had in its
// parent c, when child renamed, moved or copied it there, as git log
// --follow -C finds it: a rename git's similarity detection pairs, else a
// copy of a file child also changes (same content before or after). ""
// when child created it.
func renamedFrom(h gitblame.History, c, child *gitblame.Commit, path string, blob gitblame.Hash) (string, error) {
	changes, err := h.Changes(c.Hash, child.Hash, true)
	if err != nil {
		return "", err
	}
	copied := ""
	for _, ch := range changes {
		switch {
		case ch.To == path && ch.From != "" && ch.From != path:
			return ch.From, nil
		case ch.From != "" && ch.From != path && (ch.FromBlob == blob || ch.ToBlob == blob) && (copied == "" || ch.From < copied):
			copied = ch.From
		}
	}
	return copied, nil
}
