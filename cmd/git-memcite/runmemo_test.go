package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// TestRunMemoMatchesUncached changes a repository step by step, in every
// way that can change what verify-all prints — the cited code, the
// memories, untracked files, the index, HEAD, the configuration, the
// ignore rules — and runs verify-all (text, --json, --staged, SARIF)
// twice after each step, with the whole-run memo, against a run with the
// cache off: the output and the outcome must be the same. The second run
// of a step replays the kept run whenever nothing it read changed; the
// test also checks that replays happen. It runs in a SHA-1 and in a
// SHA-256 repository (content is kept by its blob id in the repository's
// format).
func TestRunMemoMatchesUncached(t *testing.T) {
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) { testRunMemoMatchesUncached(t, format) })
	}
}

func testRunMemoMatchesUncached(t *testing.T, format string) {
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	write := func(p, content string) { gitfixture.Write(t, dir, p, content) }
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("NO_COLOR", "1")
	t.Setenv("MEMCITE_DEBUG", "1") // the trace tells replays
	t.Setenv("MEMCITE_CACHE", "")
	t.Setenv("MEMCITE_PROSE", "")

	git("init", "-q", "--object-format="+format)
	write("src/cart.go", "package src\n\n// Cart holds items.\ntype Cart struct{ items []int }\n\n// Total sums the items.\nfunc (c *Cart) Total() int {\n\tn := 0\n\tfor _, i := range c.items {\n\t\tn += i\n\t}\n\treturn n\n}\n")
	write("src/util.py", "def helper():\n    return 1\n")
	write("lib/old.go", "package lib\n\nfunc Old() {}\n")
	write(".serena/memories/cart.md", "---\ncitations:\n  - path: src/cart.go\n    line: 7\n    snippet: \"func (c *Cart) Total() int {\"\n  - path: src/cart.go\n    line: 8-12\n---\n# Cart\n\n`Cart.Total()` in `src/cart.go:7` sums the items; see [util](util.md) and `src/util.py`.\n")
	write(".serena/memories/util.md", "# Util\n\n`helper()` in `src/util.py` line 1; `lib/old.go` holds `Old()`.\n")
	git("add", "-A")
	git("commit", "-q", "-m", "first")

	variants := [][]string{
		{"verify-all"},
		{"verify-all", "--json"},
		{"verify-all", "--staged"},
		{"verify-all", "--format", "sarif"},
	}
	elapsed := regexp.MustCompile(`(, |"elapsed_ms": ?|"durationMs": ?)[0-9.e+-]+`)
	run := func(args ...string) (out, stderr string, code int, replayed bool) {
		t.Helper()
		var o, e bytes.Buffer
		code = runIO(append([]string{"--repo-root", dir}, args...), strings.NewReader(""), &o, &e)
		var kept []string
		for _, l := range strings.Split(e.String(), "\n") {
			if !strings.HasPrefix(l, "memcite-debug") {
				kept = append(kept, l)
			}
		}
		replayed = strings.Contains(e.String(), "answers hold: the kept run's output")
		return elapsed.ReplaceAllString(o.String(), "${1}T"), strings.Join(kept, "\n"), code, replayed
	}
	replays := 0
	check := func(step string) {
		t.Helper()
		for _, v := range variants {
			wantOut, wantErr, wantCode, _ := run(append([]string{"--no-cache"}, v...)...)
			for i := 0; i < 2; i++ {
				gotOut, gotErr, code, replayed := run(v...)
				if replayed {
					replays++
				}
				if gotOut != wantOut || gotErr != wantErr || code != wantCode {
					t.Fatalf("%s: %v (run %d, replayed %t): with the memo, exit %d:\n%s\n%s\nwithout the cache, exit %d:\n%s\n%s",
						step, v, i+1, replayed, code, gotOut, gotErr, wantCode, wantOut, wantErr)
				}
			}
		}
	}
	// a file written now is racily clean for an index written in the same
	// tick: wait past it, as a user between edits would
	settle := func() { time.Sleep(20 * time.Millisecond) }

	steps := []struct {
		name string
		do   func()
	}{
		{"nothing changed", func() {}},
		{"nothing changed, again", func() {}},
		{"cited line edited", func() {
			write("src/cart.go", strings.Replace(readFile(t, dir, "src/cart.go"), "func (c *Cart) Total() int {", "func (c *Cart) Sum() int {", 1))
		}},
		{"cited file touched, same content", func() {
			now := time.Now().Add(2 * time.Second)
			os.Chtimes(filepath.Join(dir, "src/cart.go"), now, now)
		}},
		{"edit restored", func() { git("checkout", "--", "src/cart.go") }},
		{"cited function cut, prose off", func() {
			t.Setenv("MEMCITE_PROSE", "off") // (nothing lists the working tree)
			write("src/cart.go", "package src\n\n// Cart holds items.\ntype Cart struct{ items []int }\n")
		}},
		{"cited function pasted in a new file, added", func() {
			write("src/total.go", "package src\n\n// Total sums the items.\nfunc (c *Cart) Total() int {\n\tn := 0\n\tfor _, i := range c.items {\n\t\tn += i\n\t}\n\treturn n\n}\n")
			git("add", "src/total.go")
		}},
		{"cut and paste undone", func() {
			git("rm", "-q", "-f", "src/total.go")
			git("checkout", "--", "src/cart.go")
			t.Setenv("MEMCITE_PROSE", "")
		}},
		{"memory body edited", func() {
			write(".serena/memories/util.md", readFile(t, dir, ".serena/memories/util.md")+"\nAlso `src/missing.go`.\n")
		}},
		{"memory added, untracked", func() {
			write(".serena/memories/new.md", "# New\n\nSee `src/cart.go:4` and `Cart`.\n")
		}},
		{"untracked code file with the cited lines", func() {
			write("src/cart_copy.go", readFile(t, dir, "src/cart.go"))
		}},
		{"cited file deleted in the working tree", func() { os.Remove(filepath.Join(dir, "src/util.py")) }},
		{"staged", func() { git("add", "-A") }},
		{"committed", func() { git("commit", "-q", "-m", "second") }},
		{"ignore rules", func() { write(".gitignore", "src/cart_copy.go\n") }},
		{"configuration file", func() { write(".memcite.yaml", "prose: warn\n") }},
		{"git config", func() { git("config", "memcite.prose", "off") }},
		{"git config back", func() { git("config", "--unset", "memcite.prose") }},
		{"rename", func() { git("mv", "lib/old.go", "lib/new.go") }},
		{"rename committed", func() { git("commit", "-q", "-m", "rename") }},
		{"memory deleted", func() { os.Remove(filepath.Join(dir, ".serena/memories/new.md")) }},
		{"untracked file a reference names", func() { write("src/missing.go", "package src\n") }},
		{"environment", func() { t.Setenv("MEMCITE_PROSE", "warn") }},
	}
	for _, s := range steps {
		s.do()
		settle()
		check(s.name)
	}
	if replays < len(steps) {
		t.Errorf("%d replays over %d steps × %d variants: the memo is hardly used", replays, len(steps), len(variants))
	}
	t.Logf("%d replays", replays)
}

func readFile(t *testing.T, dir, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
