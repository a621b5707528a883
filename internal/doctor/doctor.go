// Package doctor checks a repository and its memory store in one report:
// the memory directories and what parsing them found, Serena's project
// configuration (are its memory-writing tools active alongside
// git-memcite?), the git hooks and other hook managers, the git version,
// the index format and shallow clones.
//
// Facts that need git are gathered by the caller (through gitrepo) and
// passed in; the files of the working tree are read here.
package doctor

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/git-memcite/git-memcite/internal/agentinstall"
	"github.com/git-memcite/git-memcite/internal/hookinstall"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/regfile"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
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
	TempDir    string       // where rewrites make temporary files (gitrepo.Repo.TempDir)
	Store      *store.Store // nil when loading failed
	StoreErr   error
	// Verified is verify-all's summary of Store against the working tree
	// (no baseline); nil when not verified.
	Verified *verify.Summary
	// AgentHooks are the agent hook's settings files (agentinstall.Status);
	// nil when not looked at.
	AgentHooks []agentinstall.State
	// Cache is the verification cache as found (vcache.Inspect); nil
	// outside a repository.
	Cache *vcache.Info
	// CacheOff says why the cache is off for this run ("" when it is on).
	CacheOff string
}

// SerenaMemoryTools are Serena's memory tools: those that write memory
// files (without citations, past git-memcite's checks) and those that
// read them.
var (
	SerenaMemoryWriters = []string{"write_memory", "edit_memory", "delete_memory", "rename_memory"}
	SerenaMemoryReaders = []string{"read_memory", "list_memories"}
)

// minGit is the oldest git the tool is tested with.
var minGit = [2]int{2, 25}

// Probe is one read of the repository that commands make (resolve HEAD,
// read the index, read HEAD's tree, open the history), tried by the caller.
type Probe struct {
	What string // what was read, for the message
	Err  error  // nil: it worked
	Fix  string // what to do when it failed
}

// Run performs every check.
func Run(f Facts) *Report {
	r := &Report{}
	checkGit(r, f)
	checkAccess(r, f)
	checkStore(r, f)
	checkStale(r, f)
	checkSerena(r, f)
	checkHooks(r, f)
	checkManagers(r, f)
	checkAgentHook(r, f)
	checkIndex(r, f)
	checkTemporaries(r, f)
	checkCache(r, f)
	return r
}

// checkCache reports the verification cache: where it is, how large, and
// whether this build can use it. A damaged or foreign cache is no problem:
// it is ignored and rewritten (docs/cache.md).
func checkCache(r *Report, f Facts) {
	c := f.Cache
	if c == nil {
		return
	}
	msg := fmt.Sprintf("verification cache %s: %s", c.Path, c.State)
	switch c.State {
	case vcache.StateOK, vcache.StateStale, vcache.StateVersion:
		msg += fmt.Sprintf(", %s, %s, %s", byteSize(c.Size), countOf(c.Verdicts, "verdict", "verdicts"), countOf(c.Files, "parsed memory file", "parsed memory files"))
	case vcache.StateCorrupt:
		msg += fmt.Sprintf(", %s", byteSize(c.Size))
	}
	var detail []string
	switch c.State {
	case vcache.StateCorrupt, vcache.StateVersion, vcache.StateStale:
		detail = append(detail, "not used: the next run that verifies rewrites it")
	case vcache.StateSpecial:
		detail = append(detail, "a FIFO, device, socket or directory: never opened for reading, not used; the next run that verifies replaces it (or remove it)")
	}
	if c.Summaries > 0 {
		detail = append(detail, fmt.Sprintf("%s beside it, %s (what the commit check reads instead of every memory file)", countOf(c.Summaries, "commit summary", "commit summaries"), byteSize(c.SummaryBytes)))
	}
	if c.Runs > 0 {
		detail = append(detail, fmt.Sprintf("%s of verify-all kept, %s (a run that reads what one of them read prints what it printed)", countOf(c.Runs, "whole run", "whole runs"), byteSize(c.RunBytes)))
	}
	if f.CacheOff != "" {
		detail = append(detail, "off for this run: "+f.CacheOff)
	}
	r.add("cache", Info, msg, detail...)
}

