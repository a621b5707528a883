package hookrun

import (
	"path"
	"strings"

	"github.com/git-memcite/git-memcite/internal/config"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
)

// Selection tells which memories a change can affect, from the paths it
// changes: a memory whose verdict may differ after the change. Every
// other memory, and every citation in it, has the verdict it had before
// the change, since verification reads nothing else: the memory file and
// the files (or directories) its citations name, through the symbolic
// links on their way.
type Selection struct {
	changed map[string]bool // paths the change adds, edits, deletes or renames (both sides)
	above   map[string]bool // directories holding a changed path, "." included
	links   map[string]bool // symbolic links of the content after the change
	// tops are the first components of all of those: a path whose first
	// component is not one is not touched (most paths, found with one
	// lookup)
	tops map[string]bool
}

// wholeTreeFiles are the files that can change how other files read or
// which memory files there are (attributes: LFS, line endings; ignore
// rules; submodules; the team configuration with its memory directories).
// A change to any of them, anywhere, is checked in full.
var wholeTreeFiles = map[string]bool{
	".gitattributes": true,
	".gitignore":     true,
	".gitmodules":    true,
	".lfsconfig":     true,
	config.FileName:  true,
}

// Select builds the selection for a change that modifies the paths
// changed (clean repo-relative paths, as git lists them), where links
// are the symbolic links after the change and dirs the memory
// directories. ok is false when the change must be checked in full: it
// edits a file in wholeTreeFiles, or a memory directory or a directory
// above one (which may hold every memory file).
func Select(changed, links, dirs []string) (sel *Selection, ok bool) {
	s := &Selection{changed: map[string]bool{}, above: map[string]bool{}, links: map[string]bool{}, tops: map[string]bool{".": true}}
	for _, p := range changed {
		if wholeTreeFiles[path.Base(p)] {
			return nil, false
		}
		s.changed[p] = true
		s.tops[top(p)] = true
		for d := path.Dir(p); !s.above[d]; d = path.Dir(d) {
			s.above[d] = true
			if d == "." {
				break
			}
		}
	}
	for _, d := range dirs {
		c, err := source.Clean(d)
		if err != nil {
			return nil, false
		}
		if s.changed[c] || s.hasChangedAncestor(c) {
			return nil, false
		}
	}
	for _, l := range links {
		s.links[l] = true
		s.tops[top(l)] = true
	}
	return s, true
}

// Affects reports whether the change can alter the verdict of m: it
// adds, edits or renames the memory file, or changes a path one of its
// citations names (the cited file, a directory above it or below it, a
// submodule holding it), or either reaches its target through a
// symbolic link (whose target the change may edit: such memories are
// always checked).
func (s *Selection) Affects(m *store.Memory) bool {
	if s.touches(m.Path) {
		return true
	}
	if m.File == nil || m.File.Exempt {
		return false // a broken file unchanged stays broken; exempt ones are not verified
	}
	for i := range m.File.Citations {
		if p, ok := citedPath(&m.File.Citations[i]); ok && s.touches(p) {
			return true
		}
	}
	return false
}

// citedPath is the path citation c names, as a change can touch it:
// clean; ok is false for a URL and for a path that cannot be cleaned (an
// empty or escaping path is stale whatever the tree holds). A clean path
// source.Clean rejects (into .git, absolute) is returned as it is: it is
// stale whatever the tree holds, and no change lists it.
func citedPath(c *memfile.Citation) (string, bool) {
	if c.URL != "" {
		return "", false
	}
	p := c.Path
	if path.Clean(p) == p && p != "" { // (no allocation when it is clean already)
		return p, true
	}
	p, err := source.Clean(p)
	return p, err == nil
}

// touches reports whether reading p may give another answer after the
// change: p is changed, holds a changed path, lies below a changed path
// (a file that became a directory, a submodule), or goes through a
// symbolic link.
func (s *Selection) touches(p string) bool {
	if !s.tops[top(p)] {
		return false
	}
	if s.changed[p] || s.above[p] || s.links[p] {
		return true
	}
	return s.hasChangedAncestor(p)
}

func (s *Selection) hasChangedAncestor(p string) bool {
	for i := strings.LastIndexByte(p, '/'); i > 0; i = strings.LastIndexByte(p[:i], '/') {
		if a := p[:i]; s.changed[a] || s.links[a] {
			return true
		}
	}
	return false
}

// top is the first component of a clean path.
func top(p string) string {
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return p
}
