// Package agentinstall puts git-memcite's agent hook into an AI agent's
// settings and takes it out again (agents.go: Claude Code, Gemini CLI,
// Codex): a group running the hook after the agent's file and memory
// tools, and one on session start, merged into the agent's JSON settings
// file with a format-preserving edit (internal/jsonedit): the file's other
// hooks and keys, their order, its indentation and line endings stay byte
// for byte. Installing again changes nothing (a group an earlier version
// wrote is brought up to date in place); uninstalling removes exactly
// what installing added, and deletes a settings file installing created
// once it holds nothing else. The contract is in docs/agent-hook.md.
package agentinstall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/git-memcite/git-memcite/internal/jsonedit"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/regfile"
)

// Command is the command the hook runs: git memcite agent-hook, when
// git-memcite is installed; otherwise nothing, with exit status 0, so
// that an agent on a machine without it is not told on every tool call
// that memcite is not a git command.
const Command = "command -v git-memcite >/dev/null 2>&1 && git memcite agent-hook || true"

// legacyCommands are commands earlier versions of install wrote.
var legacyCommands = []string{"git memcite agent-hook"}

// ours reports whether cmd is a command install writes or wrote.
func ours(cmd string) bool {
	if cmd == Command {
		return true
	}
	for _, c := range legacyCommands {
		if cmd == c {
			return true
		}
	}
	return false
}

// Guarded reports whether a hook command that runs the agent hook does
// nothing when git-memcite is not installed (it looks for it first, or
// ignores the failure).
func Guarded(cmd string) bool { return guard().MatchString(cmd) }

var guard = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`command\s+-v\s+git-memcite|which\s+git-memcite|type\s+git-memcite|\|\|\s*(true|:|exit\s+0)\s*$`)
})

// group is the entry Install adds to an event.
type group struct {
	Matcher string `json:"matcher,omitempty"`
	Hooks   []hook `json:"hooks"`
}

type hook struct {
	Type    string `json:"type"`
	Command string `json:"command"`
}

func groupFor(e Event) group {
	return group{Matcher: e.Matcher, Hooks: []hook{{Type: "command", Command: Command}}}
}

// Snippet is the settings file Install writes for a when there is none:
// the hooks, and nothing else (what adding them to "{}" gives). --manual
// prints it.
func Snippet(a Agent) string {
	s, err := parse("", a, []byte("{}\n"))
	if err != nil {
		panic(err) // "{}" is settings
	}
	out, _, err := s.install()
	if err != nil {
		panic(err)
	}
	return string(out)
}

// Action says what Install or Uninstall did (or would do, in a dry run).
type Action string

// Actions.
const (
	Created   Action = "created"   // a new settings file holding the hook
	Added     Action = "added"     // the hook merged into the existing file
	Updated   Action = "updated"   // a hook an earlier install wrote brought up to date
	Unchanged Action = "unchanged" // the hook was there already
	Removed   Action = "removed"   // the hook taken out of the file
	Deleted   Action = "deleted"   // the file held nothing but the hook: removed
	Absent    Action = "absent"    // nothing to remove
)

// Result is the outcome for one settings file. Before and After are its
// content (nil: no file).
type Result struct {
	Agent         Agent
	Path          string
	Action        Action
	Before, After []byte
	// Others lists hooks that run the agent hook but that Install did not
	// write (another spelling of the command); Uninstall leaves them.
	Others []string
}

// SettingsError is a settings file that cannot be changed safely: not
// JSON, or not shaped as the agent's settings. Nothing was written.
type SettingsError struct {
	Path string
	Msg  string
}

func (e *SettingsError) Error() string { return e.Path + ": " + e.Msg + "; not changed" }

// settings is a parsed settings file and where its hooks are.
type settings struct {
	path    string
	agent   Agent
	doc     *jsonedit.Doc
	hooks   *jsonedit.Value            // "hooks", nil when absent
	lists   map[string]*jsonedit.Value // the agent's events' lists in "hooks"
	entries []entry                    // every hook of those lists that runs the agent hook
}

// entry is one hook command of an event's group.
type entry struct {
	event       string
	group, hook int // positions in the event's list and in the group's hooks
	command     string
	matcher     string
	cmdValue    *jsonedit.Value
	matchValue  *jsonedit.Value // nil when the group has no matcher
	exact       bool            // the group and hook are shaped as Install writes them, with a command it writes or wrote
	current     bool            // exact, with today's command and matcher
}

