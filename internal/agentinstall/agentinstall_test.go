package agentinstall

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

const teamSettings = `{
  "permissions": {
    "allow": ["Bash(go test:*)"]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": "./scripts/guard.sh"}]
      }
    ],
    "PostToolUse": [
      {
        "matcher": "Edit|Write",
        "hooks": [
          {
            "type": "command",
            "command": "gofmt -w \"$CLAUDE_PROJECT_DIR\""
          }
        ]
      }
    ]
  },
  "model": "opus"
}
`

func writeSettings(t *testing.T, local bool, content string) string {
	t.Helper()
	top := t.TempDir()
	if content != "" {
		p := Claude.SettingsFile(top, local)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return top
}

// TestRoundTrip installs into settings files of many shapes, checks the
// result holds the original plus the hook, installs again (nothing
// changes) and uninstalls: the file is back byte for byte.
func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"other hooks, PostToolUse too", teamSettings},
		{"no hooks", "{\n  \"model\": \"opus\"\n}\n"},
		{"PreToolUse only", "{\n    \"hooks\": {\n        \"PreToolUse\": []\n    }\n}"},
		{"tabs and CRLF", "{\r\n\t\"hooks\": {\r\n\t\t\"PostToolUse\": [\r\n\t\t\t{\"matcher\": \"Edit\", \"hooks\": []}\r\n\t\t]\r\n\t}\r\n}\r\n"},
		{"one line", `{"env": {"A": "1"}, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}`},
		{"our matcher used by another hook", "{\"hooks\": {\"PostToolUse\": [{\"matcher\": \"Read|mcp__serena__read_memory\", \"hooks\": [{\"type\": \"command\", \"command\": \"log-reads\"}]}]}}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			top := writeSettings(t, false, tc.src)
			p := Claude.SettingsFile(top, false)
			r, err := Install(top, Claude, false, false)
			if err != nil || r.Action != Added {
				t.Fatalf("install: %v, %v", r.Action, err)
			}
			got, _ := os.ReadFile(p)
			var before, after map[string]any
			if err := json.Unmarshal([]byte(tc.src), &before); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(got, &after); err != nil {
				t.Fatalf("installed settings are not JSON: %v\n%s", err, got)
			}
			hooks, _ := after["hooks"].(map[string]any)
			post, _ := hooks["PostToolUse"].([]any)
			last, _ := json.Marshal(post[len(post)-1])
			if string(last) != `{"hooks":[{"command":"command -v git-memcite \u003e/dev/null 2\u003e\u00261 \u0026\u0026 git memcite agent-hook || true","type":"command"}],"matcher":"Read|Write|Edit|MultiEdit|mcp__.*serena.*__(read|write|edit)_memory"}` {
				t.Errorf("added group %s", last)
			}
			start, _ := hooks["SessionStart"].([]any)
			if first, _ := json.Marshal(start[len(start)-1]); string(first) != `{"hooks":[{"command":"command -v git-memcite \u003e/dev/null 2\u003e\u00261 \u0026\u0026 git memcite agent-hook || true","type":"command"}]}` {
				t.Errorf("added session start group %s", first)
			}
			delete(after, "hooks")
			delete(before, "hooks")
			if !reflect.DeepEqual(before, after) {
				t.Errorf("other keys changed: %v; want %v", after, before)
			}
			if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
				t.Errorf("mode %v; want 0600 kept", fi.Mode().Perm())
			}
			if r, err := Install(top, Claude, false, false); err != nil || r.Action != Unchanged {
				t.Errorf("install again: %v, %v", r.Action, err)
			}
			again, _ := os.ReadFile(p)
			if string(again) != string(got) {
				t.Error("installing again changed the file")
			}
			if r, err := Uninstall(top, Claude, false, false); err != nil || r.Action != Removed {
				t.Fatalf("uninstall: %v, %v", r.Action, err)
			}
			back, _ := os.ReadFile(p)
			if string(back) != tc.src {
				t.Errorf("uninstall gives\n%q\nwant\n%q", back, tc.src)
			}
			if r, err := Uninstall(top, Claude, false, false); err != nil || r.Action != Absent {
				t.Errorf("uninstall again: %v, %v", r.Action, err)
			}
		})
	}
}

