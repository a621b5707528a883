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
// (written by hand from each agent's hooks reference, named in
// docs/agent-hook.md: claude-*, gemini-*, codex-*, vscode-*, and the unprefixed
// ones of Claude Code; $REPO stands for the repository) to `git memcite
// agent-hook` in the repository of testdata/repos/agent-hook.txtar, with
// the memories of the case written into its working tree as an agent
// would, and compares stdout with the golden files (-update rewrites
// them). Every run exits 0 with nothing on stderr, and every answer has
// the shape the agent's reference requires (checkAnswerShape).
func TestAgentHookPayloads(t *testing.T) {
	repo := gitfixture.Replay(t, filepath.Join("..", "..", "testdata", "repos", "agent-hook.txtar"))
	data, err := filepath.Abs(filepath.Join("testdata", "agent-hook"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, payload string
		config        []string // git config key value pairs, set for this case only
		memories      []string // testdata/agent-hook/memories/<name>.md written into .serena/memories for this case
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
		{name: "claude-write-wrong", payload: "claude-write-wrong", memories: []string{"written"}},
		{name: "claude-edit-correct", payload: "claude-edit-correct", memories: []string{"correct"}},
		{name: "claude-edit-correct-verbose", payload: "claude-edit-correct", memories: []string{"correct"}, config: []string{"memcite.agentHook", "verbose"}},
		{name: "claude-serena-plugin-read", payload: "claude-serena-plugin-read"},
		{name: "claude-serena-write-memory", payload: "claude-serena-write-memory", memories: []string{"written"}},
		{name: "claude-session-start", payload: "claude-session-start"},
		{name: "claude-session-start-clean", payload: "claude-session-start", config: []string{"memcite.ignore", "**/stale.md"}},
		{name: "claude-session-start-clean-verbose", payload: "claude-session-start", config: []string{"memcite.ignore", "**/stale.md", "memcite.agentHook", "verbose"}},
		{name: "gemini-read-file", payload: "gemini-read-file"},
		{name: "gemini-write-file", payload: "gemini-write-file", memories: []string{"written"}},
		{name: "gemini-serena-read", payload: "gemini-serena-read"},
		{name: "gemini-session-start", payload: "gemini-session-start"},
		{name: "codex-apply-patch", payload: "codex-apply-patch", memories: []string{"written"}},
		{name: "codex-serena-read", payload: "codex-serena-read"},
		{name: "codex-session-start", payload: "codex-session-start"},
		{name: "vscode-edit-files", payload: "vscode-edit-files", memories: []string{"written"}},
		{name: "vscode-session-start", payload: "vscode-session-start"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			payload, err := os.ReadFile(filepath.Join(data, tc.payload+".json"))
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i+1 < len(tc.config); i += 2 {
				key := tc.config[i]
				if _, err := gitfixture.Git(repo, 0, "config", key, tc.config[i+1]); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _, _ = gitfixture.Git(repo, 0, "config", "--unset", key) })
			}
			for _, m := range tc.memories {
				content, err := os.ReadFile(filepath.Join(data, "memories", m+".md"))
				if err != nil {
					t.Fatal(err)
				}
				p := filepath.Join(repo, ".serena", "memories", m+".md")
				if err := os.WriteFile(p, content, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = os.Remove(p) })
			}
			got, stderr, code := agentHook(t, repo, payload)
			if code != exitOK || stderr != "" {
				t.Fatalf("exit %d, stderr %q; want 0 and nothing", code, stderr)
			}
			got = strings.ReplaceAll(got, jsonString(t, repo), "$REPO")
			if got != "" {
				checkAnswerShape(t, payload, got)
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

// checkAnswerShape checks an answer against the shape every agent's
// reference requires of an answer that gives the agent text: one JSON
// object whose only member is hookSpecificOutput, holding exactly
// hookEventName — the event's own name (Claude Code's and Codex's
// PostToolUse and SessionStart, Gemini CLI's AfterTool and SessionStart)
// — and additionalContext, a non-empty string. Codex's output schemas
// allow no other member (additionalProperties: false).
func checkAnswerShape(t *testing.T, payload []byte, got string) {
	t.Helper()
	var ev struct {
		Name      string `json:"hook_event_name"`
		NameCamel string `json:"hookEventName"` // VS Code
	}
	if err := json.Unmarshal(payload, &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Name == "" {
		ev.Name = ev.NameCamel
	}
	var out map[string]map[string]any
	dec := json.NewDecoder(strings.NewReader(got))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("stdout is not a JSON object of objects: %v\n%s", err, got)
	}
	hso, ok := out["hookSpecificOutput"]
	if len(out) != 1 || !ok || len(hso) != 2 {
		t.Fatalf("answer %s; want only hookSpecificOutput with two members", got)
	}
	if name, _ := hso["hookEventName"].(string); name != ev.Name {
		t.Errorf("hookEventName %q; want the event's %q", name, ev.Name)
	}
	if text, _ := hso["additionalContext"].(string); text == "" {
		t.Errorf("additionalContext is not a non-empty string: %v", hso["additionalContext"])
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

// TestAgentHookRecorded feeds the events recorded from a running Gemini
// CLI (testdata/agent-hook/recorded/*-<version>.json, docs/agent-hook.md
// says how) to the hook in the repository they were recorded in
// (testdata/repos/agent-hook-recorded.txtar; a write event's file is
// written from its tool_input.content first, as the agent had written
// it), and compares the answers with the golden files: the answers Gemini
// CLI took from this build and gave to the model then (and the silence
// it took without a warning after the read of a file that is not a
// memory).
func TestAgentHookRecorded(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "agent-hook", "recorded"))
	if err != nil {
		t.Fatal(err)
	}
	fixture, err := filepath.Abs(filepath.Join("..", "..", "testdata", "repos", "agent-hook-recorded.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	events, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(events) == 0 {
		t.Fatalf("no recorded events: %v", err)
	}
	for _, ev := range events {
		name := strings.TrimSuffix(filepath.Base(ev), ".json")
		t.Run(name, func(t *testing.T) {
			repo := gitfixture.Replay(t, fixture)
			payload, err := os.ReadFile(ev)
			if err != nil {
				t.Fatal(err)
			}
			var in struct {
				ToolInput struct {
					FilePath string `json:"file_path"`
					Content  *string
				} `json:"tool_input"`
			}
			if err := json.Unmarshal(payload, &in); err != nil {
				t.Fatal(err)
			}
			if in.ToolInput.Content != nil {
				p := filepath.Join(repo, filepath.FromSlash(in.ToolInput.FilePath))
				if err := os.WriteFile(p, []byte(*in.ToolInput.Content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, stderr, code := agentHook(t, repo, payload)
			if code != exitOK || stderr != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want 0 and nothing on stderr", code, got, stderr)
			}
			if got != "" {
				checkAnswerShape(t, payload, got)
			}
			golden := filepath.Join(dir, name+".golden")
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

// TestAgentHookPin: with agent_hook: pin, the write of a memory whose
// file holds exactly what the agent wrote gets its citations that hold
// pinned to HEAD (commit and verified fields), and the agent is told to
// read the file again; a file that no longer holds what the agent wrote,
// or an edit of part of it, is left as it is.
func TestAgentHookPin(t *testing.T) {
	repo := gitfixture.Replay(t, filepath.Join("..", "..", "testdata", "repos", "agent-hook.txtar"))
	if _, err := gitfixture.Git(repo, 0, "config", "memcite.agentHook", "pin"); err != nil {
		t.Fatal(err)
	}
	content, err := os.ReadFile(filepath.Join("testdata", "agent-hook", "memories", "correct.md"))
	if err != nil {
		t.Fatal(err)
	}
	mem := filepath.Join(repo, ".serena", "memories", "correct.md")
	event := func(tool, written string) []byte {
		b, err := json.Marshal(map[string]any{"hook_event_name": "PostToolUse", "tool_name": tool, "cwd": repo,
			"tool_input": map[string]string{"file_path": mem, "content": written}})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		name, tool, written, onDisk string
		pinned                      bool
	}{
		{name: "what the agent wrote", tool: "Write", written: string(content), onDisk: string(content), pinned: true},
		{name: "changed since", tool: "Write", written: string(content), onDisk: string(content) + "More.\n"},
		{name: "an edit of part of it", tool: "Edit", onDisk: string(content)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(mem, []byte(tc.onDisk), 0o644); err != nil {
				t.Fatal(err)
			}
			out, stderr, code := agentHook(t, repo, event(tc.tool, tc.written))
			if code != exitOK || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			after, err := os.ReadFile(mem)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.pinned {
				if out != "" || string(after) != tc.onDisk {
					t.Errorf("not to pin, yet answer %q and the file is now\n%s", out, after)
				}
				return
			}
			checkAnswerShape(t, event(tc.tool, tc.written), out)
			if !strings.Contains(out, "pinned the 1 citation that holds of memory") || !strings.Contains(out, "read the file again") {
				t.Errorf("answer %s", out)
			}
			if strings.Count(string(after), "commit: ") != 1 || !strings.Contains(string(after), "last_verified:") {
				t.Errorf("the mapping citation is not pinned:\n%s", after)
			}
			var o, e bytes.Buffer
			t.Chdir(repo)
			if code := run([]string{"verify", "correct"}, &o, &e); code != exitOK {
				t.Errorf("the pinned memory does not verify: exit %d\n%s%s", code, o.String(), e.String())
			}
		})
	}
}

// TestAgentHookSwitches: every switch silences every kind of answer —
// the read, the write and the session start.
func TestAgentHookSwitches(t *testing.T) {
	repo := gitfixture.Replay(t, filepath.Join("..", "..", "testdata", "repos", "agent-hook.txtar"))
	data, err := filepath.Abs(filepath.Join("testdata", "agent-hook"))
	if err != nil {
		t.Fatal(err)
	}
	written, err := os.ReadFile(filepath.Join(data, "memories", "written.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, ".serena", "memories", "written.md"), written, 0o644); err != nil {
		t.Fatal(err)
	}
	var payloads [][]byte
	for _, name := range []string{"read-stale", "claude-write-wrong", "claude-session-start", "gemini-session-start"} {
		p, err := os.ReadFile(filepath.Join(data, name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if out, _, _ := agentHook(t, repo, p); out == "" {
			t.Fatalf("%s: no answer without a switch", name)
		}
		payloads = append(payloads, p)
	}
	for _, sw := range []struct {
		name, env, value, config string
	}{
		{name: "MEMCITE=0", env: "MEMCITE", value: "0"},
		{name: "SKIP=memcite", env: "SKIP", value: "memcite"},
		{name: "SKIP=memcite-agent-hook", env: "SKIP", value: "memcite-agent-hook"},
		{name: "memcite.enabled false", config: "memcite.enabled=false"},
		{name: "memcite.agentHook off", config: "memcite.agentHook=off"},
	} {
		t.Run(sw.name, func(t *testing.T) {
			if sw.env != "" {
				t.Setenv(sw.env, sw.value)
			}
			if sw.config != "" {
				key, value, _ := strings.Cut(sw.config, "=")
				if _, err := gitfixture.Git(repo, 0, "config", key, value); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _, _ = gitfixture.Git(repo, 0, "config", "--unset", key) })
			}
			for _, p := range payloads {
				if out, stderr, code := agentHook(t, repo, p); out != "" || stderr != "" || code != exitOK {
					t.Errorf("exit %d, stdout %q, stderr %q; want 0 and nothing", code, out, stderr)
				}
			}
		})
	}
}
