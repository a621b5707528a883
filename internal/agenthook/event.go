// Package agenthook answers an AI agent's tool hook when the agent reads a
// memory: it parses the hook event the agent sends (Claude Code's hook
// protocol), decides whether the event is the read of a memory file of the
// repository (Locate), and verifies that memory, following each stale
// citation through the history to where its lines went (Check). It
// returns values; the CLI renders the answer. The contract is in
// docs/agent-hook.md.
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
	// PostToolUse is Claude Code's event after a tool ran.
	PostToolUse = "PostToolUse"
	// ReadTool is Claude Code's file reading tool (tool_input.file_path).
	ReadTool = "Read"
	// SerenaReadMemory is Serena's memory reading tool as Claude Code
	// names MCP tools (mcp__<server>__<tool>) for a server named serena.
	SerenaReadMemory = "mcp__serena__read_memory"
)

// MaxPayload is the largest event read: an event carries the tool's
// response (for Read, the file's content), so it may be large.
const MaxPayload = 64 << 20

// ErrEmpty is returned by Parse for an empty input.
var ErrEmpty = errors.New("no hook event on stdin")

// Event is one hook event, reduced to what the hook needs.
type Event struct {
	Name string // hook_event_name: PostToolUse, PreToolUse, …
	Tool string // tool_name
	Cwd  string // the agent's working directory
	// FilePath is the Read tool's tool_input.file_path.
	FilePath string
	// Memory is the memory name given to Serena's read_memory
	// (tool_input.memory_name; memory_file_name in older Serena versions).
	Memory string
}

// Parse reads one hook event (a JSON object). Fields of an unexpected
// type are treated as absent; input that is not a JSON object is an error.
func Parse(data []byte) (Event, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return Event{}, ErrEmpty
	}
	var raw struct {
		Name      json.RawMessage `json:"hook_event_name"`
		Tool      json.RawMessage `json:"tool_name"`
		Cwd       json.RawMessage `json:"cwd"`
		ToolInput json.RawMessage `json:"tool_input"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return Event{}, fmt.Errorf("hook event: %w", err)
	}
	ev := Event{Name: str(raw.Name), Tool: str(raw.Tool), Cwd: str(raw.Cwd)}
	var in struct {
		FilePath       json.RawMessage `json:"file_path"`
		MemoryName     json.RawMessage `json:"memory_name"`
		MemoryFileName json.RawMessage `json:"memory_file_name"`
	}
	if json.Unmarshal(raw.ToolInput, &in) == nil {
		ev.FilePath = str(in.FilePath)
		ev.Memory = str(in.MemoryName)
		if ev.Memory == "" {
			ev.Memory = str(in.MemoryFileName)
		}
	}
	return ev, nil
}

// str is a JSON string's value, "" for anything else.
func str(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// IsSerenaReadMemory reports whether tool is Serena's read_memory: as a
// server named serena registers it, or as a plugin's server whose name
// holds "serena" (mcp__plugin_serena_serena__read_memory).
func IsSerenaReadMemory(tool string) bool {
	if tool == SerenaReadMemory {
		return true
	}
	server, ok := strings.CutPrefix(tool, "mcp__")
	if !ok {
		return false
	}
	server, ok = strings.CutSuffix(server, "__read_memory")
	return ok && strings.Contains(server, "serena")
}

// MemoryRead reports whether the event is, by its shape, the read of a
// memory: a PostToolUse of Read with a file, or of Serena's read_memory
// with a name. Locate decides whether it is a memory of the repository.
func (ev Event) MemoryRead() bool {
	if ev.Name != PostToolUse {
		return false
	}
	switch {
	case ev.Tool == ReadTool:
		return ev.FilePath != ""
	case IsSerenaReadMemory(ev.Tool):
		return ev.Memory != ""
	}
	return false
}

// SerenaDir is where Serena keeps a project's memories.
const SerenaDir = ".serena/memories"

// Locate returns the memory file the event reads, relative to the
// repository root top, and the memory directory it lies in, when it is a
// memory of the repository: a file below one of dirs that store.Find
// would list. A Read names the file (relative paths are taken from the
// event's cwd); Serena names a memory of .serena/memories, with or
// without .md ("global/" memories are not the repository's).
func Locate(ev Event, top string, dirs []string) (rel, dir string, ok bool) {
	if !ev.MemoryRead() {
		return "", "", false
	}
	if ev.Tool == ReadTool {
		p := ev.FilePath
		if !filepath.IsAbs(p) {
			if ev.Cwd == "" {
				return "", "", false
			}
			p = filepath.Join(ev.Cwd, p)
		}
		rel, ok = inside(top, p)
	} else {
		name := strings.ReplaceAll(ev.Memory, ".md", "") // Serena's own rule
		if name == "" || strings.HasPrefix(name, "global/") {
			return "", "", false
		}
		rel = path.Join(SerenaDir, name+".md")
		ok = strings.HasPrefix(rel, SerenaDir+"/")
	}
	if !ok {
		return "", "", false
	}
	rel, err := source.Clean(rel)
	if err != nil {
		return "", "", false
	}
	if dir, ok = store.DirOf(rel, dirs); !ok {
		return "", "", false
	}
	return rel, dir, true
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
