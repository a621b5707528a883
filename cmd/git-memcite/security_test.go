package main

// The hostile-input suite: one row per attack, each run through the CLI in
// a real git repository, asserting a clear outcome and that nothing outside
// the repository was read (a canary file outside the repository must never
// show up in any output).

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const canary = "CANARY-5f1e2d-outside-the-repository"

// fixture is a repository with a memory directory and, beside it, a
// directory outside the repository holding the canary.
type fixture struct {
	t       *testing.T
	repo    string
	outside string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	base := t.TempDir()
	f := &fixture{t: t, repo: filepath.Join(base, "repo"), outside: filepath.Join(base, "outside")}
	for _, d := range []string{f.repo, f.outside, filepath.Join(f.repo, ".serena", "memories")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f.write(filepath.Join(f.outside, "secret.txt"), canary+"\n"+canary+"\n")
	f.write(filepath.Join(f.repo, "src", "a.go"), "package a\n\nfunc A() {}\n")
	cmd := exec.Command("git", "init", "-q")
	cmd.Dir = f.repo
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	return f
}

func (f *fixture) write(p, s string) {
	f.t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) memory(name, frontmatter string) {
	f.write(filepath.Join(f.repo, ".serena", "memories", name), "---\n"+frontmatter+"---\nbody\n")
}

// run runs the CLI in the fixture's repository with a time limit (nothing
// may hang) and returns its exit code and combined output.
func (f *fixture) run(args ...string) (int, string) {
	f.t.Helper()
	var out bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(append(args, "--repo-root", f.repo), &out, &out) }()
	var code int
	select {
	case code = <-done:
	case <-time.After(60 * time.Second):
		f.t.Fatalf("git-memcite %s did not finish in time", strings.Join(args, " "))
	}
	if strings.Contains(out.String(), canary) {
		f.t.Fatalf("output shows content from outside the repository:\n%s", out.String())
	}
	return code, out.String()
}

func (f *fixture) symlink(target, link string) {
	f.t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		f.t.Fatal(err)
	}
}

