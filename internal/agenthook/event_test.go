package agenthook

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestParse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     Event
		err      bool
	}{
		{name: "read", in: `{"hook_event_name": "PostToolUse", "tool_name": "Read", "cwd": "/r", "tool_input": {"file_path": "/r/a.md", "offset": 3}, "tool_response": {"file": {"content": "x"}}}`,
			want: Event{Name: "PostToolUse", Tool: "Read", Cwd: "/r", FilePath: "/r/a.md"}},
		{name: "serena", in: `{"hook_event_name": "PostToolUse", "tool_name": "mcp__serena__read_memory", "tool_input": {"memory_name": "auth/flow"}}`,
			want: Event{Name: "PostToolUse", Tool: "mcp__serena__read_memory", Memory: "auth/flow"}},
		{name: "older serena", in: `{"hook_event_name": "PostToolUse", "tool_name": "mcp__serena__read_memory", "tool_input": {"memory_file_name": "flow.md"}}`,
			want: Event{Name: "PostToolUse", Tool: "mcp__serena__read_memory", Memory: "flow.md"}},
		{name: "gemini read_file", in: `{"hook_event_name": "AfterTool", "tool_name": "read_file", "tool_input": {"absolute_path": "/r/a.md"}}`,
			want: Event{Name: "AfterTool", Tool: "read_file", FilePath: "/r/a.md"}},
		{name: "copilot view", in: `{"hook_event_name": "PostToolUse", "tool_name": "view", "tool_input": {"path": "a.md"}}`,
			want: Event{Name: "PostToolUse", Tool: "view", FilePath: "a.md"}},
		{name: "vs code files", in: `{"hook_event_name": "PostToolUse", "tool_name": "editFiles", "tool_input": {"files": ["a.md", "b.md"]}}`,
			want: Event{Name: "PostToolUse", Tool: "editFiles", FilePath: "a.md"}},
		{name: "codex apply_patch", in: `{"hook_event_name": "PostToolUse", "tool_name": "apply_patch", "tool_input": {"command": "*** Begin Patch"}}`,
			want: Event{Name: "PostToolUse", Tool: "apply_patch", Patch: "*** Begin Patch"}},
		{name: "vs code event name", in: `{"hookEventName": "PostToolUse", "sessionId": "s", "cwd": "/r", "tool_name": "editFiles", "tool_input": {"files": ["/r/a.md"]}}`,
			want: Event{Name: "PostToolUse", Tool: "editFiles", Cwd: "/r", FilePath: "/r/a.md"}},
		{name: "write content", in: `{"hook_event_name": "PostToolUse", "tool_name": "Write", "tool_input": {"file_path": "/r/a.md", "content": "---\n"}}`,
			want: Event{Name: "PostToolUse", Tool: "Write", FilePath: "/r/a.md", Content: "---\n"}},
		{name: "both names: memory_name wins", in: `{"tool_input": {"memory_file_name": "old", "memory_name": "new"}}`, want: Event{Memory: "new"}},
		{name: "wrong types are absent", in: `{"hook_event_name": 3, "tool_name": ["Read"], "cwd": null, "tool_input": {"file_path": {"x": 1}}}`, want: Event{}},
		{name: "tool_input not an object", in: `{"tool_name": "Read", "tool_input": "a.md"}`, want: Event{Tool: "Read"}},
		{name: "empty", in: " \n", err: true},
		{name: "malformed", in: `{"hook_event_name": "PostToolUse"`, err: true},
		{name: "an array", in: `[1]`, err: true},
		{name: "a string", in: `"PostToolUse"`, err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse([]byte(tc.in))
			if (err != nil) != tc.err || got != tc.want {
				t.Errorf("got %+v, %v; want %+v (error: %v)", got, err, tc.want, tc.err)
			}
		})
	}
	if _, err := Parse(nil); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty input: %v; want ErrEmpty", err)
	}
}

