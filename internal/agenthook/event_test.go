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
		{"another tool", Event{Name: PostToolUse, Tool: "Edit", FilePath: filepath.Join(top, ".serena/memories/a.md")}, "", ""},
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
		"read_memory":                            false,
	} {
		if got := IsSerenaReadMemory(tool); got != want {
			t.Errorf("%s: %v; want %v", tool, got, want)
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
			"tool_input": map[string]string{"file_path": ev.FilePath, "memory_name": ev.Memory}})
		if err != nil {
			t.Fatal(err)
		}
		again, err := Parse(b)
		if err != nil || again != ev {
			t.Fatalf("%+v does not read back: %+v, %v", ev, again, err)
		}
		_ = ev.MemoryRead()
		_, _, _ = Locate(ev, "/repo", []string{".serena/memories"})
	})
}
