package relocate

import (
	"context"
	"fmt"
	"strings"

	"github.com/git-memcite/git-memcite/internal/cite"
	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// MentionAnchorer anchors mentions in memory bodies where their words were
// written (cite.Anchorer): the commit that wrote the body line, the cited
// lines there, followed by the tracker to the target like any citation.
type MentionAnchorer struct {
	H      gitblame.History
	T      *gitblame.Tracker
	Head   gitblame.Hash   // the commit the target follows
	Target gitblame.Target // where the lines are looked for now

	bodies map[string][]bodyVersion // memory path → versions, newest first
}

type bodyVersion struct {
	commits []gitblame.Hash // newest first
	lines   map[string]bool
}

var _ cite.Anchorer = (*MentionAnchorer)(nil)

// AnchorMention implements cite.Anchorer.
func (a *MentionAnchorer) AnchorMention(ctx context.Context, memPath, bodyLine, path string, line, end int) (cite.Anchored, error) {
	res := cite.Anchored{Path: path, Line: line, End: end}
	if end == 0 {
		end = line
	}
	written, err := a.writtenAt(memPath, strings.TrimRight(bodyLine, "\r"))
	if err != nil {
		return res, err
	}
	if written.IsZero() {
		// not committed: written against the content it is checked against
		lines, all, ok, err := a.viewLines(path, line, end)
		if err != nil {
			return res, err
		}
		if !ok {
			res.Lost = fmt.Sprintf("%s has no line %d", path, end)
		}
		res.Then, res.File = lines, all
		return res, nil
	}
	res.Commit = written.String()
	c, err := a.H.Commit(written)
	if err != nil {
		return res, err
	}
	blob, ok, err := a.H.Entry(c.Tree, path)
	if err != nil {
		return res, err
	}
	if !ok {
		res.Lost = fmt.Sprintf("%s did not exist in %s, where the sentence was written", path, written.Short())
		return res, nil
	}
	data, err := a.H.Blob(blob)
	if err != nil {
		return res, err
	}
	all := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	if end > len(all) || line < 1 {
		res.Lost = fmt.Sprintf("%s had no line %d in %s, where the sentence was written", path, end, written.Short())
		return res, nil
	}
	res.Then, res.File = all[line-1:end], all
	r, err := a.T.Track(ctx, []gitblame.Anchor{{Path: path, Line: line, LineEnd: end, Base: written}}, a.Target)
	if err != nil {
		return res, err
	}
	switch loc := r[0].Location; {
	case r[0].Status == gitblame.Unchanged || r[0].Status == gitblame.Moved ||
		(r[0].Status == gitblame.Changed && r[0].Similarity >= 0.9):
		res.Path, res.Line, res.End = loc.Path, loc.Line, 0
		if loc.LineEnd > loc.Line {
			res.End = loc.LineEnd
		}
	case r[0].Status == gitblame.Changed:
		res.Lost = fmt.Sprintf("the line it named in %s was edited since", written.Short())
	default:
		res.Lost = fmt.Sprintf("the line it named in %s is %s now", written.Short(), r[0].Status)
	}
	return res, nil
}

// viewLines reads lines of path from the target, and all of its lines.
func (a *MentionAnchorer) viewLines(path string, line, end int) ([]string, []string, bool, error) {
	var data []byte
	if a.Target.View != nil {
		b, err := a.Target.View.ReadFile(path)
		if err != nil {
			return nil, nil, false, nil
		}
		data = b
	} else {
		c, err := a.H.Commit(a.Target.Commit)
		if err != nil {
			return nil, nil, false, err
		}
		blob, ok, err := a.H.Entry(c.Tree, path)
		if err != nil || !ok {
			return nil, nil, false, err
		}
		if data, err = a.H.Blob(blob); err != nil {
			return nil, nil, false, err
		}
	}
	all := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	if line < 1 || end > len(all) {
		return nil, all, false, nil
	}
	return all[line-1 : end], all, true, nil
}

// writtenAt returns the commit that wrote a body line of a memory file:
// the oldest commit of the contiguous run, back from Head along first
// parents, whose version of the file holds the line; zero when Head's
// version does not hold it (written since).
func (a *MentionAnchorer) writtenAt(memPath, bodyLine string) (gitblame.Hash, error) {
	if a.bodies == nil {
		a.bodies = map[string][]bodyVersion{}
	}
	vs, ok := a.bodies[memPath]
	if !ok {
		var err error
		if vs, err = a.loadBodies(memPath); err != nil {
			return gitblame.ZeroHash, err
		}
		a.bodies[memPath] = vs
	}
	var oldest gitblame.Hash
	for _, v := range vs {
		if !v.lines[bodyLine] {
			break
		}
		oldest = v.commits[len(v.commits)-1]
	}
	return oldest, nil
}

func (a *MentionAnchorer) loadBodies(memPath string) ([]bodyVersion, error) {
	var vs []bodyVersion
	c, err := a.H.Commit(a.Head)
	if err != nil {
		return nil, err
	}
	var cur gitblame.Hash
	for c != nil && len(vs) <= maxVersions {
		blob, ok, err := a.H.Entry(c.Tree, memPath)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if len(vs) == 0 || blob != cur {
			data, err := a.H.Blob(blob)
			if err != nil {
				return nil, err
			}
			v := bodyVersion{lines: map[string]bool{}}
			for _, l := range strings.Split(string(data), "\n") {
				v.lines[strings.TrimRight(l, "\r")] = true
			}
			vs = append(vs, v)
			cur = blob
		}
		vs[len(vs)-1].commits = append(vs[len(vs)-1].commits, c.Hash)
		if len(c.Parents) == 0 {
			break
		}
		p, err := a.H.Commit(c.Parents[0])
		if err != nil {
			break // the edge of a shallow clone: the oldest commit seen wrote it
		}
		c = p
	}
	return vs, nil
}
