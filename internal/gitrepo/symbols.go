package gitrepo

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// WordChangedIn returns the newest first-parent commit in from..head whose
// diff adds or removes a line with word, as a whole word, in the files
// matching pathspecs (git log -G'\bword\b' -- pathspecs): for a name that
// is gone from those files now, the commit that removed its last
// occurrence. Zero when none did. Naming the few files that held the word
// keeps git from diffing the whole history.
func (h *History) WordChangedIn(ctx context.Context, from, head gitblame.Hash, word string, pathspecs []string) (gitblame.Hash, error) {
	args := []string{"log", "--first-parent", "-1", "--format=%H", "-G", `\b` + regexpQuote(word) + `\b`, from.String() + ".." + head.String(), "--"}
	args = append(args, pathspecs...)
	out, err := h.repo.cmd().Run(ctx, args...)
	if err != nil {
		return gitblame.ZeroHash, fmt.Errorf("log -G %s: %w", word, err)
	}
	s := strings.TrimSpace(string(out))
	if s == "" {
		return gitblame.ZeroHash, nil
	}
	return gitblame.ParseHash(s)
}

// CommitChanges lists the files commit changed against its first parent
// (every file of a root commit), renames paired: what git log -1
// --first-parent -M --raw lists, asked of the history's long-running git
// diff-tree (no process a commit). When git cannot pair renames for want
// of a blob (a partial clone, a snapshot without its large files), the
// changes are listed without rename detection and exact renames (the
// same blob deleted and added) are paired by their ids.
func (h *History) CommitChanges(ctx context.Context, commit gitblame.Hash) ([]FileChange, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c, err := h.commitObject(commit)
	if err != nil {
		return nil, fmt.Errorf("changes of %s: %w", commit.Short(), err)
	}
	from := h.emptyTree
	if len(c.Parents) > 0 {
		p, err := h.commitObject(c.Parents[0])
		if err != nil {
			return nil, fmt.Errorf("changes of %s: %w", commit.Short(), err)
		}
		from = p.Tree.String()
	}
	recs, err := h.diffs[true].diff(from, c.Tree.String())
	if err != nil {
		var err2 error
		if recs, err2 = h.diffs[false].diff(from, c.Tree.String()); err2 != nil {
			return nil, fmt.Errorf("changes of %s: %w", commit.Short(), err)
		}
		return pairExact(changesOf(recs)), nil
	}
	return changesOf(recs), nil
}

// commitObject reads a commit without the history's cache of commits (a
// map for one goroutine): CommitChanges is asked from several at once.
func (h *History) commitObject(commit gitblame.Hash) (*gitblame.Commit, error) {
	data, err := h.object(commit, "commit")
	if err != nil {
		return nil, err
	}
	return parseCommit(commit, data)
}

// changesOf reads diff-tree's records as FileChanges, as parsePathLog
// reads git log --raw.
func changesOf(recs []rawChange) []FileChange {
	out := make([]FileChange, 0, len(recs))
	for _, r := range recs {
		ch := FileChange{Status: r.status}
		switch r.status {
		case 'R', 'C':
			ch.From, ch.To, ch.FromBlob, ch.ToBlob = r.src, r.dst, r.srcHash, r.dstHash
		case 'A':
			ch.To, ch.ToBlob = r.dst, r.dstHash
		case 'D':
			ch.From, ch.FromBlob = r.dst, r.srcHash
		default:
			ch.From, ch.To, ch.FromBlob, ch.ToBlob = r.dst, r.dst, r.srcHash, r.dstHash
		}
		out = append(out, ch)
	}
	return out
}

// pairExact pairs each deleted file with a file added with the same blob
// (one of the same base name first), as an exact rename listed where the
// deletion was.
func pairExact(chs []FileChange) []FileChange {
	added := map[gitblame.Hash][]int{}
	for i, ch := range chs {
		if ch.Status == 'A' {
			added[ch.ToBlob] = append(added[ch.ToBlob], i)
		}
	}
	to := map[int]int{} // a deletion → the addition it pairs with
	used := map[int]bool{}
	for i, ch := range chs {
		if ch.Status != 'D' {
			continue
		}
		pick := -1
		for _, k := range added[ch.FromBlob] {
			if used[k] {
				continue
			}
			if pick < 0 || path.Base(chs[k].To) == path.Base(ch.From) && path.Base(chs[pick].To) != path.Base(ch.From) {
				pick = k
			}
		}
		if pick >= 0 {
			used[pick], to[i] = true, pick
		}
	}
	out := make([]FileChange, 0, len(chs)-len(used))
	for i, ch := range chs {
		if used[i] {
			continue // listed as the rename
		}
		if k, ok := to[i]; ok {
			ch = FileChange{Status: 'R', From: ch.From, To: chs[k].To, FromBlob: ch.FromBlob, ToBlob: chs[k].ToBlob}
		}
		out = append(out, ch)
	}
	return out
}

// GrepWordFiles reports, for each of names that occurs as a whole word in
// the files of commit's tree matching pathspecs, the files it occurs in
// (git grep -w -F -o); one git process for every name.
func (h *History) GrepWordFiles(ctx context.Context, commit gitblame.Hash, names, pathspecs []string) (map[string][]string, error) {
	found := map[string][]string{}
	if len(names) == 0 {
		return found, nil
	}
	args := []string{"grep", "-I", "-w", "-F", "-o", "--no-color", "--full-name"}
	for _, n := range names {
		args = append(args, "-e", n)
	}
	args = append(args, commit.String(), "--")
	args = append(args, pathspecs...)
	out, err := h.repo.cmd().Run(ctx, args...)
	if err != nil && ExitCode(err) != 1 { // 1: nothing found
		return nil, fmt.Errorf("grep in %s: %w", commit.Short(), err)
	}
	return parseGrepWordFiles(string(out), commit.String()+":"), nil
}

// parseGrepWordFiles reads "<commit>:<path>:<word>" lines.
func parseGrepWordFiles(out, prefix string) map[string][]string {
	found := map[string][]string{}
	seen := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimPrefix(l, prefix)
		i := strings.LastIndexByte(l, ':')
		if i <= 0 || i == len(l)-1 {
			continue
		}
		p, w := l[:i], l[i+1:]
		if k := w + "\x00" + p; !seen[k] {
			seen[k] = true
			found[w] = append(found[w], p)
		}
	}
	return found
}