// byteSize renders a size in bytes, KiB or MiB.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// checkTemporaries reports temporary files that interrupted rewrites left
// (memfile.IsTemporary): beside memory files, where `git add -A` would
// stage them, and in the git directory, where the next rewrite removes
// them.
func checkTemporaries(r *Report, f Facts) {
	var beside []string
	for _, d := range f.Dirs {
		root := filepath.Join(f.Top, filepath.FromSlash(d))
		_ = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if e.IsDir() && e.Name() == ".git" {
				return filepath.SkipDir
			}
			if e.Type().IsRegular() && memfile.IsTemporary(e.Name()) {
				if rel, err := filepath.Rel(f.Top, p); err == nil {
					beside = append(beside, filepath.ToSlash(rel))
				}
			}
			return nil
		})
	}
	if len(beside) > 0 {
		sort.Strings(beside)
		r.add("temporary files", Warn, fmt.Sprintf("%d temporary file(s) left by interrupted rewrites of memory files: remove them (git add -A would stage them); the next rewrite of the same memory file removes them too", len(beside)), beside...)
	}
	if f.TempDir != "" {
		if ents, err := os.ReadDir(f.TempDir); err == nil && len(ents) > 0 {
			r.add("temporary files", Info, fmt.Sprintf("%d temporary file(s) of interrupted rewrites in %s; the next rewrite removes them", len(ents), f.TempDir))
		}
	}
}

// checkAgentHook reports the agent hook in each agent's settings: where
// it is installed, a matcher that misses a memory tool, an event without
// it, a command that fails where git-memcite is not installed, a settings
// file that cannot be read; and, for an agent configured here without it,
// how to install it.
func checkAgentHook(r *Report, f Facts) {
	type agentFacts struct {
		title              string
		installed, partial []string
		configured         bool
	}
	byName := map[string]*agentFacts{}
	var order []string
	for _, st := range f.AgentHooks {
		a := byName[st.Agent.Name]
		if a == nil {
			a = &agentFacts{title: st.Agent.Title}
			byName[st.Agent.Name] = a
			order = append(order, st.Agent.Name)
		}
		rel := st.Path
		if p, err := filepath.Rel(f.Top, st.Path); err == nil {
			rel = filepath.ToSlash(p)
		}
		a.configured = a.configured || st.Exists
		var gaps []string
		if len(st.Missing) > 0 {
			gaps = append(gaps, fmt.Sprintf("the hook's matcher (%s) misses %s", strings.Join(st.Matchers, ", "), strings.Join(st.Missing, ", ")))
		}
		if len(st.Events) > 0 {
			gaps = append(gaps, "no hook on "+strings.Join(st.Events, ", "))
		}
		if len(st.Unguarded) > 0 {
			gaps = append(gaps, "the command fails on every tool call where git-memcite is not installed: "+strings.Join(st.Unguarded, "; "))
		}
		switch {
		case st.Err != nil:
			r.add("agent hook", Warn, "cannot read the agent's settings: "+st.Err.Error())
		case st.Installed && len(gaps) > 0:
			a.partial = append(a.partial, rel+": "+strings.Join(gaps, "; "))
		case st.Installed:
			a.installed = append(a.installed, rel)
		}
	}
	for _, name := range order {
		a := byName[name]
		switch {
		case len(a.partial) > 0:
			r.add("agent hook", Warn, fmt.Sprintf("the agent hook of %s does not run on every memory read, write and session start, or fails without git-memcite; git memcite install --agent %s adds one that does", a.title, name), a.partial...)
		case len(a.installed) > 0:
			r.add("agent hook", OK, fmt.Sprintf("agent hook installed: %s is told of stale citations when it reads or writes a memory and when a session starts", a.title), a.installed...)
		case a.configured:
			r.add("agent hook", Info, fmt.Sprintf("%s is configured here without the agent hook: agents verify memories only when they run git memcite verify (git memcite install --agent %s)", a.title, name))
		}
	}
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
		n := perDir[strings.TrimSuffix(d, "/")]
		noun := "memories"
		if n == 1 {
			noun = "memory"
		}
		dirs = append(dirs, fmt.Sprintf("%s: %d %s", d, n, noun))
	}
	r.add("memories", OK, fmt.Sprintf("%s in %s, %d with citations", countOf(len(st.Memories), "memory", "memories"), countOf(len(st.Dirs), "directory", "directories"), cited), dirs...)
	if len(errs) > 0 {
		r.add("parse", Fail, fmt.Sprintf("%d memory file(s) cannot be parsed", len(errs)), errs...)
	} else {
		r.add("parse", OK, "every memory file parses")
	}
	if len(warns) > 0 {
		r.add("parse", Warn, fmt.Sprintf("%d warning(s) in memory files", len(warns)), warns...)
	}
}