func TestCreateAndDelete(t *testing.T) {
	for _, local := range []bool{false, true} {
		top := writeSettings(t, false, "")
		p := Claude.SettingsFile(top, local)
		if r, err := Install(top, Claude, local, true); err != nil || r.Action != Created || string(r.After) != Snippet(Claude) {
			t.Fatalf("dry run: %v %v", r.Action, err)
		}
		if _, err := os.Stat(filepath.Join(top, ".claude")); !errors.Is(err, os.ErrNotExist) {
			t.Fatal("a dry run wrote")
		}
		if r, err := Install(top, Claude, local, false); err != nil || r.Action != Created {
			t.Fatalf("install: %v %v", r.Action, err)
		}
		got, _ := os.ReadFile(p)
		if string(got) != Snippet(Claude) {
			t.Errorf("new file:\n%s\nwant\n%s", got, Snippet(Claude))
		}
		if st := StatusOf(top, Claude); st[boolIndex(local)].Installed != true || len(st[boolIndex(local)].Missing) != 0 || st[1-boolIndex(local)].Exists {
			t.Errorf("status %+v", st)
		}
		if r, err := Uninstall(top, Claude, local, false); err != nil || r.Action != Deleted {
			t.Fatalf("uninstall: %v %v", r.Action, err)
		}
		if _, err := os.Stat(filepath.Join(top, ".claude")); !errors.Is(err, os.ErrNotExist) {
			t.Error(".claude left behind")
		}
	}
	// .claude holding something else stays
	top := writeSettings(t, false, "")
	if err := os.MkdirAll(filepath.Join(top, ".claude", "commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(top, Claude, false, false); err != nil {
		t.Fatal(err)
	}
	if _, err := Uninstall(top, Claude, false, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(top, ".claude", "commands")); err != nil {
		t.Error(err)
	}
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestSnippet(t *testing.T) {
	want := `{
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Read|Write|Edit|MultiEdit|mcp__.*serena.*__(read|write|edit)_memory",
        "hooks": [
          {
            "type": "command",
            "command": "command -v git-memcite >/dev/null 2>&1 && git memcite agent-hook || true"
          }
        ]
      }
    ],
    "SessionStart": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "command -v git-memcite >/dev/null 2>&1 && git memcite agent-hook || true"
          }
        ]
      }
    ]
  }
}
`
	if Snippet(Claude) != want {
		t.Errorf("got\n%s\nwant\n%s", Snippet(Claude), want)
	}
	// a new file holds what adding the hook to an empty object gives
	top := writeSettings(t, false, "{}\n")
	if r, err := Install(top, Claude, false, true); err != nil || string(r.After) != Snippet(Claude) {
		t.Errorf("install into {}: %v\n%s", err, r.After)
	}
}

func TestRefused(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"not JSON", "{\n  // comment\n}", "not valid JSON: line 2, column 3"},
		{"an array", "[]", "not a JSON object"},
		{"hooks not an object", `{"hooks": []}`, `"hooks" is not an object`},
		{"PostToolUse not an array", `{"hooks": {"PostToolUse": {}}}`, `"hooks"."PostToolUse" is not an array`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			top := writeSettings(t, false, tc.src)
			for _, f := range []func(string, Agent, bool, bool) (Result, error){Install, Uninstall} {
				_, err := f(top, Claude, false, false)
				var se *SettingsError
				if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) || !strings.HasSuffix(err.Error(), "; not changed") {
					t.Errorf("got %v; want %q", err, tc.want)
				}
			}
			if got, _ := os.ReadFile(Claude.SettingsFile(top, false)); string(got) != tc.src {
				t.Error("the file changed")
			}
		})
	}
}

func TestOtherSpellings(t *testing.T) {
	src := `{"hooks": {"PostToolUse": [{"matcher": "Read", "hooks": [{"type": "command", "command": "/usr/local/bin/git-memcite agent-hook"}]}]}}`
	top := writeSettings(t, false, src)
	st := StatusOf(top, Claude)[0]
	if !st.Installed || len(st.Missing) != len(Claude.Tools)-1 || st.Missing[0] != "Write" || st.Matchers[0] != "Read" ||
		!reflect.DeepEqual(st.Events, []string{"SessionStart"}) || len(st.Unguarded) != 1 || st.Outdated {
		t.Errorf("status %+v", st)
	}
	// the hand-written PostToolUse hook counts; SessionStart is added
	if r, err := Install(top, Claude, false, false); err != nil || r.Action != Added || strings.Count(string(r.After), "agent-hook") != 2 {
		t.Errorf("install: %v %v\n%s", r.Action, err, r.After)
	}
	r, err := Uninstall(top, Claude, false, false)
	if err != nil || r.Action != Removed || len(r.Others) != 1 {
		t.Errorf("uninstall: %+v %v", r, err)
	}
	if got, _ := os.ReadFile(Claude.SettingsFile(top, false)); string(got) != src {
		t.Error("a hook install did not write was removed")
	}
}

// Our command added by hand into a group of other hooks: uninstall takes
// out the command only.
func TestUninstallFromSharedGroup(t *testing.T) {
	src := "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\n        \"matcher\": \"*\",\n        \"hooks\": [\n          {\"type\": \"command\", \"command\": \"log\"},\n          {\"type\": \"command\", \"command\": \"command -v git-memcite >/dev/null 2>&1 && git memcite agent-hook || true\"}\n        ]\n      }\n    ]\n  }\n}\n"
	top := writeSettings(t, false, src)
	if r, err := Uninstall(top, Claude, false, false); err != nil || r.Action != Removed {
		t.Fatalf("%v %v", r.Action, err)
	}
	got, _ := os.ReadFile(Claude.SettingsFile(top, false))
	want := "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\n        \"matcher\": \"*\",\n        \"hooks\": [\n          {\"type\": \"command\", \"command\": \"log\"}\n        ]\n      }\n    ]\n  }\n}\n"
	if string(got) != want {
		t.Errorf("got\n%s", got)
	}
}

