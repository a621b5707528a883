package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// proseCycleMemory names lines of a.txt in the prose, in the line forms a
// memory writes them in.
const proseCycleMemory = `# Notes

The total is at a.txt:5, and again ` + "`a.txt:5`" + `.
See a.txt:8-10 for the loop.
The handler is [here](../../a.txt#L12-L13).
In ` + "`a.txt`" + ` line 15 holds the check.
The tail of ` + "`a.txt`" + ` lines 18-20 closes it.
`

// FuzzProseFixCycle runs the daily loop on the line references of a
// memory's prose over fuzzed edit scripts: rounds of (edit a.txt, commit,
// relocate --prose --fix, commit the memory). At every round a second fix
// changes no byte; once the fix is committed relocate proposes nothing
// more, and verify-all reports no
// reference of lines as moved (a moved range that became one line, or
// the reverse, is left to the author, as documented): relocate rewrote
// every one verification calls moved. The edits insert, delete, edit and
// reorder lines.
func FuzzProseFixCycle(f *testing.F) {
	f.Add([]byte{0, 3, 0, 3, 1, 9})
	f.Add([]byte{2, 9, 0, 0, 3, 11, 1, 20})
	f.Add([]byte{0, 0, 0, 1, 0, 2, 3, 4, 2, 9, 1, 2})
	f.Add([]byte{1, 4, 1, 4, 0, 25, 0, 1, 2, 11})
	f.Add([]byte{3, 7, 2, 8, 0, 1, 1, 2, 2, 17, 3, 12})
	f.Fuzz(func(t *testing.T, script []byte) {
		if len(script) > 18 {
			script = script[:18]
		}
		proseFixCycle(t, script)
	})
}

func proseFixCycle(t *testing.T, script []byte) {
	dir := t.TempDir()
	git := gitfixture.Runner(t, dir)
	words := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima", "mike"}
	var lines []string
	for i := 1; i <= 30; i++ {
		lines = append(lines, fmt.Sprintf("func F%d() int { return %s_%s(%d) }", i, words[i%len(words)], words[(i*7)%len(words)], i*i))
	}
	memPath := ".serena/memories/m.md"
	gitfixture.Write(t, dir, "a.txt", strings.Join(lines, "\n")+"\n")
	gitfixture.Write(t, dir, memPath, proseCycleMemory)
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "init")
	t.Chdir(dir)
	memcite := func(args ...string) (string, int) {
		t.Helper()
		var o, e bytes.Buffer
		code := run(args, &o, &e)
		if code != exitOK && code != exitStale {
			t.Fatalf("git memcite %s: exit %d\n%s%s", strings.Join(args, " "), code, o.String(), e.String())
		}
		return o.String(), code
	}
	memory := func() string {
		b, err := os.ReadFile(filepath.Join(dir, memPath))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for round := 0; len(script) >= 2; round++ {
		for k := 0; k < 3 && len(script) >= 2; k++ {
			op, pos := script[0]%4, int(script[1])
			script = script[2:]
			switch {
			case op == 0 || len(lines) < 22: // insert a new line
				p := pos % (len(lines) + 1)
				lines = append(lines[:p], append([]string{fmt.Sprintf("var inserted%d_%d = %d", round, k, pos)}, lines[p:]...)...)
			case op == 1: // delete a line
				p := pos % len(lines)
				lines = append(lines[:p], lines[p+1:]...)
			case op == 2: // move a line to the top
				p := pos % len(lines)
				l := lines[p]
				lines = append(lines[:p], lines[p+1:]...)
				lines = append([]string{l}, lines...)
			default: // edit a line
				p := pos % len(lines)
				lines[p] += fmt.Sprintf(" // edited %d-%d", round, k)
			}
		}
		gitfixture.Write(t, dir, "a.txt", strings.Join(lines, "\n")+"\n")
		git("commit", "-q", "--allow-empty", "-am", fmt.Sprintf("round %d", round))

		memcite("relocate", "--prose", "--fix")
		fixed := memory()
		if out, _ := memcite("relocate", "--prose", "--fix"); memory() != fixed {
			t.Fatalf("round %d: a second fix changed the memory:\n%s\nthen\n%s\n%s", round, fixed, memory(), out)
		}
		git("commit", "-q", "--allow-empty", "-am", fmt.Sprintf("fix %d", round))
		if out, _ := memcite("relocate", "--prose", "--dry-run"); !strings.Contains(out, "no moved path, moved lines or renamed memory link") {
			t.Fatalf("round %d: after the fix was committed, relocate still proposes:\n%s\n%s", round, out, memory())
		}
		out, _ := memcite("verify-all", "--json")
		var rep struct {
			Memories []struct {
				Stale []struct {
					Path    string `json:"path"`
					Line    int    `json:"line"`
					LineEnd int    `json:"line_end"`
					Kind    string `json:"kind"`
					Reason  string `json:"mismatch_reason"`
					Now     *struct {
						Line    int `json:"line"`
						LineEnd int `json:"line_end"`
					} `json:"now"`
					Prose *struct {
						Kind string `json:"kind"`
					} `json:"prose"`
				} `json:"stale_citations"`
			} `json:"memories"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("round %d: %v\n%s", round, err, out)
		}
		for _, m := range rep.Memories {
			for _, c := range m.Stale {
				if c.Prose == nil || c.Prose.Kind != "lines" || c.Kind != "moved" || c.Now == nil {
					continue
				}
				if (c.LineEnd > c.Line) != (c.Now.LineEnd > c.Now.Line) {
					continue // a range that became one line, or the reverse: left to the author
				}
				t.Fatalf("round %d: after the fix was committed, verify-all still calls %s:%d-%d moved (%s):\n%s", round, c.Path, c.Line, c.LineEnd, c.Reason, memory())
			}
		}
	}
}
