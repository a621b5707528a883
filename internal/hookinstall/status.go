package hookinstall

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-memcite/git-memcite/hooks"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/regfile"
	"go.yaml.in/yaml/v3"
)

// HookStatus describes one hook: what its file is, and whether
// git-memcite actually runs when git runs the hook.
type HookStatus struct {
	Name    string
	Path    string
	State   State
	Version int     // marker version of our script
	Manager Manager // for a foreign hook
	Calls   bool    // a foreign hook that runs git-memcite itself
	Chained string  // <hook>.memcite-prev, when present
	Backup  string  // <hook>.memcite-bak, when present

	// Runs: git-memcite runs when git runs this hook, following our
	// script, or the hook manager's script and its configuration (husky's
	// scripts, lefthook.yml and lefthook-local.yml, .pre-commit-config.yaml
	// and the <hook>.legacy file pre-commit runs first).
	Runs bool
	// Via says what runs it ("git-memcite's script", "lefthook:
	// lefthook.yml pre-commit.commands.memcite", …); Why, when it does
	// not run, says why and what to do.
	Via string
	Why string
	// Expected: git-memcite should run at this hook: the hook was asked
	// for, install put it there (and uninstall has not taken it out), or
	// something of an installation is there (our script or the copy a
	// manager moved aside, a configuration naming git-memcite).
	Expected bool
	// Problems are broken setups even where git-memcite runs, such as a
	// husky script that no longer runs; Notes are remarks.
	Problems []string
	Notes    []string

	trace bool // something of git-memcite is there for this hook
}

// Status describes the hooks of a repository.
type Status struct {
	Repo  Repo
	Hooks []HookStatus
	// Found: something of git-memcite is there for one of the hooks (our
	// script, a copy of it, a manager configuration naming git-memcite),
	// or install's record names a hook.
	Found bool
}

// Installed reports whether git-memcite runs at one hook at least.
func (s Status) Installed() bool {
	for _, h := range s.Hooks {
		if h.Runs {
			return true
		}
	}
	return false
}

// Outdated reports whether any installed script of ours differs from the
// current one.
func (s Status) Outdated() bool {
	for _, h := range s.Hooks {
		if h.State == Outdated {
			return true
		}
	}
	return false
}

// NotRunning lists the expected hooks at which git-memcite would not run.
func (s Status) NotRunning() []HookStatus {
	var out []HookStatus
	for _, h := range s.Hooks {
		if h.Expected && !h.Runs {
			out = append(out, h)
		}
	}
	return out
}

// Broken lists the hooks with problems.
func (s Status) Broken() []HookStatus {
	var out []HookStatus
	for _, h := range s.Hooks {
		if len(h.Problems) > 0 {
			out = append(out, h)
		}
	}
	return out
}

// OK reports whether git-memcite runs at every expected hook, through
// current scripts, with nothing broken. A repository where git-memcite
// was never installed (or was uninstalled) is OK: nothing is expected.
func (s Status) OK() bool {
	return len(s.NotRunning()) == 0 && !s.Outdated() && len(s.Broken()) == 0
}

// GetStatus inspects the hooks of the repository containing dir. names
// nil means every hook git-memcite provides, and then the hooks expected
// to run it are those install put it at (its record, until uninstall) and
// those where something of an installation is found; none when nothing
// is.
func GetStatus(ctx context.Context, dir string, names []string) (Status, error) {
	repo, err := Locate(ctx, dir)
	if err != nil {
		return Status{}, err
	}
	asked := names != nil
	names, err = checkNames(names)
	if err != nil {
		return Status{}, err
	}
	st := Status{Repo: repo}
	traces := false
	for _, name := range names {
		h, err := hookStatus(repo, name)
		if err != nil {
			return st, err
		}
		traces = traces || h.trace
		st.Hooks = append(st.Hooks, h)
	}
	rec, err := readRecord(repo)
	if err != nil {
		return st, err
	}
	for i, h := range st.Hooks {
		recorded := slices.Contains(rec.Installed, h.Path)
		st.Hooks[i].Expected = asked || h.trace || recorded
		traces = traces || recorded
	}
	st.Found = traces
	return st, nil
}

