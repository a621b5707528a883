// Package agentinstall puts git-memcite's agent hook into an AI agent's
// settings and takes it out again. For Claude Code it is a PostToolUse
// hook in .claude/settings.json (the project's, committed) or
// .claude/settings.local.json (personal), merged into the file with a
// format-preserving edit (internal/jsonedit): the file's other hooks and
// keys, their order, its indentation and line endings stay byte for byte.
// Installing again changes nothing; uninstalling removes exactly what
// installing added, and deletes a settings file installing created once
// it holds nothing else. The contract is in docs/agent-hook.md.
package agentinstall

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/git-memcite/git-memcite/internal/agenthook"
	"github.com/git-memcite/git-memcite/internal/jsonedit"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/regfile"
)

// Claude is the agent supported by Install.
const Claude = "claude"

// Command is the command the hook runs.
const Command = "git memcite agent-hook"

// Matcher selects the tools after which the hook runs: Claude Code's
// file reader and Serena's memory reader.
const Matcher = agenthook.ReadTool + "|" + agenthook.SerenaReadMemory

// Tools are the tools the hook must see to do its work.
var Tools = []string{agenthook.ReadTool, agenthook.SerenaReadMemory}

// SettingsFile is the Claude Code settings file of the repository at top:
// .claude/settings.json, or with local .claude/settings.local.json.
func SettingsFile(top string, local bool) string {
	name := "settings.json"
	if local {
		name = "settings.local.json"
	}
	return filepath.Join(top, ".claude", name)
}

// group is the PostToolUse entry Install adds.
type group struct {
	Matcher string `json:"matcher"`
	Hooks   []hook `json:"hooks"`
}

type hook struct {
	Type    string `json:"type"`
	Command string `json:"command"`
}

var ours = group{Matcher: Matcher, Hooks: []hook{{Type: "command", Command: Command}}}

// Snippet is the settings file Install writes when there is none: the
// hook, and nothing else (what adding the hook to "{}" gives). --manual
// prints it.
func Snippet() string { return snippet }

const snippet = `{
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "` + Matcher + `",
        "hooks": [
          {
            "type": "command",
            "command": "` + Command + `"
          }
        ]
      }
    ]
  }
}
`

// Action says what Install or Uninstall did (or would do, in a dry run).
type Action string

// Actions.
const (
	Created   Action = "created"   // a new settings file holding the hook
	Added     Action = "added"     // the hook merged into the existing file
	Unchanged Action = "unchanged" // the hook was there already
	Removed   Action = "removed"   // the hook taken out of the file
	Deleted   Action = "deleted"   // the file held nothing but the hook: removed
	Absent    Action = "absent"    // nothing to remove
)

// Result is the outcome for one settings file. Before and After are its
// content (nil: no file).
type Result struct {
	Path          string
	Action        Action
	Before, After []byte
	// Others lists hooks that run the agent hook but that Install did not
	// write (another spelling of the command); Uninstall leaves them.
	Others []string
}

// SettingsError is a settings file that cannot be changed safely: not
// JSON, or not shaped as Claude Code's settings. Nothing was written.
type SettingsError struct {
	Path string
	Msg  string
}

func (e *SettingsError) Error() string { return e.Path + ": " + e.Msg + "; not changed" }

// settings is a parsed settings file and where its hooks are.
type settings struct {
	path    string
	doc     *jsonedit.Doc
	hooks   *jsonedit.Value // "hooks", nil when absent
	post    *jsonedit.Value // "hooks"."PostToolUse", nil when absent
	entries []entry         // every hook of PostToolUse that runs the agent hook
}

// entry is one hook command of a PostToolUse group.
type entry struct {
	group, hook int // positions in PostToolUse and in the group's hooks
	command     string
	matcher     string
	exact       bool // the group and hook are what Install writes
}

// read loads and parses the settings file at p; a missing file gives nil.
func read(p string) (*settings, error) {
	src, err := regfile.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	return parse(p, src)
}

func parse(p string, src []byte) (*settings, error) {
	d, err := jsonedit.Parse(src)
	if err != nil {
		return nil, &SettingsError{Path: p, Msg: "not valid JSON: " + err.Error()}
	}
	s := &settings{path: p, doc: d}
	if d.Root.Kind != jsonedit.Object {
		return nil, &SettingsError{Path: p, Msg: "not a JSON object"}
	}
	if s.hooks = d.Root.Get("hooks"); s.hooks == nil {
		return s, nil
	}
	if s.hooks.Kind != jsonedit.Object {
		return nil, &SettingsError{Path: p, Msg: `"hooks" is not an object`}
	}
	if s.post = s.hooks.Get("PostToolUse"); s.post == nil {
		return s, nil
	}
	if s.post.Kind != jsonedit.Array {
		return nil, &SettingsError{Path: p, Msg: `"hooks"."PostToolUse" is not an array`}
	}
	for gi, g := range s.post.Elems {
		hs := g.Get("hooks")
		if hs == nil || hs.Kind != jsonedit.Array {
			continue
		}
		matcher := ""
		if m := g.Get("matcher"); m != nil && m.Kind == jsonedit.String {
			matcher = m.Str
		}
		for hi, h := range hs.Elems {
			c := h.Get("command")
			if c == nil || c.Kind != jsonedit.String || !RunsAgentHook(c.Str) {
				continue
			}
			exact := c.Str == Command && matcher == Matcher && len(hs.Elems) == 1 && len(g.Members) == 2 && len(h.Members) == 2
			s.entries = append(s.entries, entry{group: gi, hook: hi, command: c.Str, matcher: matcher, exact: exact})
		}
	}
	return s, nil
}

