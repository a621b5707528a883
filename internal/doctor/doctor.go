// Package doctor checks a repository and its memory store in one report:
// the memory directories and what parsing them found, Serena's project
// configuration (seed 002 §5.4: are its memory tools active alongside
// git-memcite?), the git hooks and other hook managers, the git version,
// the index format and shallow clones.
//
// Facts that need git are gathered by the caller (through gitrepo) and
// passed in; the files of the working tree are read here.
package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/git-memcite/git-memcite/internal/hookinstall"
	"github.com/git-memcite/git-memcite/internal/store"
)

// Level grades a finding.
type Level int

// Levels, from fine to broken. Warn and Fail are problems.
const (
	OK Level = iota
	Info
	Warn
	Fail
)

func (l Level) String() string { return [...]string{"ok", "info", "warn", "fail"}[l] }

// MarshalText writes the level as its name in JSON.
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// Finding is the outcome of one check.
type Finding struct {
	Check  string   `json:"check"`
	Level  Level    `json:"level"`
	Msg    string   `json:"message"`
	Detail []string `json:"detail,omitempty"` // lines shown below the message
}

// Report is every finding, in check order.
type Report struct {
	Findings []Finding `json:"findings"`
}

// Problems counts the warnings and failures.
func (r *Report) Problems() int {
	n := 0
	for _, f := range r.Findings {
		if f.Level >= Warn {
			n++
		}
	}
	return n
}

func (r *Report) add(check string, l Level, msg string, detail ...string) {
	r.Findings = append(r.Findings, Finding{Check: check, Level: l, Msg: msg, Detail: detail})
}

// Facts are what the caller found out about the repository.
type Facts struct {
	Top        string              // working tree root (absolute)
	InRepo     bool                // a git repository (else a plain directory)
	GitVersion string              // output of `git version`, "" when git is missing
	Hooks      *hookinstall.Status // hook states from hookinstall.GetStatus; nil when unknown
	HooksErr   error               // why the hooks could not be inspected
	GitDir     string              // the repository's git directory, absolute
	SplitIndex string              // core.splitIndex
	SparseIdx  string              // index.sparse
	Sparse     string              // core.sparseCheckout
	Shallow    bool                // `git rev-parse --is-shallow-repository`
	Backend    string              // how objects are read, and why
	Probes     []Probe             // the repository reads commands make
	Dirs       []string
	Store      *store.Store // nil when loading failed
	StoreErr   error
}

// SerenaMemoryTools are Serena's memory tools (seed 002 §5.4).
var SerenaMemoryTools = []string{"write_memory", "read_memory", "list_memories", "delete_memory", "edit_memory"}

// minGit is the oldest git the tool is tested with.
var minGit = [2]int{2, 25}

// Probe is one read of the repository that commands make (resolve HEAD,
// read the index, read HEAD's tree, open the history), tried by the caller.
type Probe struct {
	What  string // what was read, for the message
	Err   error  // nil: it worked
	Fix   string // what to do when it failed
	Limit bool   // a known limit (Warn), not a failure
}

// Run performs every check.
func Run(f Facts) *Report {
	r := &Report{}
	checkGit(r, f)
	checkAccess(r, f)
	checkStore(r, f)
	checkSerena(r, f)
	checkHooks(r, f)
	checkManagers(r, f)
	checkIndex(r, f)
	return r
}