// hookStatus works out whether git-memcite runs when git runs the hook.
func hookStatus(repo Repo, name string) (HookStatus, error) {
	path := filepath.Join(repo.HooksDir, name)
	f, err := classify(path, name)
	if err != nil {
		return HookStatus{}, err
	}
	h := HookStatus{Name: name, Path: path, State: f.State, Version: f.Version, Manager: f.Manager, Calls: f.Calls}
	if exists(path + PrevSuffix) {
		h.Chained = path + PrevSuffix
	}
	if exists(path + BackupSuffix) {
		h.Backup = path + BackupSuffix
	}
	executable := isExecutable(path)
	switch {
	case f.State.Ours():
		h.trace = true
		h.Runs, h.Via = executable, "git-memcite's hook script"
		if !executable {
			h.Why = "git-memcite's script is not executable, so git skips it: run git memcite install"
		}
		if repo.Husky() {
			h.Problems = append(h.Problems, fmt.Sprintf("git-memcite's script took the place of husky's %s stub, so husky's own %s script no longer runs: run git memcite uninstall, then git memcite install --via husky",
				name, displayPath(repo, filepath.Join(huskyScripts(repo), name))))
		}
	case f.State == Missing:
		h.Why = fmt.Sprintf("there is no %s hook in %s", name, displayPath(repo, repo.HooksDir))
	case f.State == Empty || f.State == Sample:
		h.Why = fmt.Sprintf("the %s hook is %s", name, f.State)
	case !executable:
		h.Why = fmt.Sprintf("the %s hook is not executable, so git skips it", name)
	case repo.Husky():
		huskyStatus(repo, name, &h)
	case f.Manager == Lefthook:
		lefthookStatus(repo, name, &h)
	case f.Manager == PreCommit:
		preCommitStatus(repo, name, path, &h)
	default:
		content, _ := regfile.ReadFile(path)
		if where, note := huskyScriptRuns(content, name); where != "" {
			h.Runs, h.Via, h.trace = true, "the hook script: "+where, true
			addNote(&h, note)
		} else {
			h.Why = fmt.Sprintf("the %s hook is %s and does not run git-memcite", name, describe(f))
		}
	}
	if h.State == Missing || h.State == Empty || h.State == Sample {
		configuredButNotInstalled(repo, name, &h)
	}
	leftBehind(repo, name, path, &h)
	return h, nil
}

// describe names the owner of a foreign hook file.
func describe(f hookFile) string {
	if f.Manager == None {
		return "someone else's script"
	}
	return string(f.Manager) + "'s script"
}

func addNote(h *HookStatus, note string) {
	if note != "" {
		h.Notes = append(h.Notes, note)
	}
}

// huskyStatus follows husky: the stub in the hooks directory runs the
// user's script of the same name in the husky directory.
func huskyStatus(repo Repo, name string, h *HookStatus) {
	script := filepath.Join(huskyScripts(repo), name)
	rel := displayPath(repo, script)
	b, err := regfile.ReadFile(script)
	if err != nil {
		h.Why = fmt.Sprintf("husky runs %s, which does not exist", rel)
		return
	}
	where, note := huskyScriptRuns(b, name)
	if where == "" {
		h.Why = fmt.Sprintf("husky runs %s, which does not run git-memcite", rel)
		return
	}
	h.Runs, h.Via, h.trace = true, "husky: "+rel, true
	addNote(h, note)
}

// lefthookStatus follows lefthook: its script runs the commands the
// configuration (main, with the local file merged over it) gives the
// hook.
func lefthookStatus(repo Repo, name string, h *HookStatus) {
	main, local := firstExisting(repo.Top, lefthookMain), firstExisting(repo.Top, lefthookLocal)
	files := strings.Trim(main+", "+local, ", ")
	if files == "" {
		h.Why = "lefthook runs the hook, but there is no lefthook configuration file"
		return
	}
	mn, err := readYAMLFile(repo.Top, main)
	var ln *yaml.Node
	if err == nil {
		ln, err = readYAMLFile(repo.Top, local)
	}
	if err != nil {
		h.Why = fmt.Sprintf("cannot read the lefthook configuration: %v", err)
		return
	}
	where, note := lefthookHookRuns(mn, ln, name)
	if where == "" {
		h.Why = fmt.Sprintf("lefthook runs the %s hook, but %s has no git-memcite command for it", name, files)
		if note != "" {
			h.Why, h.trace = note, true
		}
		return
	}
	h.Runs, h.Via, h.trace = true, fmt.Sprintf("lefthook: %s %s.%s", files, name, where), true
	addNote(h, note)
	if _, ok := gitrepo.LookProgram("lefthook", filepath.Join(repo.Top, "node_modules", ".bin")); !ok {
		h.Notes = append(h.Notes, "lefthook is not on PATH here: its hook lets every commit through unchecked when it cannot find lefthook")
	}
}