// read loads and parses the settings file at p; a missing file gives nil.
func read(p string, a Agent) (*settings, error) {
	src, err := regfile.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	return parse(p, a, src)
}

func parse(p string, a Agent, src []byte) (*settings, error) {
	d, err := jsonedit.Parse(src)
	if err != nil {
		return nil, &SettingsError{Path: p, Msg: "not valid JSON: " + err.Error()}
	}
	s := &settings{path: p, agent: a, doc: d, lists: map[string]*jsonedit.Value{}}
	if d.Root.Kind != jsonedit.Object {
		return nil, &SettingsError{Path: p, Msg: "not a JSON object"}
	}
	if s.hooks = d.Root.Get("hooks"); s.hooks == nil {
		return s, nil
	}
	if s.hooks.Kind != jsonedit.Object {
		return nil, &SettingsError{Path: p, Msg: `"hooks" is not an object`}
	}
	for _, ev := range a.Events {
		list := s.hooks.Get(ev.Name)
		if list == nil {
			continue
		}
		if list.Kind != jsonedit.Array {
			return nil, &SettingsError{Path: p, Msg: fmt.Sprintf("%q.%q is not an array", "hooks", ev.Name)}
		}
		s.lists[ev.Name] = list
		s.scan(ev, list)
	}
	return s, nil
}

// scan records the hooks of an event's list that run the agent hook.
func (s *settings) scan(ev Event, list *jsonedit.Value) {
	for gi, g := range list.Elems {
		hs := g.Get("hooks")
		if hs == nil || hs.Kind != jsonedit.Array {
			continue
		}
		matcher := ""
		mv := g.Get("matcher")
		if mv != nil && mv.Kind == jsonedit.String {
			matcher = mv.Str
		}
		for hi, h := range hs.Elems {
			c := h.Get("command")
			if c == nil || c.Kind != jsonedit.String || !RunsAgentHook(c.Str) {
				continue
			}
			en := entry{event: ev.Name, group: gi, hook: hi, command: c.Str, matcher: matcher, cmdValue: c}
			shape := len(hs.Elems) == 1 && len(h.Members) == 2 && ours(c.Str)
			if ev.Matcher == "" {
				en.exact = shape && len(g.Members) == 1
				en.current = en.exact && c.Str == Command
			} else if mv != nil && mv.Kind == jsonedit.String {
				en.matchValue = mv
				known := matcher == ev.Matcher
				for _, l := range ev.Legacy {
					known = known || matcher == l
				}
				en.exact = shape && len(g.Members) == 2 && known
				en.current = en.exact && c.Str == Command && matcher == ev.Matcher
			}
			s.entries = append(s.entries, en)
		}
	}
}

