package hookinstall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/regfile"
	"github.com/git-memcite/git-memcite/internal/yamledit"
)

// Route is how git-memcite is installed into a repository.
type Route string

// Routes. A hook manager regenerates the hooks directory from its own
// configuration, so in a repository it manages git-memcite goes into that
// configuration, which the manager then runs.
const (
	ViaGit       Route = "git"        // our scripts in the hooks directory
	ViaLefthook  Route = "lefthook"   // commands in lefthook.yml, then 'lefthook install'
	ViaHusky     Route = "husky"      // lines in the .husky/<hook> scripts
	ViaPreCommit Route = "pre-commit" // an entry in .pre-commit-config.yaml, then 'pre-commit install'
)

// Routes lists the routes, for flags.
var Routes = []Route{ViaLefthook, ViaHusky, ViaPreCommit, ViaGit}

// Detect returns the hook manager in charge of the repository's hooks and
// what shows it: husky through core.hooksPath, else the manager whose
// script is in the hooks directory, else the one whose configuration
// file is there (a .husky directory counts: husky is not set up in this
// clone yet). ViaGit when there is none; "" with the reason when several
// configurations leave the choice open.
func Detect(repo Repo) (Route, string) {
	if repo.Husky() {
		return ViaHusky, fmt.Sprintf("core.hooksPath is %s (husky)", repo.HooksPath)
	}
	for _, name := range allHookNames {
		p := filepath.Join(repo.HooksDir, name)
		f, err := classify(p, name)
		if err != nil || f.State != Foreign {
			continue
		}
		switch f.Manager {
		case Lefthook:
			return ViaLefthook, fmt.Sprintf("%s is lefthook's", displayPath(repo, p))
		case PreCommit:
			return ViaPreCommit, fmt.Sprintf("%s is pre-commit's", displayPath(repo, p))
		}
	}
	var found []string
	var route Route
	if f := firstExisting(repo.Top, append(slices.Clone(lefthookMain), lefthookLocal...)); f != "" {
		found, route = append(found, f+" (lefthook)"), ViaLefthook
	}
	if f := firstExisting(repo.Top, preCommitConfigs); f != "" {
		found, route = append(found, f+" (pre-commit)"), ViaPreCommit
	}
	if repo.HooksPath == "" && isDir(filepath.Join(repo.Top, ".husky")) {
		found, route = append(found, ".husky/ (husky)"), ViaHusky
	}
	switch len(found) {
	case 0:
		return ViaGit, "no hook manager found"
	case 1:
		return route, found[0] + " exists"
	}
	return "", "several hook managers are configured: " + strings.Join(found, ", ")
}

// Edit is a change to a hook manager's file.
type Edit struct {
	Path   string   // absolute
	Rel    string   // for display
	Hooks  []string // the hooks whose lines it adds or removes
	Create bool     // a new file
	Delete bool     // the file goes (nothing but what install wrote is left)
	Before []byte   // nil for a new file
	After  []byte   // nil when deleted
}

// managerPlan fills in the plan of a manager route: our own scripts to
// take out of the hooks directory first (the manager would otherwise move
// them aside or run them twice), the configuration edits, and the
// manager's install command.
func managerPlan(plan *Plan) error {
	repo, names := plan.Repo, plan.Options.Hooks
	for _, name := range names {
		u, err := planUninstall(repo, name)
		if err != nil {
			return err
		}
		if u.Action == Remove || u.Action == Restore || len(u.Extra) > 0 {
			plan.Cleanup = append(plan.Cleanup, u)
		}
	}
	var err error
	switch plan.Route {
	case ViaLefthook:
		err = lefthookPlan(plan, names)
	case ViaHusky:
		err = huskyPlan(plan, names)
	case ViaPreCommit:
		err = preCommitPlan(plan, names)
	}
	if errors.Is(err, yamledit.ErrUnsupported) {
		plan.Unsupported = err.Error()
		plan.Snippets = snippets(repo, plan.Route.manager(), names, plan.Options.Rev, plan.Options.Local)
		return nil
	}
	return err
}

func (r Route) manager() Manager {
	switch r {
	case ViaLefthook:
		return Lefthook
	case ViaHusky:
		return Husky
	case ViaPreCommit:
		return PreCommit
	}
	return None
}

