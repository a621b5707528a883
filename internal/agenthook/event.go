// Package agenthook answers an AI agent's hooks: it parses the hook event
// the agent sends (Claude Code's protocol, and those of Gemini CLI, Codex,
// GitHub Copilot and VS Code, which use the same field names), decides
// whether it is the read or the write of a memory file of the repository
// (Kind, LocateAll) or a session starting, and checks: a memory read is
// verified, each stale citation followed through the history to where
// its lines went (Check); a memory written is verified against the
// working tree with what is there instead (CheckWritten); a session start
// counts the stale memories (Survey). It returns values; the CLI renders
// the answer. The contract is in docs/agent-hook.md.
package agenthook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
)

// The events and tools the hook answers.
const (
	// PostToolUse is Claude Code's event after a tool ran (also Codex's,
	// VS Code's and GitHub Copilot's in their Claude-compatible form).
	PostToolUse = "PostToolUse"
	// AfterTool is Gemini CLI's event after a tool ran.
	AfterTool = "AfterTool"
	// SessionStartEvent is the event of a session starting (Claude Code,
	// Gemini CLI, Codex, VS Code).
	SessionStartEvent = "SessionStart"
	// ReadTool is Claude Code's file reading tool (tool_input.file_path).
	ReadTool = "Read"
	// SerenaReadMemory is Serena's memory reading tool as Claude Code
	// names MCP tools (mcp__<server>__<tool>) for a server named serena.
	SerenaReadMemory = "mcp__serena__read_memory"
)

// Kind is what an event is to the hook.
type Kind int

// Kinds of events.
const (
	NotOurs      Kind = iota // anything else: no answer
	Read                     // a tool read a file or a Serena memory
	Write                    // a tool wrote or edited a file or a Serena memory
	SessionStart             // a session starts
)

func (k Kind) String() string {
	return [...]string{"not ours", "read", "write", "session start"}[k]
}

// afterTool and sessionStart are the event names, per agent, of "a tool
// ran" and "a session starts" (GitHub Copilot CLI also spells them in
// camelCase).
var (
	afterTool    = map[string]bool{PostToolUse: true, AfterTool: true, "postToolUse": true}
	sessionStart = map[string]bool{SessionStartEvent: true, "sessionStart": true}
)

// readTools and writeTools are the agents' own file tools whose input
// names the file: Claude Code's (Read; Write, Edit, MultiEdit), Gemini
// CLI's (read_file; write_file, replace), GitHub Copilot CLI's (view;
// create, edit), VS Code's (readFile; createFile, editFiles) and Codex's
// apply_patch, whose input is a patch naming its files.
var (
	readTools  = map[string]bool{ReadTool: true, "read_file": true, "view": true, "readFile": true}
	writeTools = map[string]bool{"Write": true, "Edit": true, "MultiEdit": true, "write_file": true, "replace": true,
		"create": true, "edit": true, "createFile": true, "editFiles": true, "apply_patch": true}
)

// MaxPayload is the largest event read: an event carries the tool's
// response (for Read, the file's content), so it may be large.
const MaxPayload = 64 << 20

// ErrEmpty is returned by Parse for an empty input.
var ErrEmpty = errors.New("no hook event on stdin")

// Event is one hook event, reduced to what the hook needs. The fields are
// found by their names in the event itself, whichever agent sent it.
type Event struct {
	// Name is hook_event_name (hookEventName in VS Code's events):
	// PostToolUse, AfterTool, SessionStart, …
	Name string
	Tool string // tool_name
	Cwd  string // the agent's working directory
	// FilePath is the file a file tool read or wrote: tool_input's
	// file_path (Claude Code, Gemini CLI), absolute_path (older Gemini
	// CLI), path (GitHub Copilot CLI), filePath, or the first of files
	// (VS Code).
	FilePath string
	// Patch is the patch of Codex's apply_patch (tool_input.command, or
	// input or patch), which names the files it adds and updates.
	Patch string
	// Memory is the memory name given to Serena's memory tools
	// (tool_input.memory_name; memory_file_name in older Serena versions).
	Memory string
	// Content is the whole text a tool wrote (tool_input.content of
	// Write, write_file; Serena's write_memory), "" when the tool edits
	// part of a file.
	Content string
}

