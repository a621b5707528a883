package hookinstall

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/git-memcite/git-memcite/hooks"
	"github.com/git-memcite/git-memcite/internal/atomicfile"
)

// Mode says what to do with a foreign hook.
type Mode int

// Install modes.
const (
	ModeDefault Mode = iota // refuse foreign hooks
	ModeChain               // keep a foreign hook, run it first
	ModeForce               // back a foreign hook up, then replace it
	ModeManual              // write nothing; return the lines to add
)

func (m Mode) String() string {
	return [...]string{"default", "chain", "force", "manual"}[m]
}

// Options for Install.
type Options struct {
	Hooks  []string // hooks to install; nil means hooks.Names
	Mode   Mode
	DryRun bool // plan only, write nothing
	// Rev is the pre-commit framework's "rev:" for git-memcite's
	// repository: a release tag or a commit, never a branch ("" when
	// this build has neither: only Local is then offered).
	Rev string
	// Local writes a pre-commit "repo: local" hook that runs the
	// git-memcite on PATH (language: system): no network, no build.
	Local bool
	// Via chooses the route; "" detects the hook manager in charge.
	Via Route
	// Yes carries out the plan for a detected hook manager; without it
	// (and without Via) install only says what it would do.
	Yes bool
}

// Action is what install does, or would do, to one hook file.
type Action string

// Install actions.
const (
	Create  Action = "create"    // no file yet
	Replace Action = "replace"   // an empty file or git's sample
	Upgrade Action = "upgrade"   // our outdated script, rewritten in place
	Keep    Action = "unchanged" // our current script
	Chain   Action = "chain"     // foreign hook moved to <hook>.memcite-prev, run first
	Backup  Action = "backup"    // foreign hook moved to <hook>.memcite-bak, replaced
	Refuse  Action = "refuse"    // foreign hook left alone; nothing written
	Manual  Action = "manual"    // nothing written; see Plan.Snippets
)

// HookPlan is the plan for one hook.
type HookPlan struct {
	Name    string
	Path    string // the hook file, absolute
	Found   State
	Manager Manager // who wrote a foreign file, if recognised
	Head    string  // first lines of a foreign file
	Action  Action
	MovedTo string // for Chain and Backup: where the foreign file goes
	Reason  string // for Refuse: why
	Note    string // advice worth showing even on success
}

// Plan is the outcome of Install: what was found and what was, or would
// be, done. Nothing is written when Refused() or for ModeManual.
type Plan struct {
	Repo    Repo
	Options Options
	Hooks   []HookPlan
	// Refusal is set when the whole install is refused (core.hooksPath
	// outside the repository or owned by husky).
	Refusal string
	// Snippets are the lines to add by hand, for ModeManual and for
	// refused hooks.
	Snippets []Snippet
	Applied  bool // files were written

	// Route is how git-memcite goes in, and Detected what showed it.
	Route    Route
	Detected string
	// Confirm: a hook manager is in charge and neither Yes nor Via was
	// given, so nothing was done; the plan says what would be.
	Confirm bool
	// For a hook manager: our scripts taken out of the hooks directory
	// first, the configuration edits, the manager's install command and
	// what it printed (InstallerErr: why it failed or did not run).
	Cleanup      []UninstallHook
	Edits        []Edit
	Installer    []string
	InstallerOut string
	InstallerErr string
	InstallerRan bool // the installer was started (InstallerErr: it failed)
	// Unsupported says why the manager's configuration is not edited;
	// Snippets then hold the lines to add by hand.
	Unsupported string
	Notes       []string
}

// Refused reports whether install refused to write anything.
func (p Plan) Refused() bool {
	if p.Refusal != "" || p.Unsupported != "" {
		return true
	}
	for _, h := range p.Hooks {
		if h.Action == Refuse {
			return true
		}
	}
	return false
}

// Changes reports whether the plan writes or moves any file.
func (p Plan) Changes() bool {
	if len(p.Edits) > 0 || len(p.Cleanup) > 0 {
		return true
	}
	for _, h := range p.Hooks {
		switch h.Action {
		case Create, Replace, Upgrade, Chain, Backup:
			return true
		}
	}
	return false
}