func TestLocate(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(top, link); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(top, ".serena", "memories"), 0o755); err != nil {
		t.Fatal(err)
	}
	dirs := []string{".serena/memories", "docs/mem"}
	read := func(p string) Event { return Event{Name: PostToolUse, Tool: ReadTool, Cwd: top, FilePath: p} }
	serena := func(n string) Event { return Event{Name: PostToolUse, Tool: SerenaReadMemory, Cwd: top, Memory: n} }
	for _, tc := range []struct {
		name     string
		ev       Event
		rel, dir string
	}{
		{"absolute path", read(filepath.Join(top, ".serena/memories/a.md")), ".serena/memories/a.md", ".serena/memories"},
		{"second directory, nested", read(filepath.Join(top, "docs/mem/x/y.md")), "docs/mem/x/y.md", "docs/mem"},
		{"relative to cwd", read(".serena/memories/a.md"), ".serena/memories/a.md", ".serena/memories"},
		{"through a symlink", read(filepath.Join(link, ".serena/memories/a.md")), ".serena/memories/a.md", ".serena/memories"},
		{"not a memory directory", read(filepath.Join(top, "src/a.md")), "", ""},
		{"not markdown", read(filepath.Join(top, ".serena/memories/a.txt")), "", ""},
		{"README is not a memory", read(filepath.Join(top, ".serena/memories/README.md")), "", ""},
		{"hidden folder", read(filepath.Join(top, ".serena/memories/.obsidian/a.md")), "", ""},
		{"outside the repository", read(filepath.Join(filepath.Dir(top), "other/.serena/memories/a.md")), "", ""},
		{"into .git", read(filepath.Join(top, ".git/.serena/memories/a.md")), "", ""},
		{"serena name", serena("a"), ".serena/memories/a.md", ".serena/memories"},
		{"serena name with .md", serena("a.md"), ".serena/memories/a.md", ".serena/memories"},
		{"serena topic", serena("auth/login"), ".serena/memories/auth/login.md", ".serena/memories"},
		{"serena global", serena("global/style"), "", ""},
		{"serena escape", serena("../../etc/passwd"), "", ""},
		{"pre tool use", Event{Name: "PreToolUse", Tool: ReadTool, FilePath: filepath.Join(top, ".serena/memories/a.md")}, "", ""},
		{"another tool", Event{Name: PostToolUse, Tool: "Bash", FilePath: filepath.Join(top, ".serena/memories/a.md")}, "", ""},
		{"a write", Event{Name: PostToolUse, Tool: "Edit", FilePath: filepath.Join(top, ".serena/memories/a.md")}, ".serena/memories/a.md", ".serena/memories"},
		{"gemini read", Event{Name: AfterTool, Tool: "read_file", Cwd: top, FilePath: ".serena/memories/a.md"}, ".serena/memories/a.md", ".serena/memories"},
		{"serena write", Event{Name: PostToolUse, Tool: "mcp__plugin_serena_serena__write_memory", Memory: "a", Content: "x"}, ".serena/memories/a.md", ".serena/memories"},
		{"codex patch", Event{Name: PostToolUse, Tool: "apply_patch", Cwd: top, Patch: "*** Begin Patch\n*** Update File: src/a.go\n@@\n-x\n+y\n*** Add File: docs/mem/n.md\n+hi\n*** End Patch\n"}, "docs/mem/n.md", "docs/mem"},
		{"session start", Event{Name: SessionStartEvent, Cwd: top}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rel, dir, ok := Locate(tc.ev, top, dirs)
			if rel != tc.rel || dir != tc.dir || ok != (tc.rel != "") {
				t.Errorf("got %q, %q, %v; want %q, %q", rel, dir, ok, tc.rel, tc.dir)
			}
		})
	}
	// Serena's memories are found only where the memory directories are
	if _, _, ok := Locate(serena("a"), top, []string{"docs/mem"}); ok {
		t.Error("a Serena memory outside the memory directories was located")
	}
}

func TestIsSerenaReadMemory(t *testing.T) {
	t.Parallel()
	for tool, want := range map[string]bool{
		"mcp__serena__read_memory":               true,
		"mcp__plugin_serena_serena__read_memory": true,
		"mcp__other__read_memory":                false,
		"mcp__serena__write_memory":              false,
		"read_memory":                            true, // Gemini CLI: an MCP tool under its own name
		"mcp_serena_read_memory":                 true,
		"mcp__github__read_memory_bank":          false,
		"Read":                                   false,
	} {
		if got := IsSerenaReadMemory(tool); got != want {
			t.Errorf("%s: %v; want %v", tool, got, want)
		}
	}
}

