package render

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	tests := []struct {
		name, old, new, want string
	}{
		{"equal", "a\n", "a\n", ""},
		{"insert in the middle", "1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\nx\n5\n6\n7\n8\n",
			"--- a/m.md\n+++ b/m.md\n@@ -2,6 +2,7 @@\n 2\n 3\n 4\n+x\n 5\n 6\n 7\n"},
		{"remove the first line", "a\nb\n", "b\n", "--- a/m.md\n+++ b/m.md\n@@ -1,2 +1 @@\n-a\n b\n"},
		{"no final newline", "a", "b", "--- a/m.md\n+++ b/m.md\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n"},
		{"an unchanged line between two changed ones is context, not removed and re-added",
			"---\ncitations:\n  - path: a.go\n    line: 3\n    snippet: x := 1\n    commit: aaa\n---\n",
			"---\ncitations:\n  - path: a.go\n    line: 4\n    snippet: x := 1\n    commit: bbb\n---\n",
			"--- a/m.md\n+++ b/m.md\n@@ -1,7 +1,7 @@\n ---\n citations:\n   - path: a.go\n-    line: 3\n+    line: 4\n     snippet: x := 1\n-    commit: aaa\n+    commit: bbb\n ---\n"},
		{"changes far apart: two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "x\n2\n3\n4\n5\n6\n7\n8\n9\ny\n",
			"--- a/m.md\n+++ b/m.md\n@@ -1,4 +1,4 @@\n-1\n+x\n 2\n 3\n 4\n@@ -7,4 +7,4 @@\n 7\n 8\n 9\n-10\n+y\n"},
		{"control characters escaped, CRLF kept", "a\x1b[2J\r\nb\r\n", "a\x1b[2J\r\nc\r\n",
			"--- a/m.md\n+++ b/m.md\n@@ -1,2 +1,2 @@\n a\\x1b[2J\r\n-b\r\n+c\r\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := UnifiedDiff("m.md", []byte(tc.old), []byte(tc.new)); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestUnifiedDiffApplies: git apply accepts every diff, and applying it
// gives the new file, for memory-file edits of every shape and line ending.
func TestUnifiedDiffApplies(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	fm := func(nl string, lines ...string) string { return strings.Join(lines, nl) + nl }
	cases := []struct{ name, old, new string }{
		{"move a line", fm("\n", "---", "citations:", "  - path: a.go", "    line: 3", "---", "body", "more", "and more", "end"),
			fm("\n", "---", "citations:", "  - path: a.go", "    line: 4", "    commit: abc", "---", "body", "more", "and more", "end")},
		{"first and last lines", fm("\n", "---", "id: m", "---"), fm("\n", "---", "id: n", "confidence: 1.0", "---")},
		{"CRLF", fm("\r\n", "---", "citations:", "  - a.go:3", "---", "body"), fm("\r\n", "---", "citations:", "  - a.go:5", "---", "body")},
		{"CR only", fm("\r", "---", "citations:", "  - a.go:3", "---", "body"), fm("\r", "---", "citations:", "  - a.go:5", "---", "body")},
		{"no final newline", "---\nid: m\n---\nbody", "---\nid: m\nconfidence: 0.5\n---\nbody"},
		{"snippet kept between edits", fm("\n", "---", "citations:", "  - path: a.go", "    line: 3", "    snippet: f()", "    verified: 1", "---"),
			fm("\n", "---", "citations:", "  - path: b.go", "    line: 4", "    snippet: f()", "    verified: 2", "---")},
		{"many changes", fm("\n", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p"),
			fm("\n", "a", "B", "c", "d", "e", "f", "g", "h", "i", "x", "j", "k", "l", "m", "n", "p", "q")},
		{"far apart", fm("\n", "---", "a: 1", "b", "c", "d", "e", "f", "g", "h", "z: 2", "---"), fm("\n", "---", "a: 2", "b", "c", "d", "e", "f", "g", "h", "z: 3", "---")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "m.md")
			if err := os.WriteFile(p, []byte(tc.old), 0o644); err != nil {
				t.Fatal(err)
			}
			patch := filepath.Join(dir, "edit.patch")
			if err := os.WriteFile(patch, []byte(UnifiedDiff("m.md", []byte(tc.old), []byte(tc.new))), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"apply", "--check", patch}, {"apply", patch}} {
				cmd := exec.Command("git", args...)
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
				}
			}
			got, _ := os.ReadFile(p)
			if string(got) != tc.new {
				t.Errorf("applied: %q, want %q", got, tc.new)
			}
		})
	}
}