// Install plans the installation of the hooks into the repository that
// contains dir and, unless the plan is refused, manual or a dry run,
// carries it out. It is idempotent: installing twice changes nothing the
// second time.
//
// In a repository whose hooks a manager owns (Detect), git-memcite goes
// into the manager's configuration instead (lefthook.yml, the .husky
// scripts, .pre-commit-config.yaml) and the manager's installer runs; that
// is only done with Yes or an explicit Via.
func Install(ctx context.Context, dir string, opts Options) (Plan, error) {
	repo, err := Locate(ctx, dir)
	if err != nil {
		return Plan{}, err
	}
	route, why := opts.Via, "chosen with --via"
	if route == "" {
		route, why = Detect(repo)
	}
	if route == "" {
		return Plan{Repo: repo, Options: opts, Detected: why, Refusal: why + "; choose one with --via lefthook, husky, pre-commit or git"}, nil
	}
	if route == ViaGit {
		plan, err := PlanInstall(repo, opts)
		plan.Route, plan.Detected = ViaGit, why
		if err != nil || opts.DryRun || opts.Mode == ModeManual || plan.Refused() {
			return plan, err
		}
		if err := Apply(&plan); err != nil {
			return plan, err
		}
		var names []string
		for _, h := range plan.Hooks {
			names = append(names, h.Name)
		}
		return plan, recordInstalled(repo, names)
	}
	names, err := checkNames(opts.Hooks)
	if err != nil {
		return Plan{}, err
	}
	opts.Hooks = names
	if route != ViaPreCommit {
		opts.Local = false
	}
	plan := Plan{Repo: repo, Options: opts, Route: route, Detected: why}
	if route == ViaPreCommit && !opts.Local && opts.Rev == "" && opts.Mode != ModeManual {
		plan.Refusal = "this build of git-memcite is neither a release nor a commit without local changes, so there is no fixed rev for .pre-commit-config.yaml to pin; " +
			"git memcite install --via pre-commit --local writes a local hook that runs the git-memcite on PATH"
		return plan, nil
	}
	if opts.Mode == ModeChain || opts.Mode == ModeForce {
		plan.Refusal = fmt.Sprintf("%s manages these hooks (%s): --chain and --force would stop its own hooks from running; git memcite install --via %s adds git-memcite to its configuration", route, why, route)
		return plan, nil
	}
	if opts.Mode == ModeManual {
		plan.Snippets = snippets(repo, route.manager(), names, opts.Rev, opts.Local)
		return plan, nil
	}
	if err := managerPlan(&plan); err != nil {
		return plan, err
	}
	plan.Confirm = opts.Via == "" && !opts.Yes && !opts.DryRun
	if plan.Confirm || opts.DryRun || plan.Refused() {
		return plan, nil
	}
	return plan, applyManager(ctx, &plan)
}

// PlanInstall decides what Install would do, reading but never writing.
func PlanInstall(repo Repo, opts Options) (Plan, error) {
	names, err := checkNames(opts.Hooks)
	if err != nil {
		return Plan{}, err
	}
	opts.Hooks = names
	if opts.Rev == "" {
		opts.Rev = "main"
	}
	plan := Plan{Repo: repo, Options: opts}
	switch {
	case repo.HooksPathOutside && opts.Mode != ModeForce && opts.Mode != ModeManual:
		plan.Refusal = fmt.Sprintf("core.hooksPath (%s config) is %s, outside this repository: hooks there run for other repositories too", scopeName(repo.HooksPathScope), repo.HooksPath)
	case repo.Husky() && opts.Mode != ModeManual:
		plan.Refusal = fmt.Sprintf("core.hooksPath is %s, managed by husky, which regenerates that directory and finds its scripts by the hook's name: git memcite install --via husky adds git-memcite to the .husky/<hook> scripts", repo.HooksPath)
	}
	needSnippets := false
	for _, name := range names {
		hp, err := planHook(repo, name, opts.Mode)
		if err != nil {
			return plan, err
		}
		if plan.Refusal != "" && hp.Action != Keep {
			hp.Action, hp.Reason = Refuse, plan.Refusal
		}
		if opts.Mode == ModeManual {
			hp.Action = Manual
		}
		needSnippets = needSnippets || hp.Action == Refuse || hp.Action == Manual
		plan.Hooks = append(plan.Hooks, hp)
	}
	if !needSnippets {
		return plan, nil
	}
	// A hook manager in charge of the repository gets one snippet for
	// every hook asked for; otherwise each hook script gets its lines.
	if m := managerInCharge(repo, plan.Hooks); m != None {
		plan.Snippets = snippets(repo, m, names, opts.Rev, opts.Local)
		return plan, nil
	}
	for _, hp := range plan.Hooks {
		if hp.Action == Refuse || hp.Action == Manual {
			plan.Snippets = append(plan.Snippets, snippets(repo, hp.Manager, []string{hp.Name}, opts.Rev, opts.Local)...)
		}
	}
	return plan, nil
}