func TestMatcherCovers(t *testing.T) {
	for _, tc := range []struct {
		matcher, tool string
		want          bool
	}{
		{"", "Read", true}, {"*", "mcp__serena__read_memory", true},
		{"Read", "Read", true}, {"Read", "ReadFile", false},
		{"Read|mcp__serena__read_memory", "mcp__serena__read_memory", true},
		{"mcp__serena__.*", "mcp__serena__read_memory", true}, {"mcp__.*", "Read", false},
		{"Edit|Write", "Read", false}, {"(", "Read", false},
	} {
		if got := MatcherCovers(tc.matcher, tc.tool); got != tc.want {
			t.Errorf("MatcherCovers(%q, %q) = %v", tc.matcher, tc.tool, got)
		}
	}
}

func TestRunsAgentHook(t *testing.T) {
	for cmd, want := range map[string]bool{
		"git memcite agent-hook":                  true,
		"git  memcite agent-hook --repo-root x":   true,
		"/opt/bin/git-memcite agent-hook":         true,
		"cd sub && git memcite agent-hook":        true,
		"git memcite agent-hooks":                 false,
		"git memcite verify x":                    false,
		"echo git memcite agent-hook-is-not-this": false,
	} {
		if got := RunsAgentHook(cmd); got != want {
			t.Errorf("%q: %v", cmd, got)
		}
	}
}

// FuzzInstall installs into any settings object and uninstalls: the
// result of installing is JSON that holds the hook, installing again
// changes nothing, and uninstalling restores the original bytes. The
// exceptions, where the bytes cannot tell what install added: an empty
// container holding white space comes back as {} or []; an empty
// PostToolUse list or hooks object the hook went into is removed with it;
// a file left holding nothing is deleted.
func FuzzInstall(f *testing.F) {
	for _, s := range []string{teamSettings, "{}", "{\n}\n", `{"hooks": {}}`, `{"hooks": {"PostToolUse": []}}`, `{"hooks": {"SessionStart": [], "PostToolUse": [{"matcher": "Read|mcp__serena__read_memory", "hooks": [{"type": "command", "command": "git memcite agent-hook"}]}]}}`, "{\"a\": [1,\n 2]}", `{"hooks":{"PostToolUse":[{"hooks":[{"command":"git memcite agent-hook"}]}]}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		top := t.TempDir()
		p := Claude.SettingsFile(top, false)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		outdated := StatusOf(top, Claude)[0].Outdated // an old install is updated: no round trip
		r, err := Install(top, Claude, false, false)
		if err != nil {
			var se *SettingsError
			if !errors.As(err, &se) {
				t.Fatalf("install: %v", err)
			}
			return
		}
		got, _ := os.ReadFile(p)
		if st := StatusOf(top, Claude)[0]; st.Err != nil || !st.Installed {
			t.Fatalf("after install of %q: %+v\n%s", src, st, got)
		}
		if r2, err := Install(top, Claude, false, false); err != nil || r2.Action != Unchanged {
			t.Fatalf("install again: %v %v", r2.Action, err)
		}
		if r.Action == Unchanged || outdated {
			return
		}
		if _, err := Uninstall(top, Claude, false, false); err != nil {
			t.Fatalf("uninstall: %v", err)
		}
		back, err := os.ReadFile(p)
		switch {
		case errors.Is(err, os.ErrNotExist):
			if n := withoutEmptyHooks(t, []byte(src)); len(n) != 0 {
				t.Fatalf("uninstall deleted %q, which holds %v", src, n)
			}
		case string(back) == src:
		case !reflect.DeepEqual(withoutEmptyHooks(t, back), withoutEmptyHooks(t, []byte(src))):
			t.Fatalf("install and uninstall changed the meaning of\n%q\ninto\n%q", src, back)
		case !blankEmpty.MatchString(src) && reflect.DeepEqual(withoutEmptyHooks(t, []byte(src)), decodeObject(t, []byte(src))):
			t.Fatalf("install and uninstall changed\n%q\ninto\n%q", src, back)
		}
	})
}

func decodeObject(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v: %q", err, b)
	}
	return v
}

// withoutEmptyHooks is a settings object without an empty list of the
// agent's events, and then without an empty hooks object.
func withoutEmptyHooks(t *testing.T, b []byte) map[string]any {
	v := decodeObject(t, b)
	if h, ok := v["hooks"].(map[string]any); ok {
		for _, ev := range Claude.Events {
			if p, ok := h[ev.Name].([]any); ok && len(p) == 0 {
				delete(h, ev.Name)
			}
		}
		if len(h) == 0 {
			delete(v, "hooks")
		}
	}
	return v
}

var blankEmpty = regexp.MustCompile(`[\[{][ \t\r\n]+[\]}]`)