// agentHookCommand matches a shell command that runs git-memcite's agent
// hook: git memcite agent-hook, git-memcite agent-hook, by any path.
var agentHookCommand = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|[\s/;&|])git(-|\s+)memcite\s+agent-hook(\s|$|;|&|\|)`)
})

// RunsAgentHook reports whether a hook command runs the agent hook.
func RunsAgentHook(cmd string) bool { return agentHookCommand().MatchString(cmd) }

// install returns the settings with every event of the agent holding the
// hook, and what that took (Added, Updated or Unchanged).
func (s *settings) install() ([]byte, Action, error) {
	action := Unchanged
	for {
		edits, what, err := s.nextInstall()
		if err != nil || len(edits) == 0 {
			return s.doc.Src, action, err
		}
		if action != Added {
			action = what
		}
		out, err := jsonedit.Apply(s.doc.Src, edits...)
		if err != nil {
			return nil, "", err
		}
		next, err := parse(s.path, s.agent, out)
		if err != nil {
			return nil, "", fmt.Errorf("install the agent hook: the edit broke %s: %w", s.path, err)
		}
		*s = *next
	}
}

// nextInstall returns the next edit install makes: a group an earlier
// install wrote brought up to date, or the group of an event that has
// none added; no edit when every event has the hook.
func (s *settings) nextInstall() ([]jsonedit.Edit, Action, error) {
	for _, ev := range s.agent.Events {
		var legacy *entry
		has := false
		for i := range s.entries {
			en := &s.entries[i]
			if en.event != ev.Name {
				continue
			}
			has = true
			if en.exact && !en.current && legacy == nil {
				legacy = en
			}
			if en.current {
				legacy = nil
				break
			}
		}
		if legacy != nil {
			edits, err := s.update(ev, legacy)
			return edits, Updated, err
		}
		if has {
			continue
		}
		var e jsonedit.Edit
		var err error
		g := []group{groupFor(ev)}
		switch list := s.lists[ev.Name]; {
		case s.hooks == nil:
			e, err = s.doc.AddMember(s.doc.Root, "hooks", map[string][]group{ev.Name: g})
		case list == nil:
			e, err = s.doc.AddMember(s.hooks, ev.Name, g)
		default:
			e, err = s.doc.AppendElem(list, g[0])
		}
		return []jsonedit.Edit{e}, Added, err
	}
	return nil, Unchanged, nil
}

// update rewrites the command and matcher of a group an earlier install
// wrote, in place.
func (s *settings) update(ev Event, en *entry) ([]jsonedit.Edit, error) {
	var edits []jsonedit.Edit
	for _, r := range []struct {
		v    *jsonedit.Value
		want string
	}{{en.cmdValue, Command}, {en.matchValue, ev.Matcher}} {
		if r.v == nil || r.v.Str == r.want {
			continue
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(r.want); err != nil {
			return nil, err
		}
		edits = append(edits, jsonedit.Edit{Start: r.v.Start, End: r.v.End, New: strings.TrimSuffix(b.String(), "\n")})
	}
	return edits, nil
}

// Install adds the hook to every event of the agent's settings file in
// the repository at top (SettingsFile), creating it if needed; a group an
// earlier version wrote is brought up to date. dryRun computes the
// result and writes nothing.
func Install(top string, a Agent, local, dryRun bool) (Result, error) {
	p := a.SettingsFile(top, local)
	s, err := read(p, a)
	if err != nil {
		return Result{}, err
	}
	if s == nil {
		r := Result{Agent: a, Path: p, Action: Created, After: []byte(Snippet(a))}
		if dryRun {
			return r, nil
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return Result{}, fmt.Errorf("install the agent hook: %w", err)
		}
		return r, memfile.WriteFile(p, nil, r.After)
	}
	r := Result{Agent: a, Path: p, Before: s.doc.Src}
	if r.After, r.Action, err = s.install(); err != nil {
		return Result{}, err
	}
	if dryRun || r.Action == Unchanged {
		return r, nil
	}
	return r, memfile.WriteFile(p, r.Before, r.After)
}

// Uninstall removes the hooks Install added from the agent's settings
// file in the repository at top: the groups it added, and the event lists
// and hooks object when it added them and they hold nothing else. A file
// left holding nothing (an empty object) is deleted, and its directory
// with it when that is left empty.
func Uninstall(top string, a Agent, local, dryRun bool) (Result, error) {
	p := a.SettingsFile(top, local)
	s, err := read(p, a)
	if err != nil || s == nil {
		return Result{Agent: a, Path: p, Action: Absent}, err
	}
	r := Result{Agent: a, Path: p, Action: Absent, Before: s.doc.Src, After: s.doc.Src}
	for {
		e, ok, err := s.removal()
		if err != nil {
			return Result{}, err
		}
		if !ok {
			break
		}
		out, err := jsonedit.Apply(s.doc.Src, e)
		if err != nil {
			return Result{}, err
		}
		if s, err = parse(p, a, out); err != nil {
			return Result{}, fmt.Errorf("uninstall the agent hook: the edit broke %s: %w", p, err)
		}
		r.Action, r.After = Removed, out
	}
	for _, en := range s.entries {
		r.Others = append(r.Others, en.command)
	}
	if r.Action == Removed && len(s.doc.Root.Members) == 0 {
		r.Action, r.After = Deleted, nil
	}
	switch {
	case dryRun || r.Action == Absent:
		return r, nil
	case r.Action == Deleted:
		if cur, err := regfile.ReadFile(p); err != nil || !bytes.Equal(cur, r.Before) {
			return Result{}, fmt.Errorf("uninstall the agent hook: %s: %w", p, memfile.ErrChanged)
		}
		if err := os.Remove(p); err != nil {
			return Result{}, fmt.Errorf("uninstall the agent hook: %w", err)
		}
		_ = os.Remove(filepath.Dir(p)) // only when empty
		return r, nil
	}
	return r, memfile.WriteFile(p, r.Before, r.After)
}

// removal returns the edit that takes out the first hook Install wrote:
// the hook alone when its group holds other hooks; else the group; else
// the event's list; else the hooks object, whichever it leaves.
func (s *settings) removal() (jsonedit.Edit, bool, error) {
	for _, en := range s.entries {
		if en.command != Command && !en.exact {
			continue // not written by install: another spelling, or an old command by hand
		}
		list := s.lists[en.event]
		g := list.Elems[en.group]
		if !en.exact {
			hs := g.Get("hooks")
			if len(hs.Elems) > 1 {
				e, err := s.doc.RemoveElem(hs, en.hook)
				return e, true, err
			}
		}
		var e jsonedit.Edit
		var err error
		switch {
		case len(list.Elems) > 1:
			e, err = s.doc.RemoveElem(list, en.group)
		case len(s.hooks.Members) > 1:
			e, err = s.doc.RemoveMember(s.hooks, s.hooks.Index(en.event))
		default:
			e, err = s.doc.RemoveMember(s.doc.Root, s.doc.Root.Index("hooks"))
		}
		return e, true, err
	}
	return jsonedit.Edit{}, false, nil
}

// State is what one settings file holds.
type State struct {
	Agent     Agent
	Path      string
	Exists    bool
	Installed bool     // a hook of one of the agent's events runs the agent hook
	Commands  []string // the commands that run it
	Matchers  []string // the matchers of those that run after tools
	Missing   []string // tools that none of them runs after
	// Events lists the agent's events without the hook (SessionStart, …)
	// when it is installed for others.
	Events []string
	// Outdated: a hook an earlier install wrote, which install brings up
	// to date (a matcher that misses tools, no guard for a missing
	// git-memcite).
	Outdated bool
	// Unguarded lists commands that fail when git-memcite is not
	// installed, on every event they run for.
	Unguarded []string
	Err       error // the file cannot be read, or is not settings JSON
}

// Status reports the settings files of every agent in the repository at
// top (the project's and, for agents that have one, the personal one).
func Status(top string) []State {
	var out []State
	for _, a := range Agents {
		out = append(out, StatusOf(top, a)...)
	}
	return out
}

// StatusOf reports the agent's settings files in the repository at top.
func StatusOf(top string, a Agent) []State {
	var out []State
	locals := []bool{false}
	if a.HasLocal() {
		locals = append(locals, true)
	}
	for _, local := range locals {
		st := State{Agent: a, Path: a.SettingsFile(top, local)}
		s, err := read(st.Path, a)
		switch {
		case err != nil:
			st.Exists, st.Err = true, err
		case s != nil:
			st.Exists = true
			st.fill(s)
		}
		out = append(out, st)
	}
	return out
}

// fill records what the parsed settings hold.
func (st *State) fill(s *settings) {
	covered := map[string]bool{}
	events := map[string]bool{}
	for _, en := range s.entries {
		st.Installed = true
		events[en.event] = true
		st.Commands = append(st.Commands, en.command)
		if en.exact && !en.current {
			st.Outdated = true
		}
		if !Guarded(en.command) {
			st.Unguarded = append(st.Unguarded, en.command)
		}
		if ev, _ := s.agent.event(en.event); ev.Tools {
			st.Matchers = append(st.Matchers, en.matcher)
			for _, t := range s.agent.Tools {
				if MatcherCovers(en.matcher, t) {
					covered[t] = true
				}
			}
		}
	}
	if !st.Installed {
		return
	}
	for _, ev := range s.agent.Events {
		if !events[ev.Name] {
			st.Events = append(st.Events, ev.Name)
		}
		if ev.Tools && events[ev.Name] {
			for _, t := range s.agent.Tools {
				if !covered[t] {
					st.Missing = append(st.Missing, t)
				}
			}
		}
	}
}

// MatcherCovers reports whether a hook matcher selects tool: an empty
// matcher or "*" selects every tool; otherwise it is a regular expression
// that must match the whole name.
func MatcherCovers(matcher, tool string) bool {
	if m := strings.TrimSpace(matcher); m == "" || m == "*" {
		return true
	}
	re, err := regexp.Compile("^(?:" + matcher + ")$")
	return err == nil && re.MatchString(tool)
}

// Diff is a short description of an edit for dry runs: the lines added
// or removed, by number.
func Diff(before, after []byte) string {
	a, b := splitLines(before), splitLines(after)
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	j := 0
	for j < len(a)-i && j < len(b)-i && a[len(a)-1-j] == b[len(b)-1-j] {
		j++
	}
	var out strings.Builder
	for _, l := range a[i : len(a)-j] {
		out.WriteString("- " + l + "\n")
	}
	for _, l := range b[i : len(b)-j] {
		out.WriteString("+ " + l + "\n")
	}
	return out.String()
}

func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))), "\n"), "\n")
}