func TestKind(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		ev   Event
		want Kind
	}{
		{Event{Name: PostToolUse, Tool: "Read", FilePath: "a.md"}, Read},
		{Event{Name: PostToolUse, Tool: "Read"}, NotOurs},
		{Event{Name: AfterTool, Tool: "read_file", FilePath: "a.md"}, Read},
		{Event{Name: PostToolUse, Tool: "Write", FilePath: "a.md"}, Write},
		{Event{Name: PostToolUse, Tool: "MultiEdit", FilePath: "a.md"}, Write},
		{Event{Name: AfterTool, Tool: "replace", FilePath: "a.md"}, Write},
		{Event{Name: PostToolUse, Tool: "apply_patch", Patch: "*** Begin Patch"}, Write},
		{Event{Name: PostToolUse, Tool: "mcp__serena__read_memory", Memory: "a"}, Read},
		{Event{Name: PostToolUse, Tool: "mcp__plugin_serena_serena__read_memory", Memory: "a"}, Read},
		{Event{Name: PostToolUse, Tool: "mcp__serena__edit_memory", Memory: "a"}, Write},
		{Event{Name: AfterTool, Tool: "write_memory", Memory: "a"}, Write},
		{Event{Name: PostToolUse, Tool: "mcp__serena__write_memory"}, NotOurs},
		{Event{Name: "PreToolUse", Tool: "Read", FilePath: "a.md"}, NotOurs},
		{Event{Name: "BeforeTool", Tool: "read_file", FilePath: "a.md"}, NotOurs},
		{Event{Name: PostToolUse, Tool: "Bash", FilePath: "a.md"}, NotOurs},
		{Event{Name: SessionStartEvent}, SessionStart},
		{Event{Name: "sessionStart"}, SessionStart},
		{Event{Name: "Stop"}, NotOurs},
		{Event{}, NotOurs},
	} {
		if got := tc.ev.Kind(); got != tc.want {
			t.Errorf("%+v: %s; want %s", tc.ev, got, tc.want)
		}
	}
}

func TestPatchFiles(t *testing.T) {
	t.Parallel()
	patch := "*** Begin Patch\r\n*** Update File: a/b.md\r\n*** Move to: c/d.md\r\n@@\r\n-x\r\n+y\r\n*** Delete File: gone.md\r\n*** Add File: new.md\r\n+z\r\n*** End Patch"
	got := PatchFiles(patch)
	want := []string{"a/b.md", "c/d.md", "new.md"}
	if len(got) != len(want) {
		t.Fatalf("got %q; want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("got %q; want %q", got, want)
		}
	}
}

// FuzzParse: any input parses or is refused without a panic; what parses
// is a JSON object, and an event whose fields are strings reads back the
// same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"hook_event_name": "PostToolUse", "tool_name": "Read", "cwd": "/r", "tool_input": {"file_path": "/r/a.md"}}`,
		`{"tool_input": {"memory_name": "a", "memory_file_name": "b"}}`,
		`{"tool_input": null}`, `[]`, ``, `{`, `{"tool_input": {"file_path": "\u00e9\ud800"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := Parse(data)
		if err != nil {
			return
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(data, &obj) != nil {
			t.Fatalf("Parse accepted %q, which is not a JSON object", data)
		}
		b, err := json.Marshal(map[string]any{"hook_event_name": ev.Name, "tool_name": ev.Tool, "cwd": ev.Cwd,
			"tool_input": map[string]string{"file_path": ev.FilePath, "memory_name": ev.Memory, "command": ev.Patch, "content": ev.Content}})
		if err != nil {
			t.Fatal(err)
		}
		again, err := Parse(b)
		if err != nil || again != ev {
			t.Fatalf("%+v does not read back: %+v, %v", ev, again, err)
		}
		_ = ev.Kind()
		_ = LocateAll(ev, "/repo", []string{".serena/memories"})
		_ = PatchFiles(ev.Patch)
	})
}
