package doctor

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/agentinstall"
	"github.com/git-memcite/git-memcite/internal/hookinstall"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// find returns the findings of one check, as "level: message" followed
// by the detail lines.
func find(r *Report, check string) []string {
	var out []string
	for _, f := range r.Findings {
		if f.Check == check {
			out = append(out, f.Level.String()+": "+f.Msg)
			out = append(out, f.Detail...)
		}
	}
	return out
}

// hooks sets the hook states hookinstall would report.
func hooks(hs ...hookinstall.HookStatus) func(*Facts) {
	return func(f *Facts) {
		found := false
		for _, h := range hs {
			found = found || h.Runs || h.State.Ours()
		}
		f.Hooks = &hookinstall.Status{Repo: hookinstall.Repo{HooksDir: filepath.Join(f.Top, ".git", "hooks")}, Hooks: hs, Found: found}
	}
}

// agent sets the agent hook's settings files as agentinstall reports them
// (paths below the top).
func agent(sts ...agentinstall.State) func(*Facts) {
	return func(f *Facts) {
		for _, st := range sts {
			st.Path = filepath.Join(f.Top, ".claude", st.Path)
			st.Agent = agentinstall.Claude
			f.AgentHooks = append(f.AgentHooks, st)
		}
	}
}

func TestChecks(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string // below the top; mode 0755 for names ending in "*"
		facts func(*Facts)
		check string
		want  string // substring of the joined findings of check
		probs int
	}{
		{name: "no serena", check: "serena", want: "info: no .serena/project.yml"},
		{name: "serena tools active", files: map[string]string{".serena/project.yml": "excluded_tools: [read_memory]\n"},
			check: "serena", want: "info: 4 Serena memory-writing tool(s) active"},
		{name: "serena advice names only the writing tools", files: map[string]string{".serena/project.yml": "excluded_tools: [read_memory, find_symbol]\n"},
			check: "serena", want: "excluded_tools:\n  - delete_memory\n  - edit_memory\n  - rename_memory\n  - write_memory\n\n"},
		{name: "serena rename_memory active", files: map[string]string{".serena/project.yml": "excluded_tools: [write_memory, edit_memory, delete_memory]\n"},
			check: "serena", want: "git rm` or `git mv` the file"},
		{name: "stale memories", facts: func(f *Facts) { f.Verified = &verify.Summary{Memories: 5, Stale: 2, Citations: 9, StaleCitations: 3} },
			check: "citations", want: "warn: 2 memories of 5 stale in the working tree (3 stale citations)\ngit memcite verify-all --quiet lists them", probs: 1},
		{name: "no stale memories", facts: func(f *Facts) { f.Verified = &verify.Summary{Memories: 5, Citations: 9} },
			check: "citations", want: "ok: 9 citations checked in the working tree: all valid"},
		{name: "serena readers active", files: map[string]string{".serena/project.yml": "excluded_tools: [write_memory, edit_memory, delete_memory, rename_memory]\n"},
			check: "serena", want: "info: Serena's memory-writing tools are excluded; its reading tools are active\nReading is fine: after read_memory or list_memories, agents check what they read with `git memcite verify <id> --json`"},
		{name: "serena tools excluded", files: map[string]string{".serena/project.yml": "excluded_tools: [write_memory, read_memory, list_memories, delete_memory, edit_memory, rename_memory, find_symbol]\n"},
			check: "serena", want: "ok: Serena's memory tools are excluded"},
		{name: "bad project.yml", files: map[string]string{".serena/project.yml": "excluded_tools: [a\n"},
			check: "serena", want: "warn: .serena/project.yml is not valid YAML", probs: 1},
		{name: "our hooks current", facts: hooks(hookinstall.HookStatus{Name: "pre-commit", State: hookinstall.Current, Version: 1, Runs: true, Expected: true, Via: "git-memcite's hook script"}),
			check: "hooks", want: "ok: git-memcite runs at every hook it is installed for"},
		{name: "no hooks", facts: hooks(hookinstall.HookStatus{Name: "pre-commit", State: hookinstall.Missing, Expected: true}),
			check: "hooks", want: "info: no git-memcite hooks"},
		{name: "manager that runs git-memcite", facts: hooks(hookinstall.HookStatus{Name: "pre-commit", State: hookinstall.Foreign, Manager: hookinstall.Lefthook, Runs: true, Expected: true, Via: "lefthook: lefthook.yml pre-commit.commands.memcite"}),
			check: "hooks", want: "pre-commit: lefthook: lefthook.yml pre-commit.commands.memcite"},
		{name: "dropped by a manager", facts: hooks(hookinstall.HookStatus{Name: "pre-commit", State: hookinstall.Current, Version: 1, Runs: true, Expected: true},
			hookinstall.HookStatus{Name: "post-merge", State: hookinstall.Foreign, Manager: hookinstall.Lefthook, Expected: true, Why: "lefthook runs the post-merge hook, but lefthook.yml has no git-memcite command for it"}),
			check: "hooks", want: "warn: git-memcite would not run at 1 hook(s)", probs: 1},
		{name: "outdated hook", facts: hooks(hookinstall.HookStatus{Name: "pre-commit", State: hookinstall.Current, Version: 1, Runs: true, Expected: true},
			hookinstall.HookStatus{Name: "post-merge", State: hookinstall.Outdated, Version: 1, Runs: true, Expected: true}),
			check: "hooks", want: "post-merge: outdated or not executable", probs: 1},
		{name: "husky broken", facts: hooks(hookinstall.HookStatus{Name: "pre-commit", State: hookinstall.Current, Version: 1, Runs: true, Expected: true, Problems: []string{"husky's own .husky/pre-commit script no longer runs"}}),
			check: "hooks", want: "warn: a hook setup is broken", probs: 1},
		{name: "hooks cannot be inspected", facts: func(f *Facts) { f.HooksErr = hookinstall.ErrBare },
			check: "hooks", want: "warn: cannot inspect the hooks: bare repository", probs: 1},
		{name: "other memory dirs", files: map[string]string{".claude/memories/a.md": "x", ".serena/memories/b.md": "y"},
			check: "memory dirs", want: ".claude/memories"},
		{name: "husky", files: map[string]string{".husky/pre-commit": "npx lint-staged\n"}, check: "hook managers", want: "husky (.husky)"},
		{name: "old git", facts: func(f *Facts) { f.GitVersion = "git version 2.17.1" }, check: "git", want: "warn: git 2.17.1 is older than 2.25", probs: 1},
		{name: "no git", facts: func(f *Facts) { f.GitVersion = "" }, check: "git", want: "fail: git not found", probs: 1},
		{name: "split index", facts: func(f *Facts) { f.SplitIndex = "true" }, check: "index", want: "info: the index uses an extended format"},
		{name: "shallow", facts: func(f *Facts) { f.Shallow = true }, check: "history", want: "warn: shallow clone", probs: 1},
		{name: "agent hook installed", facts: agent(agentinstall.State{Path: "settings.json", Exists: true, Installed: true}),
			check: "agent hook", want: "ok: agent hook installed"},
		{name: "agent hook misses serena", facts: agent(agentinstall.State{Path: "settings.json", Exists: true, Installed: true, Matchers: []string{"Read"}, Missing: []string{"mcp__serena__read_memory"}}),
			check: "agent hook", want: "settings.json: the hook's matcher (Read) misses mcp__serena__read_memory", probs: 1},
		{name: "claude without the agent hook", facts: agent(agentinstall.State{Path: "settings.json", Exists: true}, agentinstall.State{Path: "settings.local.json"}),
			check: "agent hook", want: "info: Claude Code is configured here without the agent hook"},
		{name: "agent settings unreadable", facts: agent(agentinstall.State{Path: "settings.json", Exists: true, Err: errors.New("settings.json: not valid JSON")}),
			check: "agent hook", want: "warn: cannot read the agent's settings: settings.json: not valid JSON", probs: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			top := t.TempDir()
			for rel, text := range tc.files {
				mode := os.FileMode(0o644)
				if strings.HasSuffix(rel, "*") {
					rel, mode = strings.TrimSuffix(rel, "*"), 0o755
				}
				p := filepath.Join(top, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), mode); err != nil {
					t.Fatal(err)
				}
			}
			f := Facts{Top: top, InRepo: true, GitVersion: "git version 2.39.5",
				Store: &store.Store{Dirs: []string{".serena/memories"}}}
			if tc.facts != nil {
				tc.facts(&f)
			}
			r := Run(f)
			got := strings.Join(find(r, tc.check), "\n")
			if !strings.Contains(got, tc.want) {
				t.Errorf("%s: got %q; want it to contain %q", tc.check, got, tc.want)
			}
			if r.Problems() != tc.probs {
				t.Errorf("problems: got %d; want %d (%v)", r.Problems(), tc.probs, r.Findings)
			}
		})
	}
}
