package gitrepo

import (
	"context"
	"fmt"
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
// (every file of a root commit), renames paired.
func (h *History) CommitChanges(ctx context.Context, commit gitblame.Hash) ([]FileChange, error) {
	out, err := h.repo.cmd().Run(ctx, "log", "-1", "--first-parent", "-M", "--raw", "-z", "--no-abbrev", "--no-color", "--format=%x01%H", commit.String())
	if err != nil {
		return nil, fmt.Errorf("changes of %s: %w", commit.Short(), err)
	}
	log, err := parsePathLog(out)
	if err != nil || len(log) == 0 {
		return nil, err
	}
	return log[0].Changes, nil
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
