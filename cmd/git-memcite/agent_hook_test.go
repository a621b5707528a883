package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// TestAgentHookPayloads feeds the hook events in testdata/agent-hook
// (written by hand from Claude Code's hook protocol; $REPO stands for the
// repository) to `git memcite agent-hook` in the repository of
// testdata/repos/agent-hook.txtar, and compares stdout with the golden
// files (-update rewrites them). Every run exits 0 with nothing on
// stderr.
func TestAgentHookPayloads(t *testing.T) {
	repo := gitfixture.Replay(t, filepath.Join("..", "..", "testdata", "repos", "agent-hook.txtar"))
	data, err := filepath.Abs(filepath.Join("testdata", "agent-hook"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, payload string
		config        []string // git config key value, set for this case only
	}{
		{name: "read-stale", payload: "read-stale"},
		{name: "read-valid", payload: "read-valid"},
		{name: "read-valid-verbose", payload: "read-valid", config: []string{"memcite.agentHook", "verbose"}},
		{name: "read-stale-off", payload: "read-stale", config: []string{"memcite.agentHook", "off"}},
		{name: "read-other-file", payload: "read-other-file"},
		{name: "serena-memory-name", payload: "serena-memory-name"},
		{name: "serena-memory-file-name", payload: "serena-memory-file-name"},
		{name: "pre-tool-use", payload: "pre-tool-use"},
		{name: "malformed", payload: "malformed"},
		{name: "empty", payload: "empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			payload, err := os.ReadFile(filepath.Join(data, tc.payload+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if tc.config != nil {
				if _, err := gitfixture.Git(repo, 0, append([]string{"config"}, tc.config...)...); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _, _ = gitfixture.Git(repo, 0, "config", "--unset", tc.config[0]) })
			}
			got, stderr, code := agentHook(t, repo, payload)
			if code != exitOK || stderr != "" {
				t.Fatalf("exit %d, stderr %q; want 0 and nothing", code, stderr)
			}
			got = strings.ReplaceAll(got, jsonString(t, repo), "$REPO")
			if got != "" && !json.Valid([]byte(got)) {
				t.Errorf("stdout is not JSON: %q", got)
			}
			golden := filepath.Join(data, tc.name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// agentHook runs `git memcite agent-hook` in dir with payload on stdin
// ($REPO replaced by dir).
func agentHook(t *testing.T, dir string, payload []byte) (stdout, stderr string, code int) {
	t.Helper()
	in := bytes.ReplaceAll(payload, []byte("$REPO"), []byte(jsonString(t, dir)))
	var out, errb bytes.Buffer
	t.Chdir(t.TempDir()) // the event's cwd names the repository, not the process's
	code = runIO([]string{"agent-hook"}, bytes.NewReader(in), &out, &errb)
	return out.String(), errb.String(), code
}

// jsonString is s as it appears inside a JSON string.
func jsonString(t *testing.T, s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b[1 : len(b)-1])
}

// TestAgentHookDebug: with MEMCITE_DEBUG, an event that gets no answer
// says why on stderr; stdout stays empty and the exit status 0.
func TestAgentHookDebug(t *testing.T) {
	repo := gitfixture.Replay(t, filepath.Join("..", "..", "testdata", "repos", "agent-hook.txtar"))
	t.Setenv("MEMCITE_DEBUG", "1")
	for name, payload := range map[string]string{
		"malformed":  `{"hook_event_name": `,
		"not a repo": `{"hook_event_name": "PostToolUse", "tool_name": "Read", "cwd": "/nonexistent", "tool_input": {"file_path": "/nonexistent/.serena/memories/a.md"}}`,
		"other tool": `{"hook_event_name": "PostToolUse", "tool_name": "Bash", "cwd": "$REPO", "tool_input": {"command": "ls"}}`,
	} {
		t.Run(name, func(t *testing.T) {
			out, stderr, code := agentHook(t, repo, []byte(payload))
			if code != exitOK || out != "" || !strings.Contains(stderr, "agent-hook: no answer") {
				t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
			}
		})
	}
}

// TestAgentHookFixes runs the fix commands the answer names, in order:
// afterwards the memory is valid and the hook has nothing to say.
func TestAgentHookFixes(t *testing.T) {
	repo := gitfixture.Replay(t, filepath.Join("..", "..", "testdata", "repos", "agent-hook.txtar"))
	payload, err := os.ReadFile(filepath.Join("testdata", "agent-hook", "read-stale.json"))
	if err != nil {
		t.Fatal(err)
	}
	out, _, _ := agentHook(t, repo, payload)
	var ans struct {
		HookSpecificOutput struct{ AdditionalContext string }
	}
	if err := json.Unmarshal([]byte(out), &ans); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	var fixes [][]string
	for _, l := range strings.Split(ans.HookSpecificOutput.AdditionalContext, "\n") {
		_, cmd, ok := strings.Cut(l, "fix: git memcite ")
		if !ok {
			_, cmd, ok = strings.Cut(l, "Fix: git memcite ")
		}
		if ok {
			cmd, _, _ = strings.Cut(cmd, " (")
			fixes = append(fixes, strings.Fields(cmd))
		}
	}
	if len(fixes) != 3 {
		t.Fatalf("%d fix commands in\n%s", len(fixes), ans.HookSpecificOutput.AdditionalContext)
	}
	t.Chdir(repo)
	for _, args := range fixes {
		var o, e bytes.Buffer
		// relocate exits 1 while other citations remain stale
		if code := run(args, &o, &e); code != exitOK && code != exitStale {
			t.Fatalf("git memcite %s: exit %d\n%s%s", strings.Join(args, " "), code, o.String(), e.String())
		}
	}
	if out, stderr, code := agentHook(t, repo, payload); out != "" || stderr != "" || code != exitOK {
		t.Errorf("after the fixes: exit %d, stdout %q, stderr %q; want nothing", code, out, stderr)
	}
}
