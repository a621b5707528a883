package agentinstall

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// oldClaude is what install wrote before it had SessionStart, the
// plugin's Serena spelling and the missing-binary guard.
const oldClaude = `{
  "model": "opus",
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Edit|Write",
        "hooks": [{"type": "command", "command": "gofmt -l ."}]
      },
      {
        "matcher": "Read|mcp__serena__read_memory",
        "hooks": [
          {
            "type": "command",
            "command": "git memcite agent-hook"
          }
        ]
      }
    ]
  }
}
`

// An old install is reported as outdated, missing the plugin's spelling
// and unguarded; install brings its group up to date in place and adds
// SessionStart; uninstall then takes both out.
func TestUpgrade(t *testing.T) {
	top := writeSettings(t, false, oldClaude)
	st := StatusOf(top, Claude)[0]
	if !st.Installed || !st.Outdated || len(st.Unguarded) != 1 || !reflect.DeepEqual(st.Events, []string{"SessionStart"}) {
		t.Errorf("status of the old install: %+v", st)
	}
	missesPlugin := false
	for _, m := range st.Missing {
		missesPlugin = missesPlugin || m == "mcp__plugin_serena_serena__read_memory"
	}
	if !missesPlugin {
		t.Errorf("the old matcher covers the plugin's read_memory? missing %v", st.Missing)
	}
	r, err := Install(top, Claude, false, false)
	if err != nil || r.Action != Added {
		t.Fatalf("install: %v %v", r.Action, err)
	}
	got := string(r.After)
	want := strings.Replace(strings.Replace(oldClaude,
		`"matcher": "Read|mcp__serena__read_memory"`, `"matcher": "`+Claude.Events[0].Matcher+`"`, 1),
		`"command": "git memcite agent-hook"`, `"command": "`+Command+`"`, 1)
	if !strings.HasPrefix(got, strings.TrimSuffix(want, "    ]\n  }\n}\n")) {
		t.Errorf("the old group was not updated in place:\n%s", got)
	}
	st = StatusOf(top, Claude)[0]
	if st.Outdated || len(st.Missing) != 0 || len(st.Unguarded) != 0 || len(st.Events) != 0 {
		t.Errorf("status after install: %+v", st)
	}
	if r, err := Install(top, Claude, false, false); err != nil || r.Action != Unchanged {
		t.Errorf("install again: %v %v", r.Action, err)
	}
	if r, err := Uninstall(top, Claude, false, false); err != nil || r.Action != Removed || len(r.Others) != 0 {
		t.Fatalf("uninstall: %+v %v", r, err)
	}
	back, _ := os.ReadFile(Claude.SettingsFile(top, false))
	if strings.Contains(string(back), "agent-hook") || !strings.Contains(string(back), "gofmt -l .") {
		t.Errorf("after uninstall:\n%s", back)
	}
}