// checkStale reports the memories verify-all finds stale in the working
// tree, with the command that lists them.
func checkStale(r *Report, f Facts) {
	v := f.Verified
	if v == nil || v.Citations == 0 {
		return
	}
	if v.Stale == 0 {
		r.add("citations", OK, fmt.Sprintf("%s checked in the working tree: all valid", countOf(v.Citations, "citation", "citations")))
		return
	}
	r.add("citations", Warn, fmt.Sprintf("%s of %d stale in the working tree (%s)", countOf(v.Stale, "memory", "memories"), v.Memories,
		countOf(v.StaleCitations, "stale citation", "stale citations")),
		"git memcite verify-all --quiet lists them; git memcite relocate says where their lines went")
}

func checkSerena(r *Report, f Facts) {
	p := filepath.Join(f.Top, ".serena", "project.yml")
	data, err := regfile.ReadFile(p)
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
	var writers, readers []string
	for _, t := range SerenaMemoryWriters {
		if !excluded[t] {
			writers = append(writers, t)
		}
	}
	for _, t := range SerenaMemoryReaders {
		if !excluded[t] {
			readers = append(readers, t)
		}
	}
	readAdvice := "Reading is fine: after " + strings.Join(readers, " or ") + ", agents check what they read with `git memcite verify <id> --json` (docs/SKILL.md)."
	switch {
	case len(writers) == 0 && len(readers) == 0:
		r.add("serena", OK, "Serena's memory tools are excluded; agents read and write memory files directly and git-memcite checks them")
		return
	case len(writers) == 0:
		r.add("serena", Info, "Serena's memory-writing tools are excluded; its reading tools are active", readAdvice)
		return
	}
	add := append([]string(nil), writers...)
	sort.Strings(add)
	detail := []string{"active: " + strings.Join(writers, ", ") + " (Serena's default)",
		"They write .serena/memories without citations, so what they write is never checked. To have every memory checked, add them to excluded_tools in .serena/project.yml:",
		"", "excluded_tools:"}
	for _, t := range add {
		detail = append(detail, "  - "+t)
	}
	detail = append(detail, "",
		"and have agents, instead:",
		"  write or edit a memory: edit .serena/memories/<id>.md, then cite the code with `git memcite add-citation <id> <path>:<line>`",
		"  delete or rename one: `git rm` or `git mv` the file; `git memcite graph related <id>` lists the memories that link to it",
	)
	if len(readers) > 0 {
		detail = append(detail, "  "+readAdvice)
	}
	// Serena's default, and a choice, not a fault: information
	r.add("serena", Info, fmt.Sprintf("%d Serena memory-writing tool(s) active alongside git-memcite", len(writers)), detail...)
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

// countOf writes n with the singular or plural noun.
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
