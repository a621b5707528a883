package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// pending are commands other work adds; docs may show them before this
// build has them. A command shown in the docs that is neither in the CLI
// nor pending fails the test.
var pending = map[string]bool{
	"add-citation": true, "relocate": true, "health": true, "graph": true, "doctor": true,
	"install": true, "uninstall": true, "status": true, "hook": true,
}

// TestDocsCommands runs every `git memcite` command in the code blocks of
// the docs, in order, against a fixture repository: none may be a usage
// error or fail to run (exit 2). Commands the CLI does not have yet are
// skipped while they are pending.
func TestDocsCommands(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	app := testModel(t)
	for _, doc := range []string{"SKILL.md", "ci.md", "editors-and-agents.md", "agent-hook.md"} {
		t.Run(doc, func(t *testing.T) {
			cmds := docCommands(t, filepath.Join("..", "..", "docs", doc))
			if len(cmds) < 3 {
				t.Fatalf("only %d commands found in %s", len(cmds), doc)
			}
			dir := docFixture(t)
			t.Chdir(dir)
			ran := 0
			for _, c := range cmds {
				args := c.args
				sub := ""
				for _, a := range args {
					if !strings.HasPrefix(a, "-") {
						sub = a
						break
					}
				}
				if !hasCommand(app, sub) {
					if pending[sub] {
						t.Logf("%s:%d: skipped until the CLI has %q: git memcite %s", doc, c.line, sub, strings.Join(args, " "))
						continue
					}
					t.Errorf("%s:%d: no command %q in the CLI: git memcite %s", doc, c.line, sub, strings.Join(args, " "))
					continue
				}
				var out, errb bytes.Buffer
				code := run(args, &out, &errb)
				if code != exitOK && code != exitStale {
					t.Errorf("%s:%d: git memcite %s: exit %d\n%s%s", doc, c.line, strings.Join(args, " "), code, out.String(), errb.String())
				}
				ran++
			}
			if ran == 0 {
				t.Errorf("no command of %s ran", doc)
			}
		})
	}
}

type docCommand struct {
	line int
	args []string
}

// docCommands finds "git memcite …" in fenced code blocks, up to a shell
// operator (> | && ; #), with simple quoting.
func docCommands(t *testing.T, p string) []docCommand {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []docCommand
	in := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if fence, ok := strings.CutPrefix(strings.TrimSpace(line), "```"); ok {
			if !in && fence == "json" {
				// settings and answers that hold commands, not commands: skip the block
				for sc.Scan() {
					n++
					if strings.HasPrefix(strings.TrimSpace(sc.Text()), "```") {
						break
					}
				}
				continue
			}
			in = !in
			continue
		}
		i := strings.Index(line, "git memcite ")
		if !in || i < 0 || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		words := shellWords(line[i+len("git memcite "):])
		out = append(out, docCommand{n, words})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	has := false
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '"' || c == '\'':
			quote, has = c, true
		case c == ' ' || c == '\t':
			if has {
				words = append(words, cur.String())
				cur.Reset()
				has = false
			}
		case c == '>' || c == '|' || c == '&' || c == ';' || c == '#' || c == '`':
			if has {
				words = append(words, cur.String())
			}
			return words
		default:
			cur.WriteByte(c)
			has = true
		}
	}
	if has {
		words = append(words, cur.String())
	}
	return words
}

// docFixture is a repository with the memories the docs name.
func docFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	home := t.TempDir()
	cfg := filepath.Join(home, ".gitconfig")
	if err := os.WriteFile(cfg, []byte("[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{
		"HOME": home, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": cfg, "NO_COLOR": "1",
		"GITHUB_STEP_SUMMARY": "", "MEMCITE_CONFIG": "", "MEMCITE_DEBUG": "",
	} {
		t.Setenv(k, v)
	}
	files := map[string]string{
		"src/auth/token.go":  "package auth\n\nfunc Issue() string {\n\treturn \"t\"\n}\n",
		"src/build/cache.go": "package build\n\nconst Size = 64\n",
		".serena/memories/auth-token.md": "---\nid: auth-token\nsubject: tokens\ncitations:\n  - path: src/auth/token.go\n    line: 3\n" +
			"    snippet: \"func Issue() string {\"\n  - path: src/auth/token.go\n    line: 3\n    snippet: \"func Refresh(\"\n---\nbody\n",
		".serena/memories/build-cache.md": "---\nid: build-cache\ncitations:\n  - src/build/cache.go:3\n---\n",
	}
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "init"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

func TestShellWords(t *testing.T) {
	for in, want := range map[string]string{
		`verify a --json`:                     "verify|a|--json",
		`completion bash > ~/x`:               "completion|bash",
		`verify-all --staged && echo ok`:      "verify-all|--staged",
		`hook post-merge "$@" || true`:        "hook|post-merge|$@",
		`verify "two words" 'x y'`:            "verify|two words|x y",
		"verify-all --quiet # a comment":      "verify-all|--quiet",
		"verify-all --format json`, and more": "verify-all|--format|json",
	} {
		if got := strings.Join(shellWords(in), "|"); got != want {
			t.Errorf("shellWords(%q) = %q, want %q", in, got, want)
		}
	}
}
