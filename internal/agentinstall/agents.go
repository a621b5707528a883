package agentinstall

import (
	"path/filepath"
	"strings"
)

// Agent is one AI agent whose settings can run the agent hook: where its
// project settings live and which of its hook events the hook answers.
type Agent struct {
	Name  string // as given to --agent: claude, gemini, codex
	Title string // as the agent calls itself: Claude Code, …
	// Dir and File are the project's settings file, relative to the
	// repository's top; Local is the personal one beside it ("" when the
	// agent has none).
	Dir, File, Local string
	// Events are the hook events install adds, in the order it adds them.
	Events []Event
	// Tools are the tools after which the hook must run to see every
	// memory read and write (status and doctor check the matcher).
	Tools []string
}

// Event is one hook event of an agent's settings and the matcher of the
// group install adds to it ("" for none: the event has no tools).
type Event struct {
	Name    string
	Matcher string
	// Legacy are matchers earlier versions of install wrote; install
	// brings such a group up to date.
	Legacy []string
	// Tools says the event runs after tools: Agent.Tools must be covered
	// by its matcher.
	Tools bool
}

// The agents.
var (
	// Claude is Claude Code: .claude/settings.json (or settings.local.json),
	// PostToolUse after its file tools and Serena's memory tools under any
	// server name, and SessionStart.
	Claude = Agent{
		Name: "claude", Title: "Claude Code",
		Dir: ".claude", File: "settings.json", Local: "settings.local.json",
		Events: []Event{
			{Name: "PostToolUse", Matcher: "Read|Write|Edit|MultiEdit|mcp__.*serena.*__(read|write|edit)_memory",
				Legacy: []string{"Read|mcp__serena__read_memory"}, Tools: true},
			{Name: "SessionStart"},
		},
		Tools: []string{"Read", "Write", "Edit", "MultiEdit",
			"mcp__serena__read_memory", "mcp__serena__write_memory", "mcp__serena__edit_memory",
			"mcp__plugin_serena_serena__read_memory", "mcp__plugin_serena_serena__write_memory", "mcp__plugin_serena_serena__edit_memory"},
	}
	// Gemini is Gemini CLI: .gemini/settings.json, AfterTool after its
	// file tools and Serena's memory tools, and SessionStart.
	Gemini = Agent{
		Name: "gemini", Title: "Gemini CLI",
		Dir: ".gemini", File: "settings.json",
		Events: []Event{
			{Name: "AfterTool", Matcher: "read_file|write_file|replace|(mcp_.*serena.*_)?(read|write|edit)_memory", Tools: true},
			{Name: "SessionStart"},
		},
		Tools: []string{"read_file", "write_file", "replace",
			"mcp__serena__read_memory", "mcp__serena__write_memory", "mcp__serena__edit_memory", "read_memory", "write_memory"},
	}
	// Codex is OpenAI Codex: .codex/hooks.json, PostToolUse after
	// apply_patch and Serena's memory tools, and SessionStart.
	Codex = Agent{
		Name: "codex", Title: "Codex",
		Dir: ".codex", File: "hooks.json",
		Events: []Event{
			{Name: "PostToolUse", Matcher: "apply_patch|mcp__.*serena.*__(read|write|edit)_memory", Tools: true},
			{Name: "SessionStart"},
		},
		Tools: []string{"apply_patch", "mcp__serena__read_memory", "mcp__serena__write_memory", "mcp__serena__edit_memory"},
	}
)

// Agents are the agents install supports, in the order status lists them.
var Agents = []Agent{Claude, Gemini, Codex}

// Names lists the agents' names.
func Names() []string {
	var out []string
	for _, a := range Agents {
		out = append(out, a.Name)
	}
	return out
}

// Lookup returns the agent named name.
func Lookup(name string) (Agent, bool) {
	for _, a := range Agents {
		if a.Name == strings.ToLower(name) {
			return a, true
		}
	}
	return Agent{}, false
}

// SettingsFile is the agent's settings file in the repository at top:
// the project's, or with local the personal one (the project's when the
// agent has none; HasLocal tells).
func (a Agent) SettingsFile(top string, local bool) string {
	name := a.File
	if local && a.Local != "" {
		name = a.Local
	}
	return filepath.Join(top, a.Dir, name)
}

// HasLocal reports whether the agent has a personal settings file beside
// the project's.
func (a Agent) HasLocal() bool { return a.Local != "" }

// event returns the agent's event named name.
func (a Agent) event(name string) (Event, bool) {
	for _, e := range a.Events {
		if e.Name == name {
			return e, true
		}
	}
	return Event{}, false
}