func checkGit(r *Report, f Facts) {
	switch {
	case f.GitVersion == "":
		r.add("git", Fail, "git not found on PATH: staged checks, commits and hooks need it")
		return
	case !f.InRepo:
		r.add("repository", Warn, "not a git repository: only the working tree can be checked ("+f.Top+")")
	default:
		r.add("repository", OK, "git repository")
	}
	v := strings.TrimSpace(strings.TrimPrefix(f.GitVersion, "git version"))
	m := regexp.MustCompile(`^(\d+)\.(\d+)`).FindStringSubmatch(v)
	if m == nil {
		r.add("git", Info, "git version "+v+" (not recognised)")
		return
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	if major < minGit[0] || (major == minGit[0] && minor < minGit[1]) {
		r.add("git", Warn, fmt.Sprintf("git %s is older than %d.%d; --staged and hooks may misbehave", v, minGit[0], minGit[1]))
		return
	}
	r.add("git", OK, "git "+v)
}

// checkAccess reports how objects are read and every read of the
// repository that failed: a command that would fail must never meet "No
// problems found".
func checkAccess(r *Report, f Facts) {
	if !f.InRepo {
		return
	}
	if f.Backend != "" {
		r.add("objects", Info, "objects read by "+f.Backend)
	}
	for _, p := range f.Probes {
		switch {
		case p.Err == nil:
		case p.Limit:
			r.add("access", Warn, fmt.Sprintf("%s: %v", p.What, p.Err), p.Fix)
		default:
			detail := []string{}
			if p.Fix != "" {
				detail = append(detail, p.Fix)
			}
			r.add("access", Fail, fmt.Sprintf("cannot %s: %v", p.What, p.Err), detail...)
		}
	}
}

// candidateDirs are where agents commonly keep memories.
var candidateDirs = []string{".serena/memories", ".claude/memories", ".memories", ".cortex/memory", "memory-bank"}

func checkStore(r *Report, f Facts) {
	var other []string
	for _, d := range candidateDirs {
		if contains(f.Dirs, d) {
			continue
		}
		if fi, err := os.Stat(filepath.Join(f.Top, filepath.FromSlash(d))); err == nil && fi.IsDir() {
			other = append(other, d)
		}
	}
	if len(other) > 0 {
		r.add("memory dirs", Info, "memory-like directories that are not checked (add them with --dir or `git config --add memcite.dir <path>`)", other...)
	}
	if f.StoreErr != nil {
		r.add("memories", Fail, f.StoreErr.Error(), "set the memory directory with --dir or `git config memcite.dir <path>`")
		return
	}
	st := f.Store
	perDir := map[string]int{}
	var errs, warns []string
	cited := 0
	for _, m := range st.Memories {
		perDir[m.Dir]++
		if m.Err != nil {
			errs = append(errs, m.Err.Error())
			continue
		}
		if len(m.File.Citations) > 0 {
			cited++
		}
		for _, w := range m.File.Warnings {
			warns = append(warns, w.String())
		}
	}
	var dirs []string
	for _, d := range st.Dirs {
		dirs = append(dirs, fmt.Sprintf("%s: %d memories", d, perDir[strings.TrimSuffix(d, "/")]))
	}
	r.add("memories", OK, fmt.Sprintf("%d memories in %d directory(ies), %d with citations", len(st.Memories), len(st.Dirs), cited), dirs...)
	if len(errs) > 0 {
		r.add("parse", Fail, fmt.Sprintf("%d memory file(s) cannot be parsed", len(errs)), errs...)
	} else {
		r.add("parse", OK, "every memory file parses")
	}
	if len(warns) > 0 {
		r.add("parse", Warn, fmt.Sprintf("%d warning(s) in memory files", len(warns)), warns...)
	}
}

func checkSerena(r *Report, f Facts) {
	p := filepath.Join(f.Top, ".serena", "project.yml")
	data, err := os.ReadFile(p)
	if err != nil {
		if os.IsNotExist(err) {
			r.add("serena", Info, "no .serena/project.yml: Serena is not configured here")
			return
		}
		r.add("serena", Warn, "cannot read .serena/project.yml: "+err.Error())
		return
	}
	var cfg struct {
		ExcludedTools []string `yaml:"excluded_tools"`
		ProjectName   string   `yaml:"project_name"`
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		r.add("serena", Warn, ".serena/project.yml is not valid YAML: "+err.Error())
		return
	}
	excluded := map[string]bool{}
	for _, t := range cfg.ExcludedTools {
		excluded[t] = true
	}
	var active []string
	for _, t := range SerenaMemoryTools {
		if !excluded[t] {
			active = append(active, t)
		}
	}
	if len(active) == 0 {
		r.add("serena", OK, "Serena's memory tools are excluded; git-memcite is the single memory interface")
		return
	}
	all := append([]string(nil), cfg.ExcludedTools...)
	all = append(all, active...)
	sort.Strings(all)
	detail := []string{"active: " + strings.Join(active, ", "),
		"Both write .serena/memories; Serena's tools do not keep citations. To make git-memcite the single interface, set in .serena/project.yml:",
		"", "excluded_tools:"}
	seen := map[string]bool{}
	for _, t := range all {
		if !seen[t] {
			seen[t] = true
			detail = append(detail, "  - "+t)
		}
	}
	detail = append(detail, "", "or keep both and tell agents which to use (seed 002 §5.4: coexistence with guidance).")
	r.add("serena", Warn, fmt.Sprintf("%d Serena memory tool(s) active alongside git-memcite", len(active)), detail...)
}

// checkHooks grades what hookinstall reports per hook: whether
// git-memcite actually runs when git runs it (through our script or a
// hook manager's configuration), outdated scripts and broken setups.
func checkHooks(r *Report, f Facts) {
	if !f.InRepo {
		return
	}
	if f.HooksErr != nil {
		r.add("hooks", Warn, "cannot inspect the hooks: "+f.HooksErr.Error())
		return
	}
	st := f.Hooks
	if st == nil {
		return
	}
	dir := st.Repo.HooksDir
	if rel, err := filepath.Rel(f.Top, dir); err == nil && !strings.HasPrefix(rel, "..") {
		dir = filepath.ToSlash(rel)
	}
	where := "hooks directory " + dir
	if st.Repo.HooksPath != "" {
		where += " (core.hooksPath, " + st.Repo.HooksPathScope + ")"
	}
	var runs, notRunning, outdated, broken []string
	for _, h := range st.Hooks {
		switch {
		case h.Runs:
			runs = append(runs, fmt.Sprintf("%s: %s", h.Name, h.Via))
		case h.Expected:
			notRunning = append(notRunning, fmt.Sprintf("%s: %s", h.Name, h.Why))
		}
		if h.State == hookinstall.Outdated {
			outdated = append(outdated, fmt.Sprintf("%s: outdated or not executable (v%d)", h.Name, h.Version))
		}
		for _, p := range h.Problems {
			broken = append(broken, fmt.Sprintf("%s: %s", h.Name, p))
		}
		for _, n := range h.Notes {
			runs = append(runs, fmt.Sprintf("%s: %s", h.Name, n))
		}
	}
	switch {
	case !st.Found:
		r.add("hooks", Info, "no git-memcite hooks in the "+where+": citations are checked only when you run git memcite (git memcite install)")
	case len(notRunning) > 0:
		r.add("hooks", Warn, fmt.Sprintf("git-memcite would not run at %d hook(s); git memcite status says why", len(notRunning)), append(notRunning, runs...)...)
	case len(broken) > 0:
		r.add("hooks", Warn, "a hook setup is broken", append(broken, runs...)...)
	case len(outdated) > 0:
		r.add("hooks", Warn, "git-memcite hooks in the "+where+" are outdated; run git memcite install", append(outdated, runs...)...)
	default:
		r.add("hooks", OK, "git-memcite runs at every hook it is installed for ("+where+")", runs...)
	}
	if st.Repo.HooksPathOutside {
		r.add("hooks", Info, "core.hooksPath points outside this repository: its hooks run for other repositories too")
	}
}

func checkManagers(r *Report, f Facts) {
	seen := map[string]bool{}
	var found []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			found = append(found, s)
		}
	}
	for _, c := range []struct{ path, name string }{
		{"lefthook.yml", "lefthook"}, {"lefthook.yaml", "lefthook"}, {".lefthook.yml", "lefthook"},
		{".pre-commit-config.yaml", "pre-commit"}, {".husky", "husky"},
	} {
		if _, err := os.Stat(filepath.Join(f.Top, c.path)); err == nil {
			add(c.name + " (" + c.path + ")")
			seen[c.name] = true
		}
	}
	if f.Hooks != nil {
		for _, m := range f.Hooks.Repo.Managers {
			if !seen[string(m)] && m != hookinstall.None {
				add(string(m))
			}
		}
	}
	if len(found) == 0 {
		return
	}
	r.add("hook managers", Info, "hook managers are configured; they own the hooks directory, so git-memcite goes into their configuration (git memcite install says how; --yes does it)", found...)
}

func checkIndex(r *Report, f Facts) {
	if !f.InRepo {
		return
	}
	var notes []string
	if strings.EqualFold(f.SplitIndex, "true") {
		notes = append(notes, "core.splitIndex=true")
	}
	if f.GitDir != "" {
		if m, _ := filepath.Glob(filepath.Join(f.GitDir, "sharedindex.*")); len(m) > 0 {
			notes = append(notes, fmt.Sprintf("%d sharedindex file(s) (split index)", len(m)))
		}
	}
	if strings.EqualFold(f.SparseIdx, "true") {
		notes = append(notes, "index.sparse=true (sparse index)")
	}
	if strings.EqualFold(f.Sparse, "true") {
		notes = append(notes, "core.sparseCheckout=true: citations into files outside the checkout read from the index")
	}
	if len(notes) > 0 {
		r.add("index", Info, "the index uses an extended format; --staged reads it through git", notes...)
	} else {
		r.add("index", OK, "plain index")
	}
	if f.Shallow {
		r.add("history", Warn, "shallow clone: history before the cut is missing, so relocating citations through renames and edits is limited (git fetch --unshallow)")
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