func lefthookPlan(plan *Plan, names []string) error {
	repo := plan.Repo
	rel := firstExisting(repo.Top, lefthookMain)
	e := Edit{Rel: rel}
	switch {
	case rel == "":
		e.Rel, e.Create = "lefthook.yml", true
	case !strings.HasSuffix(rel, ".yml") && !strings.HasSuffix(rel, ".yaml"):
		return fmt.Errorf("%s: only YAML is edited: %w", rel, yamledit.ErrUnsupported)
	}
	e.Path = filepath.Join(repo.Top, e.Rel)
	src := []byte(lefthookCreatedHeader + "\n")
	if !e.Create {
		b, err := regfile.ReadFile(e.Path)
		if err != nil {
			return err
		}
		src, e.Before = b, b
	}
	out, added, err := lefthookAdd(src, names)
	if err != nil {
		return fmt.Errorf("%s: %w", e.Rel, err)
	}
	if len(added) > 0 {
		e.After, e.Hooks = out, added
		plan.Edits = append(plan.Edits, e)
	}
	plan.Installer = []string{"lefthook", "install"}
	return nil
}

func huskyPlan(plan *Plan, names []string) error {
	repo := plan.Repo
	dir := filepath.Join(repo.Top, ".husky")
	if repo.Husky() {
		dir = huskyScripts(repo)
	}
	for _, name := range names {
		p := filepath.Join(dir, name)
		b, err := regfile.ReadFile(p)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		out, changed := huskyAdd(b, err == nil, name)
		if !changed {
			continue
		}
		e := Edit{Path: p, Rel: displayPath(repo, p), Hooks: []string{name}, Create: err != nil, After: out}
		if err == nil {
			e.Before = b
		}
		plan.Edits = append(plan.Edits, e)
	}
	if !repo.Husky() {
		plan.Notes = append(plan.Notes, "husky is not set up in this clone (core.hooksPath is not .husky/_): run npx husky, or npm install")
	} else if !isDir(repo.HooksDir) {
		plan.Notes = append(plan.Notes, fmt.Sprintf("%s is missing in this worktree: run npx husky, or npm install", displayPath(repo, repo.HooksDir)))
	}
	return nil
}

func preCommitPlan(plan *Plan, names []string) error {
	repo := plan.Repo
	rel := firstExisting(repo.Top, preCommitConfigs)
	e := Edit{Rel: rel}
	if rel == "" {
		e.Rel, e.Create = preCommitConfigs[0], true
	}
	e.Path = filepath.Join(repo.Top, e.Rel)
	src := []byte(preCommitCreatedHeader + "\n")
	if !e.Create {
		b, err := regfile.ReadFile(e.Path)
		if err != nil {
			return err
		}
		src, e.Before = b, b
	}
	out, added, err := preCommitAdd(src, names, RepoURL, plan.Options.Rev, plan.Options.Local)
	if err != nil {
		return fmt.Errorf("%s: %w", e.Rel, err)
	}
	if len(added) > 0 {
		e.After, e.Hooks = out, added
		plan.Edits = append(plan.Edits, e)
	}
	plan.Installer = []string{"pre-commit", "install"}
	for _, n := range names {
		plan.Installer = append(plan.Installer, "-t", n)
	}
	return nil
}

// applyManager carries out a manager plan: takes our scripts out of the
// hooks directory, writes the edits, runs the manager's installer and
// records the hook files the installer created, so that uninstall can
// remove them again.
func applyManager(ctx context.Context, plan *Plan) error {
	if err := applyUninstall(plan.Cleanup); err != nil {
		return err
	}
	for _, e := range plan.Edits {
		if err := writeEdit(e); err != nil {
			return err
		}
		plan.Applied = true
	}
	if err := recordInstalled(plan.Repo, plan.Options.Hooks); err != nil {
		return err
	}
	if len(plan.Installer) == 0 {
		return nil
	}
	repo := plan.Repo
	bin, ok := gitrepo.LookProgram(plan.Installer[0], filepath.Join(repo.Top, "node_modules", ".bin"))
	if !ok {
		plan.InstallerErr = fmt.Sprintf("%s is not on PATH: run %s yourself", plan.Installer[0], strings.Join(plan.Installer, " "))
		return nil
	}
	before := map[string]bool{}
	for _, n := range allHookNames {
		before[n] = exists(filepath.Join(repo.HooksDir, n))
	}
	out, err := gitrepo.Program(ctx, repo.Top, bin, plan.Installer[1:]...)
	plan.InstallerOut, plan.InstallerRan = out, true
	if err != nil {
		plan.InstallerErr = err.Error()
	}
	rec, err := readRecord(repo)
	if err != nil {
		return err
	}
	for _, n := range allHookNames {
		p := filepath.Join(repo.HooksDir, n)
		if !before[n] && exists(p) {
			rec.Created[p] = plan.Route.manager()
		}
	}
	return writeRecord(repo, rec)
}