// TestHostilePaths: citations whose path tries to leave the repository.
func TestHostilePaths(t *testing.T) {
	long := strings.Repeat("a/", 3000) + "x"
	tests := []struct {
		name  string
		setup func(f *fixture)
		cite  string // YAML for the citation's path value (line 1 cited)
		want  string // reason
	}{
		{"dotdot escape", nil, `"../outside/secret.txt"`, "Path traversal blocked: ../outside/secret.txt"},
		{"dotdot inside path", nil, `"src/../../outside/secret.txt"`, "Path traversal blocked: src/../../outside/secret.txt"},
		{"absolute path", nil, `"/etc/passwd"`, "Path traversal blocked: /etc/passwd"},
		{"home tilde", nil, `"~/.ssh/id_rsa"`, "Path traversal blocked: ~/.ssh/id_rsa"},
		{"windows drive", nil, `'C:\Windows\win.ini'`, `Path traversal blocked: C:/Windows/win.ini`},
		{"windows drive slash", nil, `"c:/x"`, "Path traversal blocked: c:/x"},
		{"unc path", nil, `'\\server\share\x'`, `Path traversal blocked: //server/share/x`},
		{"unc path slashed", nil, `'//server/share/x'`, `Path traversal blocked: //server/share/x`},
		{"backslash escape", nil, `'..\outside\secret.txt'`, `Path traversal blocked: ../outside/secret.txt`},
		{"backslashes inside", nil, `'src\a.go'`, ""},
		{"nul byte", nil, `"src/a.go\u0000.txt"`, `Path traversal blocked: src/a.go\x00.txt`},
		{"percent encoding is not decoded", nil, `"%2e%2e/outside/secret.txt"`, "File not found: %2e%2e/outside/secret.txt"},
		{"very long path", nil, `"` + long + `"`, "File not found: " + long},
		{"git dir", nil, `".git/config"`, "Path traversal blocked: .git/config"},
		{"git dir case", nil, `".GIT/config"`, "Path traversal blocked: .GIT/config"},
		{"git dir via dotdot", nil, `"src/../.git/HEAD"`, "Path traversal blocked: src/../.git/HEAD"},
		{"symlink to outside file absolute", func(f *fixture) {
			f.symlink(filepath.Join(f.outside, "secret.txt"), filepath.Join(f.repo, "link.txt"))
		}, `"link.txt"`, "Path traversal blocked: link.txt"},
		{"symlink to outside file relative", func(f *fixture) {
			f.symlink("../outside/secret.txt", filepath.Join(f.repo, "link.txt"))
		}, `"link.txt"`, "Path traversal blocked: link.txt"},
		{"symlink to outside dir", func(f *fixture) {
			f.symlink(f.outside, filepath.Join(f.repo, "ext"))
		}, `"ext/secret.txt"`, "Path traversal blocked: ext/secret.txt"},
		{"symlink to outside dir relative", func(f *fixture) {
			f.symlink("../outside", filepath.Join(f.repo, "ext"))
		}, `"ext/secret.txt"`, "Path traversal blocked: ext/secret.txt"},
		{"symlink into .git", func(f *fixture) {
			f.symlink(".git/config", filepath.Join(f.repo, "cfg"))
		}, `"cfg"`, "Path traversal blocked: cfg"},
		{"symlink loop", func(f *fixture) {
			f.symlink("loop2", filepath.Join(f.repo, "loop1"))
			f.symlink("loop1", filepath.Join(f.repo, "loop2"))
		}, `"loop1"`, "Cannot read file: loop1: too many levels of symbolic links"},
		{"dangling symlink to outside", func(f *fixture) {
			f.symlink(filepath.Join(f.outside, "nothing"), filepath.Join(f.repo, "dangling"))
		}, `"dangling"`, "Path traversal blocked: dangling"},
		{"symlink inside is followed", func(f *fixture) {
			f.symlink("src/a.go", filepath.Join(f.repo, "alias.go"))
		}, `"alias.go"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			if tt.setup != nil {
				tt.setup(f)
			}
			f.memory("m.md", "citations:\n  - path: "+tt.cite+"\n    line: 1\n")
			code, out := f.run("verify", "m", "--json")
			if tt.want == "" {
				if code != 0 {
					t.Fatalf("exit %d, want 0:\n%s", code, out)
				}
				return
			}
			if code != 1 {
				t.Fatalf("exit %d, want 1:\n%s", code, out)
			}
			want := strings.ReplaceAll(fmt.Sprintf("%q", tt.want), `\\x00`, `\u0000`)
			if !strings.Contains(out, `"mismatch_reason": `+want) {
				if len(out) > 3000 {
					out = out[:3000] + "…"
				}
				t.Fatalf("want reason %.300s in:\n%s", want, out)
			}
		})
	}
}

// TestHostileMemoryLocations: the memory store itself is hostile.
func TestHostileMemoryLocations(t *testing.T) {
	t.Run("memory file symlinked to outside", func(t *testing.T) {
		f := newFixture(t)
		f.write(filepath.Join(f.outside, "evil.md"), "---\nid: evil\ncitations: [src/a.go:1]\n---\n"+canary+"\n")
		f.symlink(filepath.Join(f.outside, "evil.md"), filepath.Join(f.repo, ".serena", "memories", "evil.md"))
		f.memory("ok.md", "citations: [src/a.go:1]\n")
		code, out := f.run("verify-all")
		if code != 2 || !strings.Contains(out, "symlink that leaves the repository") || !strings.Contains(out, "[PASS] ok") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
	t.Run("memory directory symlinked to outside", func(t *testing.T) {
		f := newFixture(t)
		f.write(filepath.Join(f.outside, "mem", "evil.md"), "---\ncitations: [src/a.go:1]\n---\n"+canary+"\n")
		f.symlink(filepath.Join(f.outside, "mem"), filepath.Join(f.repo, "notes"))
		code, out := f.run("verify-all", "--dir", "notes")
		if code != 2 || !strings.Contains(out, "notes") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
	t.Run("memory directory symlinked inside", func(t *testing.T) {
		f := newFixture(t)
		f.memory("ok.md", "citations: [src/a.go:1]\n")
		f.symlink(".serena/memories", filepath.Join(f.repo, "notes"))
		code, out := f.run("verify-all", "--dir", "notes")
		if code != 0 || !strings.Contains(out, "[PASS] ok") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
	t.Run("memory directory outside by path", func(t *testing.T) {
		f := newFixture(t)
		code, out := f.run("verify-all", "--dir", "../outside")
		if code != 2 {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
	t.Run("memory directory inside .git", func(t *testing.T) {
		f := newFixture(t)
		code, out := f.run("verify-all", "--dir", ".git")
		if code != 2 {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
}

// TestHostileYAML: frontmatter built to exhaust memory or confuse parsing.
func TestHostileYAML(t *testing.T) {
	laughs := func() string {
		var b strings.Builder
		b.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
		prev := "a"
		for i := 0; i < 9; i++ {
			n := string(rune('b' + i))
			b.WriteString(n + ": &" + n + " [" + strings.TrimSuffix(strings.Repeat("*"+prev+",", 9), ",") + "]\n")
			prev = n
		}
		b.WriteString("citations: *" + prev + "\n")
		return b.String()
	}
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	var many strings.Builder
	many.WriteString("citations:\n")
	for i := 0; i < 100000; i++ {
		many.WriteString("  - src/a.go:1\n")
	}
	tests := []struct {
		name, fm string
		code     int
		want     string
	}{
		{"billion laughs", laughs(), 2, "m.md:11: citation 1 must be a mapping with a path, or a string"},
		{"deep nesting", "x: " + deep + "\n", 2, "m.md"},
		{"huge scalar", "subject: " + strings.Repeat("x", 2<<20) + "\ncitations: [src/a.go:1]\n", 0, "[PASS] m"},
		{"duplicate keys", "citations: [src/a.go:1]\ncitations: [src/a.go:9]\n", 2, "duplicate key \"citations\""},
		{"binary tag", "subject: !!binary aGVsbG8=\ncitations: [src/a.go:1]\n", 0, "[PASS] m"},
		{"custom tag", "citations: !evil [src/a.go:1]\n", 0, "[PASS] m"},
		{"non-mapping frontmatter", "- a\n- b\n", 2, "not a mapping"},
		{"tagged path", "citations:\n  - path: !!str src/a.go\n    line: !!int 1\n", 0, "[PASS] m"},
		{"100000 citations", many.String(), 2, "at most 20000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.memory("m.md", tt.fm)
			code, out := f.run("verify-all")
			if code != tt.code || !strings.Contains(out, tt.want) {
				if len(out) > 2000 {
					out = out[:2000]
				}
				t.Fatalf("exit %d (want %d), want %q in:\n%s", code, tt.code, tt.want, out)
			}
		})
	}
	t.Run("no closing fence", func(t *testing.T) {
		f := newFixture(t)
		f.write(filepath.Join(f.repo, ".serena", "memories", "m.md"), "---\ncitations: [src/a.go:1]\nbody without a fence\n")
		code, out := f.run("verify-all")
		if code != 2 || !strings.Contains(out, "m.md:1: frontmatter has no closing '---' line") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
	t.Run("100 MB memory file", func(t *testing.T) {
		f := newFixture(t)
		p := filepath.Join(f.repo, ".serena", "memories", "big.md")
		f.write(p, "---\ncitations: [src/a.go:1]\n---\n")
		if err := os.Truncate(p, 100<<20); err != nil {
			t.Fatal(err)
		}
		code, out := f.run("verify-all")
		if code != 2 || !strings.Contains(out, "larger than 16 MiB") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
}

// TestHostileCitedFiles: cited files that are huge, binary, special or
// vanishing.
func TestHostileCitedFiles(t *testing.T) {
	f := newFixture(t)
	f.write(filepath.Join(f.repo, "bin.dat"), "ab\x00cd\n")
	f.write(filepath.Join(f.repo, "latin1.txt"), "caf\xe9\n")
	f.write(filepath.Join(f.repo, "nonl.txt"), "one\ntwo")
	f.write(filepath.Join(f.repo, "cr.txt"), "one\rtwo\rthree")
	// a 1 GiB sparse file whose first lines are text: reading line 2 must
	// not read the whole file
	big := filepath.Join(f.repo, "big.txt")
	var text strings.Builder
	text.WriteString("first\nsecond\n")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&text, "line %d\n", i)
	}
	f.write(big, text.String())
	if err := os.Truncate(big, 1<<30); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(filepath.Join(f.repo, "fifo")); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	f.memory("m.md", `citations:
  - path: bin.dat
    line: 1
  - path: latin1.txt
    line: 1
  - path: nonl.txt
    line: 2
    snippet: two
  - path: cr.txt
    line: 3
    snippet: three
  - path: big.txt
    line: 2
    snippet: second
  - path: fifo
    line: 1
  - path: fifo
  - path: /dev/zero
    line: 1
`)
	start := time.Now()
	code, out := f.run("verify", "m")
	if code != 1 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, want := range []string{
		"Cannot read file: bin.dat: binary file",
		"Cannot read file: latin1.txt: line 1 is not valid UTF-8",
		"Cannot read file: fifo: not a regular file",
		"Path traversal blocked: /dev/zero",
		"Citations: 3/8 valid",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v: the 1 GiB file was read whole?", d)
	}
}

// TestTerminalInjection: control characters from memory files never reach
// the terminal raw.
func TestTerminalInjection(t *testing.T) {
	f := newFixture(t)
	f.memory("m.md", `id: "evil\e[2J\e]8;;http://x\e\\"
citations:
  - path: "src/\e[31mred.go"
    line: 1
  - path: src/a.go
    line: 1
    snippet: "pack\rage \e]0;title\a"
`)
	code, out := f.run("verify-all")
	if code != 1 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, bad := range []string{"\x1b", "\r", "\a"} {
		if strings.Contains(out, bad) {
			t.Fatalf("raw control character %q in output:\n%q", bad, out)
		}
	}
	if !strings.Contains(out, `\x1b[31m`) {
		t.Fatalf("escaped form missing:\n%s", out)
	}
	_, js := f.run("verify-all", "--json")
	if strings.ContainsAny(js, "\x1b\r\a") {
		t.Fatalf("raw control characters in JSON:\n%q", js)
	}
}

// TestInjectionInJSONAndMermaid: C1 controls (U+009B, a one-byte CSI) and
// bidi overrides (U+202E) are escaped in JSON as \u009b and \u202e, and
// ESC and BEL in ids and link targets never reach a Mermaid graph raw.
func TestInjectionInJSONAndMermaid(t *testing.T) {
	f := newFixture(t)
	f.memory("m.md", `id: "c1\u009b31m bidi\u202eevil"
links:
  - related: "gone\e[2J\a"
citations:
  - path: src/a.go
    line: 1
    snippet: "x\u009by\u202ez"
`)
	_, js := f.run("verify-all", "--json")
	if strings.ContainsAny(js, "\u009b\u202e") {
		t.Fatalf("raw C1 or bidi characters in JSON:\n%q", js)
	}
	if !strings.Contains(js, `\u009b`) || !strings.Contains(js, `\u202e`) {
		t.Fatalf("escaped forms missing in JSON:\n%s", js)
	}
	_, mm := f.run("graph", "--format", "mermaid")
	if strings.ContainsAny(mm, "\x1b\a\u009b\u202e") {
		t.Fatalf("raw control characters in Mermaid:\n%q", mm)
	}
	if !strings.Contains(mm, `\x1b[2J`) {
		t.Fatalf("escaped link target missing in Mermaid:\n%s", mm)
	}
}
