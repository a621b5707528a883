package hookinstall

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// UninstallAction is what uninstall does, or would do, to one hook.
type UninstallAction string

// Uninstall actions.
const (
	Remove  UninstallAction = "remove"  // our script removed
	Restore UninstallAction = "restore" // our script removed, the moved-aside hook put back
	Absent  UninstallAction = "absent"  // nothing of ours there
	Kept    UninstallAction = "kept"    // someone else's hook, left alone
)

// UninstallHook is the uninstall outcome for one hook.
type UninstallHook struct {
	Name     string
	Path     string
	Action   UninstallAction
	Restored string // for Restore: the file put back in place
	Note     string
}

// UninstallResult lists what uninstall did, or would do.
type UninstallResult struct {
	Repo    Repo
	Hooks   []UninstallHook
	Applied bool // files were removed or moved
}

// Changes reports whether uninstall removes or moves any file.
func (r UninstallResult) Changes() bool {
	for _, h := range r.Hooks {
		if h.Action == Remove || h.Action == Restore {
			return true
		}
	}
	return false
}

// Uninstall removes our hook scripts from the repository containing dir
// and puts back the hooks that install chained (<hook>.memcite-prev) or
// backed up (<hook>.memcite-bak). It never touches a hook without our
// marker, and running it twice is harmless. names nil means every hook.
func Uninstall(ctx context.Context, dir string, names []string, dryRun bool) (UninstallResult, error) {
	repo, err := Locate(ctx, dir)
	if err != nil {
		return UninstallResult{}, err
	}
	names, err = checkNames(names)
	if err != nil {
		return UninstallResult{}, err
	}
	res := UninstallResult{Repo: repo}
	for _, name := range names {
		h, err := planUninstall(repo, name)
		if err != nil {
			return res, err
		}
		res.Hooks = append(res.Hooks, h)
	}
	if dryRun {
		return res, nil
	}
	for _, h := range res.Hooks {
		if h.Action != Remove && h.Action != Restore {
			continue
		}
		if err := os.Remove(h.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return res, fmt.Errorf("remove %s hook: %w", h.Name, err)
		}
		res.Applied = true
		if h.Action == Restore {
			if err := os.Rename(h.Restored, h.Path); err != nil {
				return res, fmt.Errorf("restore %s hook: %w", h.Name, err)
			}
		}
	}
	return res, nil
}

func planUninstall(repo Repo, name string) (UninstallHook, error) {
	path := filepath.Join(repo.HooksDir, name)
	f, err := classify(path, name)
	if err != nil {
		return UninstallHook{}, err
	}
	h := UninstallHook{Name: name, Path: path}
	prev, bak := path+PrevSuffix, path+BackupSuffix
	var saved string
	switch {
	case exists(prev):
		saved = prev
		if exists(bak) {
			h.Note = fmt.Sprintf("%s left in place", bak)
		}
	case exists(bak):
		saved = bak
	}
	switch {
	case f.State.Ours() && saved != "":
		h.Action, h.Restored = Restore, saved
	case f.State.Ours():
		h.Action = Remove
	case f.State == Missing && saved != "":
		// Our script was deleted by hand: still put the old hook back.
		h.Action, h.Restored = Restore, saved
	case f.State == Missing:
		h.Action = Absent
	default:
		h.Action = Kept
		if saved != "" {
			h.Note = fmt.Sprintf("not ours, left alone; %s not restored", saved)
		}
	}
	return h, nil
}