// preCommitStatus follows the pre-commit framework: its script runs the
// configuration's hooks for the stage, after <hook>.legacy.
func preCommitStatus(repo Repo, name, path string, h *HookStatus) {
	script, _ := regfile.ReadFile(path)
	cfg := preCommitConfigOf(script)
	root, err := readYAMLFile(repo.Top, cfg)
	switch {
	case err != nil:
		h.Why = fmt.Sprintf("cannot read %s: %v", cfg, err)
	case root == nil && !exists(filepath.Join(repo.Top, cfg)):
		h.Why = fmt.Sprintf("pre-commit runs the %s hook, but %s does not exist", name, cfg)
	default:
		if where, note := preCommitHookRuns(root, name); where != "" {
			h.Runs, h.Via, h.trace = true, fmt.Sprintf("pre-commit: %s %s", cfg, where), true
			addNote(h, note)
			if _, ok := gitrepo.LookProgram("pre-commit"); !ok && !installPython(script) {
				h.Notes = append(h.Notes, "pre-commit is not on PATH here, nor the Python its hook names: the hook fails every commit")
			}
		} else {
			h.Why = fmt.Sprintf("pre-commit runs the %s hook, but %s has no git-memcite hook for that stage", name, cfg)
		}
	}
	legacy := path + ".legacy"
	if b, err := regfile.ReadFile(legacy); err == nil && isExecutable(legacy) {
		_, ours := hooks.Marker(b)
		if where, _ := huskyScriptRuns(b, name); ours || where != "" {
			h.trace = true
			if h.Runs {
				h.Notes = append(h.Notes, fmt.Sprintf("git-memcite runs twice: pre-commit also runs %s first", filepath.Base(legacy)))
			} else {
				h.Runs, h.Via, h.Why = true, fmt.Sprintf("pre-commit runs %s (git-memcite's former hook) first", filepath.Base(legacy)), ""
			}
		}
	}
}

// configuredButNotInstalled explains a missing hook whose manager
// configuration names git-memcite.
func configuredButNotInstalled(repo Repo, name string, h *HookStatus) {
	if main, local := firstExisting(repo.Top, lefthookMain), firstExisting(repo.Top, lefthookLocal); main != "" || local != "" {
		mn, err1 := readYAMLFile(repo.Top, main)
		ln, err2 := readYAMLFile(repo.Top, local)
		if err1 == nil && err2 == nil {
			if where, _ := lefthookHookRuns(mn, ln, name); where != "" {
				h.trace = true
				h.Why = fmt.Sprintf("%s runs git-memcite at %s, but lefthook has not installed the %s hook: run lefthook install", strings.Trim(main+", "+local, ", "), name, name)
				return
			}
		}
	}
	for _, cfg := range preCommitConfigs {
		root, err := readYAMLFile(repo.Top, cfg)
		if err != nil || root == nil {
			continue
		}
		if where, _ := preCommitHookRuns(root, name); where != "" {
			h.trace = true
			h.Why = fmt.Sprintf("%s runs %s at %s, but pre-commit has not installed the %s hook: run pre-commit install -t %s", cfg, where, name, name, name)
			return
		}
	}
	if repo.HooksPath != "" && !repo.Husky() {
		return
	}
	if b, err := regfile.ReadFile(filepath.Join(repo.Top, ".husky", name)); err == nil {
		if where, _ := huskyScriptRuns(b, name); where != "" {
			h.trace = true
			h.Why = fmt.Sprintf(".husky/%s runs git-memcite, but husky's hooks are not set up in this worktree: run npx husky (or npm install)", name)
		}
	}
}

// leftBehind reports copies of our script that a manager moved aside:
// lefthook renames a hook it did not write to <hook>.old and never runs
// it; pre-commit's <hook>.legacy is handled by preCommitStatus.
func leftBehind(repo Repo, name, path string, h *HookStatus) {
	for _, suffix := range []string{".old", ".legacy"} {
		p := path + suffix
		b, err := regfile.ReadFile(p)
		if err != nil {
			continue
		}
		if _, ours := hooks.Marker(b); !ours {
			continue
		}
		h.trace = true
		if suffix == ".legacy" && h.Manager == PreCommit {
			continue
		}
		msg := fmt.Sprintf("%s is git-memcite's former %s hook, which lefthook renamed and never runs", displayPath(repo, p), name)
		if suffix == ".legacy" {
			msg = fmt.Sprintf("%s is git-memcite's former %s hook, which pre-commit moved aside and no longer runs", displayPath(repo, p), name)
		}
		if !h.Runs {
			h.Why = strings.TrimSuffix(h.Why, ".") + "; " + msg
		} else {
			h.Notes = append(h.Notes, msg+"; git memcite uninstall removes it")
		}
	}
}

func isExecutable(p string) bool {
	info, err := os.Stat(p)
	return err == nil && !info.IsDir() && info.Mode().Perm()&0o111 != 0
}

// installPython reports whether the Python interpreter a pre-commit hook
// script names (INSTALL_PYTHON=…) exists.
func installPython(script []byte) bool {
	for _, l := range strings.Split(string(script), "\n") {
		if p, ok := strings.CutPrefix(strings.TrimSpace(l), "INSTALL_PYTHON="); ok {
			return isExecutable(strings.Trim(p, `'"`))
		}
	}
	return false
}