// Settings in the form each agent's hooks reference shows (docs/agent-hook.md
// names the pages): install adds the agent's events, keeps everything
// else byte for byte, and uninstall gives the file back.
func TestAgentRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		agent Agent
		src   string
		event string // the event the hook runs after tools on
	}{
		{Gemini, `{
  "general": {
    "vimMode": true
  },
  "hooks": {
    "BeforeTool": [
      {
        "matcher": "write_file|replace",
        "hooks": [
          {
            "name": "security-check",
            "type": "command",
            "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/security.sh",
            "timeout": 5000
          }
        ]
      }
    ]
  }
}
`, "AfterTool"},
		{Codex, `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "/usr/bin/python3 \"$(git rev-parse --show-toplevel)/.codex/hooks/pre_tool_use_policy.py\"",
            "statusMessage": "Checking Bash command"
          }
        ]
      }
    ]
  }
}
`, "PostToolUse"},
		{Claude, teamSettings, "PostToolUse"},
	} {
		t.Run(tc.agent.Name, func(t *testing.T) {
			top := t.TempDir()
			p := tc.agent.SettingsFile(top, false)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			if st := StatusOf(top, tc.agent)[0]; !st.Exists || st.Installed {
				t.Errorf("status before: %+v", st)
			}
			r, err := Install(top, tc.agent, false, false)
			if err != nil || r.Action != Added {
				t.Fatalf("install: %v %v", r.Action, err)
			}
			var after struct {
				Hooks map[string][]group `json:"hooks"`
			}
			if err := json.Unmarshal(r.After, &after); err != nil {
				t.Fatal(err)
			}
			for _, ev := range tc.agent.Events {
				gs := after.Hooks[ev.Name]
				if len(gs) == 0 || !reflect.DeepEqual(gs[len(gs)-1], groupFor(ev)) {
					t.Errorf("%s: %+v", ev.Name, gs)
				}
			}
			if tc.agent.Events[0].Name != tc.event {
				t.Errorf("the tools event is %s", tc.agent.Events[0].Name)
			}
			st := StatusOf(top, tc.agent)[0]
			if !st.Installed || len(st.Missing) != 0 || len(st.Events) != 0 || len(st.Unguarded) != 0 {
				t.Errorf("status: %+v", st)
			}
			if r, err := Install(top, tc.agent, false, false); err != nil || r.Action != Unchanged {
				t.Errorf("install again: %v %v", r.Action, err)
			}
			if r, err := Uninstall(top, tc.agent, false, false); err != nil || r.Action != Removed {
				t.Fatalf("uninstall: %v %v", r.Action, err)
			}
			if back, _ := os.ReadFile(p); string(back) != tc.src {
				t.Errorf("uninstall gives\n%s\nwant\n%s", back, tc.src)
			}
		})
	}
}

// Every tool the hook answers is covered by the installed matcher, under
// each spelling (Serena as a plugin, Gemini's MCP names).
func TestMatchersCoverTools(t *testing.T) {
	for _, a := range Agents {
		for _, tool := range a.Tools {
			if !MatcherCovers(a.Events[0].Matcher, tool) {
				t.Errorf("%s: matcher %q misses %s", a.Name, a.Events[0].Matcher, tool)
			}
		}
	}
	for _, tool := range []string{"mcp__plugin_serena_serena__read_memory", "mcp__serena-dev__write_memory"} {
		if !MatcherCovers(Claude.Events[0].Matcher, tool) {
			t.Errorf("claude misses %s", tool)
		}
	}
	if MatcherCovers(Claude.Events[0].Matcher, "Bash") || MatcherCovers(Claude.Events[0].Matcher, "mcp__github__read_memory") {
		t.Error("the matcher runs the hook after tools it does not answer")
	}
}

// The installed command does nothing, exit 0 and no output, when
// git-memcite is not installed; the command install wrote before failed
// there with "'memcite' is not a git command".
func TestCommandWithoutBinary(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the command is a POSIX shell command")
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	bin := t.TempDir() // git alone, no git-memcite
	if err := os.Symlink(git, filepath.Join(bin, "git")); err != nil {
		t.Fatal(err)
	}
	run := func(cmd string) (string, error) {
		c := exec.Command(sh, "-c", cmd)
		c.Env = append(os.Environ(), "PATH="+bin, "GIT_EXEC_PATH="+t.TempDir())
		c.Stdin = strings.NewReader(`{"hook_event_name": "PostToolUse", "tool_name": "Read"}`)
		var out bytes.Buffer
		c.Stdout, c.Stderr = &out, &out
		err := c.Run()
		return out.String(), err
	}
	if out, err := run(Command); err != nil || out != "" {
		t.Errorf("%s: %v, %q; want exit 0 and nothing", Command, err, out)
	}
	if out, err := run(legacyCommands[0]); err == nil || !strings.Contains(out, "memcite") {
		t.Errorf("%s without git-memcite: %v, %q; want the failure the guard prevents", legacyCommands[0], err, out)
	}
	for cmd, want := range map[string]bool{
		Command:                  true,
		"git memcite agent-hook": false,
		"git memcite agent-hook 2>/dev/null || true":             true,
		"which git-memcite >/dev/null && git memcite agent-hook": true,
	} {
		if Guarded(cmd) != want {
			t.Errorf("Guarded(%q) = %v", cmd, !want)
		}
	}
}