// Parse reads one hook event (a JSON object). Fields of an unexpected
// type are treated as absent; input that is not a JSON object is an error.
func Parse(data []byte) (Event, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return Event{}, ErrEmpty
	}
	var raw struct {
		Name      json.RawMessage `json:"hook_event_name"`
		NameCamel json.RawMessage `json:"hookEventName"` // VS Code's common field
		Tool      json.RawMessage `json:"tool_name"`
		Cwd       json.RawMessage `json:"cwd"`
		ToolInput json.RawMessage `json:"tool_input"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return Event{}, fmt.Errorf("hook event: %w", err)
	}
	ev := Event{Name: first(str(raw.Name), str(raw.NameCamel)), Tool: str(raw.Tool), Cwd: str(raw.Cwd)}
	var in struct {
		FilePath       json.RawMessage `json:"file_path"`
		AbsolutePath   json.RawMessage `json:"absolute_path"`
		Path           json.RawMessage `json:"path"`
		FilePathCamel  json.RawMessage `json:"filePath"`
		Files          json.RawMessage `json:"files"`
		Command        json.RawMessage `json:"command"`
		Input          json.RawMessage `json:"input"`
		Patch          json.RawMessage `json:"patch"`
		MemoryName     json.RawMessage `json:"memory_name"`
		MemoryFileName json.RawMessage `json:"memory_file_name"`
		Content        json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw.ToolInput, &in) == nil {
		ev.FilePath = first(str(in.FilePath), str(in.AbsolutePath), str(in.Path), str(in.FilePathCamel), firstOf(in.Files))
		if ev.Tool == "apply_patch" {
			ev.Patch = first(str(in.Command), str(in.Input), str(in.Patch))
		}
		ev.Memory = first(str(in.MemoryName), str(in.MemoryFileName))
		ev.Content = str(in.Content)
	}
	return ev, nil
}

// first is the first non-empty string of ss.
func first(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// firstOf is the first element of a JSON array of strings.
func firstOf(raw json.RawMessage) string {
	var ss []json.RawMessage
	if json.Unmarshal(raw, &ss) != nil || len(ss) == 0 {
		return ""
	}
	return str(ss[0])
}

// str is a JSON string's value, "" for anything else.
func str(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// serenaOp returns the Serena memory tool tool is — "read_memory",
// "write_memory" or "edit_memory" — under the names agents give MCP
// tools: mcp__<server>__<tool> (Claude Code, Codex, Gemini CLI, with a
// server whose name holds "serena", such as a plugin's
// mcp__plugin_serena_serena__read_memory), mcp_<server>_<tool>, or the
// tool's own name (Gemini CLI registers an MCP tool under it when no
// other tool has it); "" for any other tool.
func serenaOp(tool string) string {
	for _, op := range []string{"read_memory", "write_memory", "edit_memory"} {
		if tool == op {
			return op
		}
		rest, ok := strings.CutSuffix(tool, "_"+op)
		if !ok {
			continue
		}
		if server, ok := strings.CutPrefix(rest, "mcp_"); ok && strings.Contains(server, "serena") {
			return op
		}
	}
	return ""
}

// IsSerenaReadMemory reports whether tool is Serena's read_memory, under
// any of the names serenaOp knows.
func IsSerenaReadMemory(tool string) bool { return serenaOp(tool) == "read_memory" }

// Kind says what the event is to the hook: the read or the write of a
// file or a Serena memory (by its shape: a file tool with a file, a
// memory tool with a name; LocateAll decides whether it is a memory of the
// repository), a session starting, or nothing the hook answers.
func (ev Event) Kind() Kind {
	switch {
	case sessionStart[ev.Name]:
		return SessionStart
	case !afterTool[ev.Name]:
		return NotOurs
	}
	if op := serenaOp(ev.Tool); op != "" {
		switch {
		case ev.Memory == "":
			return NotOurs
		case op == "read_memory":
			return Read
		}
		return Write
	}
	switch {
	case readTools[ev.Tool] && ev.FilePath != "":
		return Read
	case writeTools[ev.Tool] && (ev.FilePath != "" || ev.Patch != ""):
		return Write
	}
	return NotOurs
}

// MemoryRead reports whether the event is, by its shape, the read of a
// memory.
func (ev Event) MemoryRead() bool { return ev.Kind() == Read }

// SerenaDir is where Serena keeps a project's memories.
const SerenaDir = ".serena/memories"

// Target is a memory file an event reads or writes: its path relative
// to the repository's top, and the memory directory it lies in.
type Target struct {
	Rel, Dir string
}

// Locate returns the memory file the event reads or writes (the first,
// for a patch naming several), relative to the repository root top, and
// the memory directory it lies in (LocateAll).
func Locate(ev Event, top string, dirs []string) (rel, dir string, ok bool) {
	ts := LocateAll(ev, top, dirs)
	if len(ts) == 0 {
		return "", "", false
	}
	return ts[0].Rel, ts[0].Dir, true
}

// LocateAll returns the memory files of the repository at top that the
// event reads or writes: files below one of dirs that store.Find would
// list. A file tool names the file (relative paths are taken from the
// event's cwd), a patch names the files it adds, updates or moves to;
// Serena names a memory of .serena/memories, with or without .md
// ("global/" memories are not the repository's).
func LocateAll(ev Event, top string, dirs []string) []Target {
	kind := ev.Kind()
	if kind != Read && kind != Write {
		return nil
	}
	var rels []string
	switch {
	case serenaOp(ev.Tool) != "":
		name := strings.ReplaceAll(ev.Memory, ".md", "") // Serena's own rule
		if name == "" || strings.HasPrefix(name, "global/") {
			return nil
		}
		rel := path.Join(SerenaDir, name+".md")
		if strings.HasPrefix(rel, SerenaDir+"/") {
			rels = append(rels, rel)
		}
	case ev.Patch != "":
		for _, p := range PatchFiles(ev.Patch) {
			if rel, ok := fileIn(top, ev.Cwd, p); ok {
				rels = append(rels, rel)
			}
		}
	default:
		if rel, ok := fileIn(top, ev.Cwd, ev.FilePath); ok {
			rels = append(rels, rel)
		}
	}
	var out []Target
	seen := map[string]bool{}
	for _, rel := range rels {
		rel, err := source.Clean(rel)
		if err != nil || seen[rel] {
			continue
		}
		if dir, ok := store.DirOf(rel, dirs); ok {
			seen[rel] = true
			out = append(out, Target{Rel: rel, Dir: dir})
		}
	}
	return out
}

// fileIn is p (relative paths taken from cwd) relative to top, when it
// lies inside.
func fileIn(top, cwd, p string) (string, bool) {
	if !filepath.IsAbs(p) {
		if cwd == "" {
			return "", false
		}
		p = filepath.Join(cwd, p)
	}
	return inside(top, p)
}

// PatchFiles lists the files a patch in Codex's apply_patch format adds,
// updates or moves to ("*** Add File: <path>", "*** Update File: <path>",
// "*** Move to: <path>"); deleted files are not listed.
func PatchFiles(patch string) []string {
	var out []string
	for _, l := range strings.Split(patch, "\n") {
		l = strings.TrimRight(l, "\r")
		for _, h := range []string{"*** Add File: ", "*** Update File: ", "*** Move to: "} {
			if p, ok := strings.CutPrefix(l, h); ok && strings.TrimSpace(p) != "" {
				out = append(out, strings.TrimSpace(p))
			}
		}
	}
	return out
}

// inside returns p relative to top when it lies inside it, also when top
// or a directory above p is reached through a symbolic link (macOS's
// /tmp). The file itself is not followed.
func inside(top, p string) (string, bool) {
	if rel, ok := below(top, p); ok {
		return rel, true
	}
	rt, err1 := filepath.EvalSymlinks(top)
	rd, err2 := filepath.EvalSymlinks(filepath.Dir(p))
	if err1 != nil || err2 != nil {
		return "", false
	}
	return below(rt, filepath.Join(rd, filepath.Base(p)))
}

func below(top, p string) (string, bool) {
	rel, err := filepath.Rel(top, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
