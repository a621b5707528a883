package hookinstall

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-memcite/git-memcite/hooks"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/regfile"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/yamledit"
	"go.yaml.in/yaml/v3"
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
	// Extra are files removed besides: copies of our script a hook
	// manager moved aside (<hook>.old, <hook>.legacy), and a
	// <hook>.memcite-prev the manager has since written again as <hook>.
	Extra []string
	Note  string
}

// UninstallOptions say what uninstall takes out.
type UninstallOptions struct {
	Hooks  []string // nil: every hook, and git-memcite's own files in the git directory
	DryRun bool     // plan only
	// Yes also edits the hook managers' files git tracks (lefthook.yml,
	// .pre-commit-config.yaml, .husky/<hook>): they run git-memcite for
	// everyone who clones the repository, not only in this clone.
	Yes bool
}

// UninstallResult lists what uninstall did, or would do.
type UninstallResult struct {
	Repo  Repo
	Hooks []UninstallHook
	// Edits take git-memcite out of the hook managers' files.
	Edits []Edit
	// Tracked are the edits left undone because git tracks the file (and
	// UninstallOptions.Yes was not given): git-memcite still runs from
	// them, for this clone and every other.
	Tracked []Edit
	// GitDirs are git-memcite's own directories in the git directory (the
	// verification cache, the temporary directory of rewrites), removed by
	// an uninstall of every hook.
	GitDirs []string
	// Removed are hook files a manager's installer created for
	// git-memcite (recorded by install) that nothing needs any more.
	Removed []string
	Notes   []string
	Applied bool // files were removed or moved
}

// Changes reports whether uninstall removes or moves any file.
func (r UninstallResult) Changes() bool {
	if len(r.Edits) > 0 || len(r.Removed) > 0 || len(r.GitDirs) > 0 {
		return true
	}
	for _, h := range r.Hooks {
		if h.Action == Remove || h.Action == Restore || len(h.Extra) > 0 {
			return true
		}
	}
	return false
}

// Uninstall removes git-memcite from the repository containing dir,
// wherever install put it: our hook scripts (putting back the hooks that
// install chained, <hook>.memcite-prev, or backed up, <hook>.memcite-bak,
// and removing copies of ours a manager moved aside), our lines in
// lefthook's, husky's and pre-commit's files, and the hook files their
// installers created for it. What install added is removed exactly, so a
// file install edited is given back byte for byte. It never touches a hook
// without our marker, and running it twice is harmless.
//
// Uninstalling in one clone does not uninstall for the team: a manager's
// file that git tracks is edited only with opts.Yes; without it the edit
// is listed in Tracked and left undone. An uninstall of every hook also
// removes git-memcite's own files in the git directory.
func Uninstall(ctx context.Context, dir string, opts UninstallOptions) (UninstallResult, error) {
	repo, err := Locate(ctx, dir)
	if err != nil {
		return UninstallResult{}, err
	}
	names, dryRun := opts.Hooks, opts.DryRun
	all := names == nil
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
	if err := uninstallEdits(repo, names, all, &res); err != nil {
		return res, err
	}
	if !opts.Yes && len(res.Edits) > 0 {
		if err := keepTracked(ctx, repo, &res); err != nil {
			return res, err
		}
	}
	rec, err := readRecord(repo)
	if err != nil {
		return res, err
	}
	for p, m := range rec.Created {
		name := filepath.Base(p)
		if !slices.Contains(names, name) {
			continue
		}
		if f, err := classify(p, name); err != nil || f.State != Foreign || f.Manager != m || stillConfigured(repo, m, name, res.Edits) {
			delete(rec.Created, p)
			continue
		}
		res.Removed = append(res.Removed, p)
	}
	slices.Sort(res.Removed)
	rec.Installed = slices.DeleteFunc(rec.Installed, func(p string) bool {
		return filepath.Dir(p) == repo.HooksDir && slices.Contains(names, filepath.Base(p))
	})
	if all {
		for _, p := range ownGitFiles(repo) {
			if _, err := os.Lstat(p); err == nil {
				res.GitDirs = append(res.GitDirs, p)
			}
		}
	}
	if dryRun {
		return res, nil
	}
	if err := applyUninstall(res.Hooks); err != nil {
		return res, err
	}
	for _, e := range res.Edits {
		if err := writeEdit(e); err != nil {
			return res, err
		}
	}
	for _, p := range res.Removed {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return res, fmt.Errorf("remove %s: %w", p, err)
		}
		delete(rec.Created, p)
	}
	if err := writeRecord(repo, rec); err != nil {
		return res, err
	}
	for _, p := range res.GitDirs {
		if err := os.RemoveAll(p); err != nil {
			return res, fmt.Errorf("remove %s: %w", p, err)
		}
	}
	res.Applied = res.Changes()
	return res, nil
}