// agentHookCommand matches a shell command that runs git-memcite's agent
// hook: git memcite agent-hook, git-memcite agent-hook, by any path.
var agentHookCommand = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|[\s/;&|])git(-|\s+)memcite\s+agent-hook(\s|$|;|&|\|)`)
})

// RunsAgentHook reports whether a hook command runs the agent hook.
func RunsAgentHook(cmd string) bool { return agentHookCommand().MatchString(cmd) }

// Install adds the hook to the settings file of the repository at top
// (SettingsFile), creating it if needed. dryRun computes the result and
// writes nothing.
func Install(top string, local, dryRun bool) (Result, error) {
	p := SettingsFile(top, local)
	s, err := read(p)
	if err != nil {
		return Result{}, err
	}
	if s == nil {
		r := Result{Path: p, Action: Created, After: []byte(Snippet())}
		if dryRun {
			return r, nil
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return Result{}, fmt.Errorf("install the agent hook: %w", err)
		}
		return r, memfile.WriteFile(p, nil, r.After)
	}
	r := Result{Path: p, Before: s.doc.Src}
	if len(s.entries) > 0 {
		r.Action, r.After = Unchanged, s.doc.Src
		return r, nil
	}
	var e jsonedit.Edit
	switch {
	case s.hooks == nil:
		e, err = s.doc.AddMember(s.doc.Root, "hooks", map[string][]group{"PostToolUse": {ours}})
	case s.post == nil:
		e, err = s.doc.AddMember(s.hooks, "PostToolUse", []group{ours})
	default:
		e, err = s.doc.AppendElem(s.post, ours)
	}
	if err != nil {
		return Result{}, err
	}
	if r.After, err = jsonedit.Apply(s.doc.Src, e); err != nil {
		return Result{}, err
	}
	r.Action = Added
	if dryRun {
		return r, nil
	}
	return r, memfile.WriteFile(p, s.doc.Src, r.After)
}

// Uninstall removes the hook Install added from the settings file of the
// repository at top: the group it added, and the PostToolUse list and
// hooks object when it added them and they hold nothing else. A file left
// holding nothing (an empty object) is deleted, and .claude with it when
// that is left empty.
func Uninstall(top string, local, dryRun bool) (Result, error) {
	p := SettingsFile(top, local)
	s, err := read(p)
	if err != nil || s == nil {
		return Result{Path: p, Action: Absent}, err
	}
	r := Result{Path: p, Action: Absent, Before: s.doc.Src, After: s.doc.Src}
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
		if s, err = parse(p, out); err != nil {
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
// the PostToolUse list; else the hooks object, whichever it leaves.
func (s *settings) removal() (jsonedit.Edit, bool, error) {
	for _, en := range s.entries {
		if en.command != Command {
			continue
		}
		g := s.post.Elems[en.group]
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
		case len(s.post.Elems) > 1:
			e, err = s.doc.RemoveElem(s.post, en.group)
		case len(s.hooks.Members) > 1:
			e, err = s.doc.RemoveMember(s.hooks, s.hooks.Index("PostToolUse"))
		default:
			e, err = s.doc.RemoveMember(s.doc.Root, s.doc.Root.Index("hooks"))
		}
		return e, true, err
	}
	return jsonedit.Edit{}, false, nil
}

// State is what one settings file holds.
type State struct {
	Path      string
	Exists    bool
	Installed bool     // a PostToolUse hook runs the agent hook
	Commands  []string // the commands that run it
	Matchers  []string // their matchers
	Missing   []string // tools that none of them runs after
	Err       error    // the file cannot be read, or is not settings JSON
}

// Status reports the project and the local settings files of the
// repository at top.
func Status(top string) []State {
	var out []State
	for _, local := range []bool{false, true} {
		st := State{Path: SettingsFile(top, local)}
		s, err := read(st.Path)
		switch {
		case err != nil:
			st.Exists, st.Err = true, err
		case s != nil:
			st.Exists = true
			covered := map[string]bool{}
			for _, en := range s.entries {
				st.Installed = true
				st.Commands = append(st.Commands, en.command)
				st.Matchers = append(st.Matchers, en.matcher)
				for _, t := range Tools {
					if MatcherCovers(en.matcher, t) {
						covered[t] = true
					}
				}
			}
			if st.Installed {
				for _, t := range Tools {
					if !covered[t] {
						st.Missing = append(st.Missing, t)
					}
				}
			}
		}
		out = append(out, st)
	}
	return out
}

// MatcherCovers reports whether a Claude Code hook matcher selects tool:
// an empty matcher or "*" selects every tool; otherwise it is a regular
// expression that must match the whole name.
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