// recordInstalled adds the hooks names of the repository's hooks
// directory to those the record says git-memcite was installed at.
func recordInstalled(repo Repo, names []string) error {
	rec, err := readRecord(repo)
	if err != nil {
		return err
	}
	n := len(rec.Installed)
	for _, name := range names {
		if p := filepath.Join(repo.HooksDir, name); !slices.Contains(rec.Installed, p) {
			rec.Installed = append(rec.Installed, p)
		}
	}
	if len(rec.Installed) == n {
		return nil
	}
	slices.Sort(rec.Installed)
	return writeRecord(repo, rec)
}

// writeEdit writes one edit atomically, keeping the file's mode (0644 for
// a new configuration, 0755 for a new husky script), or deletes the file.
func writeEdit(e Edit) error {
	if e.Delete {
		if err := os.Remove(e.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", e.Rel, err)
		}
		return nil
	}
	mode := os.FileMode(0o644)
	if info, err := os.Stat(e.Path); err == nil {
		mode = info.Mode().Perm()
	} else if filepath.Base(filepath.Dir(e.Path)) == ".husky" {
		mode = 0o755
	}
	if err := os.MkdirAll(filepath.Dir(e.Path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", e.Rel, err)
	}
	if err := writeFileAtomic(e.Path, e.After, mode); err != nil {
		return fmt.Errorf("write %s: %w", e.Rel, err)
	}
	return nil
}

// record lists the hook files a manager's installer created for
// git-memcite, in the common git directory (hooks are shared by the
// worktrees).
type record struct {
	Created map[string]Manager `json:"created"` // hook file → the manager whose script it is
	// Installed are the hook files (absolute paths: each hooks directory
	// has its own) install put git-memcite at, by any route: status
	// expects it to run there until uninstall takes it out.
	Installed []string `json:"installed,omitempty"`
}

func recordPath(repo Repo) string { return filepath.Join(repo.CommonDir, "memcite-hooks.json") }

func readRecord(repo Repo) (record, error) {
	rec := record{Created: map[string]Manager{}}
	b, err := regfile.ReadFile(recordPath(repo))
	if errors.Is(err, fs.ErrNotExist) {
		return rec, nil
	}
	if err != nil {
		return rec, err
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		return record{Created: map[string]Manager{}}, nil // unreadable: forget it
	}
	if rec.Created == nil {
		rec.Created = map[string]Manager{}
	}
	return rec, nil
}

func writeRecord(repo Repo, rec record) error {
	if len(rec.Created) == 0 && len(rec.Installed) == 0 {
		if err := os.Remove(recordPath(repo)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(recordPath(repo), append(b, '\n'), 0o644)
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

// ParseRoute reads a --via value.
func ParseRoute(s string) (Route, error) {
	for _, r := range Routes {
		if string(r) == s {
			return r, nil
		}
	}
	return "", fmt.Errorf("--via must be one of lefthook, husky, pre-commit, git (got %q)", s)
}

// AddedLines returns the lines of after that are not in before, for an
// edit that only inserts lines (and, swapped, one that only removes them).
func AddedLines(before, after []byte) []string {
	b, a := yamledit.SplitText(before).Lines, yamledit.SplitText(after).Lines
	var out []string
	i := 0
	for _, l := range a {
		if i < len(b) && yamledit.TrimEOL(b[i]) == yamledit.TrimEOL(l) {
			i++
			continue
		}
		out = append(out, yamledit.TrimEOL(l))
	}
	return out
}