// keepTracked moves the edits of files git tracks from res.Edits to
// res.Tracked.
func keepTracked(ctx context.Context, repo Repo, res *UninstallResult) error {
	var paths []string
	for _, e := range res.Edits {
		paths = append(paths, e.Path)
	}
	tracked, err := Tracked(ctx, repo.Top, paths)
	if err != nil {
		return err
	}
	var edits []Edit
	for _, e := range res.Edits {
		if tracked[e.Path] {
			res.Tracked = append(res.Tracked, e)
		} else {
			edits = append(edits, e)
		}
	}
	res.Edits = edits
	return nil
}

// Tracked reports which of paths (absolute, in the working tree at top)
// git tracks: files shared with every clone, which uninstalling in one
// clone must not edit unasked.
func Tracked(ctx context.Context, top string, paths []string) (map[string]bool, error) {
	tracked := map[string]bool{}
	if len(paths) == 0 {
		return tracked, nil
	}
	args := []string{"ls-files", "-z", "--full-name", "--"}
	for _, p := range paths {
		rel, err := filepath.Rel(top, p)
		if err != nil {
			return nil, err
		}
		args = append(args, ":(literal)"+filepath.ToSlash(rel))
	}
	out, err := git(ctx, top, args...)
	if err != nil {
		return nil, fmt.Errorf("which files git tracks: %w", err)
	}
	for _, p := range strings.Split(out, "\x00") {
		if p != "" {
			tracked[filepath.Join(top, filepath.FromSlash(p))] = true
		}
	}
	return tracked, nil
}

// ownGitFiles are the directories git-memcite keeps in this worktree's
// git directory: the verification cache and the temporary directory of
// rewrites. (The install record goes when it lists nothing more.)
func ownGitFiles(repo Repo) []string {
	return []string{vcache.Dir(repo.GitDir), gitrepo.TempDirOf(repo.GitDir)}
}

// applyUninstall removes our scripts and puts back what they replaced.
func applyUninstall(hs []UninstallHook) error {
	for _, h := range hs {
		for _, p := range h.Extra {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("remove %s: %w", p, err)
			}
		}
		if h.Action != Remove && h.Action != Restore {
			continue
		}
		if err := os.Remove(h.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s hook: %w", h.Name, err)
		}
		if h.Action == Restore {
			if err := os.Rename(h.Restored, h.Path); err != nil {
				return fmt.Errorf("restore %s hook: %w", h.Name, err)
			}
		}
	}
	return nil
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
	case saved != "" && f.State == Foreign && f.Manager != None && sameManager(saved, name, f.Manager):
		// the manager wrote its hook again over ours (and moved ours
		// aside): the copy install kept is stale
		h.Action, h.Extra = Kept, append(h.Extra, saved)
	default:
		h.Action = Kept
		if saved != "" {
			h.Note = fmt.Sprintf("not ours, left alone; %s not restored", saved)
		}
	}
	for _, suffix := range []string{".old", ".legacy"} {
		if b, err := regfile.ReadFile(path + suffix); err == nil {
			if _, ours := hooks.Marker(b); ours {
				h.Extra = append(h.Extra, path+suffix)
			}
		}
	}
	return h, nil
}

// sameManager reports whether the file at p is a hook script of m.
func sameManager(p, name string, m Manager) bool {
	f, err := classify(p, name)
	return err == nil && f.State == Foreign && f.Manager == m
}