// managerInCharge is the hook manager that owns the repository's hooks:
// husky through core.hooksPath, else lefthook or the pre-commit framework
// when one of the hook files or configuration files is theirs. git-lfs
// only adds lines to hooks, so it is not "in charge".
func managerInCharge(repo Repo, plans []HookPlan) Manager {
	if repo.Husky() {
		return Husky
	}
	for _, m := range []Manager{Lefthook, PreCommit} {
		for _, hp := range plans {
			if hp.Manager == m {
				return m
			}
		}
	}
	for _, m := range []Manager{Lefthook, PreCommit} {
		for _, f := range managerFiles[m] {
			if exists(filepath.Join(repo.Top, f)) {
				return m
			}
		}
	}
	return None
}

func planHook(repo Repo, name string, mode Mode) (HookPlan, error) {
	path := filepath.Join(repo.HooksDir, name)
	f, err := classify(path, name)
	if err != nil {
		return HookPlan{}, err
	}
	hp := HookPlan{Name: name, Path: path, Found: f.State, Manager: f.Manager, Head: f.Head}
	switch f.State {
	case Missing:
		hp.Action = Create
	case Empty, Sample:
		hp.Action = Replace
	case Outdated:
		hp.Action = Upgrade
	case Current:
		hp.Action = Keep
	case Foreign:
		switch mode {
		case ModeChain:
			hp.Action, hp.MovedTo = Chain, path+PrevSuffix
		case ModeForce:
			hp.Action, hp.MovedTo = Backup, path+BackupSuffix
		default:
			hp.Action = Refuse
			hp.Reason = "a hook git-memcite did not write is already there"
			if f.Manager != None {
				hp.Reason = fmt.Sprintf("a %s hook is already there", f.Manager)
			}
		}
		if m := f.Manager; m == Lefthook || m == PreCommit || m == Husky {
			// a manager re-installs (lefthook moves our script to .old),
			// recurses (pre-commit runs .legacy, which would run it
			// again) or loses its dispatch by name (husky)
			hp.Action, hp.MovedTo = Refuse, ""
			hp.Reason = fmt.Sprintf("a %s hook is already there; git memcite install --via %s adds git-memcite to %s's configuration instead", m, m, m)
		}
		if hp.MovedTo != "" && exists(hp.MovedTo) {
			hp.Action = Refuse
			hp.Reason = fmt.Sprintf("%s already exists (left by an earlier install); move it away first", hp.MovedTo)
		}
		if f.Calls {
			hp.Note = "this hook already runs git-memcite; installing would run it twice"
		}
	}
	switch {
	case hp.Action == Chain && f.Manager == GitLFS:
		hp.Note = "a later 'git lfs install' or 'git lfs update' will report \"Hook already exists\"; answer it with 'git lfs update --manual'"
	}
	return hp, nil
}

// Apply carries out a plan: moves foreign hooks aside and writes our
// scripts atomically (temporary file, then rename), mode 0755, LF endings.
// It refuses a refused plan.
func Apply(plan *Plan) error {
	if plan.Refused() {
		return errors.New("install refused; nothing written")
	}
	if !plan.Changes() {
		return nil
	}
	if err := os.MkdirAll(plan.Repo.HooksDir, 0o755); err != nil {
		return fmt.Errorf("create hooks directory: %w", err)
	}
	for _, h := range plan.Hooks {
		switch h.Action {
		case Create, Replace, Upgrade, Chain, Backup:
		default:
			continue
		}
		if h.MovedTo != "" {
			if err := os.Rename(h.Path, h.MovedTo); err != nil {
				return fmt.Errorf("move %s hook aside: %w", h.Name, err)
			}
		}
		script, err := hooks.Script(h.Name)
		if err != nil {
			return err
		}
		if err := writeFileAtomic(h.Path, script, 0o755); err != nil {
			return fmt.Errorf("write %s hook: %w", h.Name, err)
		}
		plan.Applied = true
	}
	return nil
}

// writeFileAtomic writes a file through a temporary file in the same
// directory and a rename, with the given mode.
func writeFileAtomic(path string, data []byte, mode os.FileMode) error {
	tmp, err := atomicfile.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return atomicfile.Replace(tmp.Name(), path)
}

func checkNames(names []string) ([]string, error) {
	if len(names) == 0 {
		return slices.Clone(hooks.Names), nil
	}
	var out []string
	for _, n := range names {
		if !hooks.IsName(n) {
			return nil, fmt.Errorf("unknown hook %q (git-memcite provides %v)", n, hooks.Names)
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

func scopeName(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
