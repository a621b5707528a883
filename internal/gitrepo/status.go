package gitrepo

import (
	"context"
	"strings"
	"sync"
)

// WorktreeChanges are the paths where the working tree differs from HEAD,
// as `git status` reports them.
type WorktreeChanges struct {
	// Tracked: modified, added to the index, deleted, renamed (as the
	// deletion of one path and the addition of another).
	Tracked map[string]bool
	// Untracked: files the index does not hold (ignored ones are not
	// listed).
	Untracked map[string]bool
}

// Changed runs git status on the working tree. Submodules are not looked
// into. The index is not refreshed (git runs with GIT_OPTIONAL_LOCKS=0),
// so nothing is written.
func (r *Repo) Changed(ctx context.Context) (WorktreeChanges, error) {
	out, err := r.Run(ctx, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--ignore-submodules=all")
	if err != nil {
		return WorktreeChanges{}, err
	}
	ch := WorktreeChanges{Tracked: map[string]bool{}, Untracked: map[string]bool{}}
	for _, rec := range strings.Split(out, "\x00") {
		if len(rec) <= 3 { // "XY path"
			continue
		}
		if rec[:2] == "??" {
			ch.Untracked[rec[3:]] = true
		} else {
			ch.Tracked[rec[3:]] = true
		}
	}
	return ch, nil
}

// ChangedOnce returns gitblame.Target.Changed for the working tree: the
// paths git status names (tracked changes and untracked files) and also,
// when asked, the paths in extra (cited files git may ignore). git status
// runs once, on the first call, if the tracker asks at all.
func (r *Repo) ChangedOnce(ctx context.Context, extra map[string]bool) func() (map[string]bool, error) {
	var once sync.Once
	var ch WorktreeChanges
	var err error
	return func() (map[string]bool, error) {
		once.Do(func() { ch, err = r.Changed(ctx) })
		if err != nil {
			return nil, err
		}
		out := make(map[string]bool, len(ch.Tracked)+len(ch.Untracked)+len(extra))
		for _, set := range []map[string]bool{ch.Tracked, ch.Untracked, extra} {
			for p := range set {
				out[p] = true
			}
		}
		return out, nil
	}
}