// uninstallEdits plans taking our lines out of the managers' files.
func uninstallEdits(repo Repo, names []string, all bool, res *UninstallResult) error {
	for _, rel := range []string{firstExisting(repo.Top, lefthookMain), firstExisting(repo.Top, lefthookLocal)} {
		if rel == "" || !(strings.HasSuffix(rel, ".yml") || strings.HasSuffix(rel, ".yaml")) {
			continue
		}
		p := filepath.Join(repo.Top, rel)
		b, err := regfile.ReadFile(p)
		if err != nil {
			return err
		}
		out, removed, kept, err := lefthookRemoveHooks(b, names)
		if err != nil {
			res.Notes = append(res.Notes, fmt.Sprintf("%s left alone: %v", rel, err))
			continue
		}
		for _, h := range kept {
			res.Notes = append(res.Notes, fmt.Sprintf("%s: the memcite command of %s was changed by hand; left in place", rel, h))
		}
		if len(removed) > 0 {
			res.Edits = append(res.Edits, endEdit(Edit{Path: p, Rel: rel, Hooks: removed, Before: b, After: out}, lefthookCreatedHeader))
		}
	}
	dirs := []string{filepath.Join(repo.Top, ".husky")}
	if repo.Husky() && huskyScripts(repo) != dirs[0] {
		dirs = append(dirs, huskyScripts(repo))
	}
	for _, d := range dirs {
		for _, name := range names {
			p := filepath.Join(d, name)
			b, err := regfile.ReadFile(p)
			if err != nil {
				continue
			}
			out, removed, del := huskyRemove(b, name)
			if removed {
				res.Edits = append(res.Edits, Edit{Path: p, Rel: displayPath(repo, p), Hooks: []string{name}, Before: b, After: out, Delete: del})
			}
		}
	}
	if rel := firstExisting(repo.Top, preCommitConfigs); rel != "" {
		p := filepath.Join(repo.Top, rel)
		b, err := regfile.ReadFile(p)
		if err != nil {
			return err
		}
		out, ids, err := preCommitRemove(b)
		switch {
		case err != nil:
			res.Notes = append(res.Notes, fmt.Sprintf("%s left alone: %v", rel, err))
		case len(ids) > 0 && !all:
			res.Notes = append(res.Notes, fmt.Sprintf("%s: the git-memcite entry is removed by uninstall without --hooks", rel))
		case len(ids) > 0:
			res.Edits = append(res.Edits, endEdit(Edit{Path: p, Rel: rel, Hooks: ids, Before: b, After: out}, preCommitCreatedHeader))
		}
	}
	return nil
}

// endEdit turns an edit that leaves nothing but the header install wrote
// into a new file into the deletion of that file.
func endEdit(e Edit, header string) Edit {
	if string(e.After) == header+"\n" {
		e.After, e.Delete = nil, true
	}
	return e
}

// stillConfigured reports whether a manager's configuration, once edited,
// still gives the hook something to run, so that the hook file its
// installer created must stay.
func stillConfigured(repo Repo, m Manager, name string, edits []Edit) bool {
	content := func(rel string) []byte {
		for _, e := range edits {
			if e.Rel == rel {
				return e.After
			}
		}
		b, _ := regfile.ReadFile(filepath.Join(repo.Top, rel))
		return b
	}
	switch m {
	case Lefthook:
		for _, rel := range []string{firstExisting(repo.Top, lefthookMain), firstExisting(repo.Top, lefthookLocal)} {
			if root, err := yamledit.ParseMapping(content(rel)); rel != "" && (err != nil || root != nil && hasKey(root, name)) {
				return true
			}
		}
	case PreCommit:
		rel := firstExisting(repo.Top, preCommitConfigs)
		root, err := yamledit.ParseMapping(content(rel))
		if err != nil {
			return true
		}
		if slices.Contains(stagesOf(root, "default_install_hook_types"), name) {
			return true
		}
		_, repos := yamledit.Lookup(root, "repos")
		if repos != nil {
			for _, r := range repos.Content {
				if _, hs := yamledit.Lookup(r, "hooks"); hs != nil {
					for _, h := range hs.Content {
						if anyIn(stageNames(name), stagesOf(h, "stages")) {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

func hasKey(m *yaml.Node, key string) bool {
	k, _ := yamledit.Lookup(m, key)
	return k != nil
}
