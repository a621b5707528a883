package gitrepo

import (
	"context"
	"fmt"
	"strings"

	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// WordChangedIn returns the newest first-parent commit in from..head that
// changed how often word occurs as a whole word in the files matching
// pathspecs (git log -S'\bword\b' --pickaxe-regex): for a name that is
// gone from those files now, the commit that removed its last
// occurrence. Zero when none did.
func (h *History) WordChangedIn(ctx context.Context, from, head gitblame.Hash, word string, pathspecs []string) (gitblame.Hash, error) {
	args := []string{"log", "--first-parent", "-1", "--format=%H", "--pickaxe-regex", "-S", `\b` + regexpQuote(word) + `\b`, from.String() + ".." + head.String(), "--"}
	args = append(args, pathspecs...)
	out, err := h.repo.cmd().Run(ctx, args...)
	if err != nil {
		return gitblame.ZeroHash, fmt.Errorf("log -S %s: %w", word, err)
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
