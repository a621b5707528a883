package benchrepo

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// AgentMemory is the memory AddAgentScenario writes, relative to the
// repository root.
const AgentMemory = ".serena/memories/agent/handlers.md"

// AddAgentScenario adds to a repository made by Generate (with Commit) the
// situation the agent hook answers: a memory citing five lines of
// pkg000/sub0/file00000.go, committed, then a commit "split handlers" that
// moves the function holding two of them into a new file and shifts the
// others down. Every citation of the memory is then stale, and each has
// moved. It returns the memory's path.
func AddAgentScenario(ctx context.Context, dir string, o Options) (string, error) {
	const file = "pkg000/sub0/file00000.go"
	lines := []int{12, 15, 33, 47, 75}
	var b strings.Builder
	b.WriteString("---\nid: agent-handlers\nsubject: Where the handlers are\ncitations:\n")
	for _, l := range lines {
		fmt.Fprintf(&b, "  - path: %s\n    line: %d\n    snippet: %q\n", file, l, strings.TrimSpace(lineText(0, l)))
	}
	b.WriteString("---\n\nThe handlers live in file00000.go.\n")
	if err := write(dir, AgentMemory, b.String()); err != nil {
		return "", err
	}
	if err := git(ctx, dir, "add", "-A"); err != nil {
		return "", err
	}
	if err := git(ctx, dir, "commit", "-q", "-m", "remember the handlers"); err != nil {
		return "", err
	}
	// split handlers: lines 11-20 (one function) go to a new file, two
	// lines are inserted after the package clause
	var kept, moved strings.Builder
	moved.WriteString("package pkg000\n\n")
	for l := 1; l <= o.LinesPerFile; l++ {
		t := lineText(0, l) + "\n"
		switch {
		case l >= 11 && l <= 20:
			moved.WriteString(t)
		default:
			kept.WriteString(t)
		}
		if l == 1 {
			kept.WriteString("\n// Handlers are split by concern.\n")
		}
	}
	if err := write(dir, file, kept.String()); err != nil {
		return "", err
	}
	if err := write(dir, "pkg000/sub0/split00000.go", moved.String()); err != nil {
		return "", err
	}
	if err := git(ctx, dir, "add", "-A"); err != nil {
		return "", err
	}
	if err := git(ctx, dir, "commit", "-q", "-m", "split handlers"); err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.FromSlash(AgentMemory)), nil
}

// git runs git in dir with the generator's identity and no user
// configuration, and without automatic maintenance: a commit of a
// generated tree leaves thousands of loose objects, and the gc git then
// starts in the background packed and deleted them while the benchmark
// scripts copied the repository ("cannot stat .git/objects/NN").
func git(ctx context.Context, dir string, args ...string) error {
	args = append([]string{"-c", "gc.auto=0", "-c", "maintenance.auto=false"}, args...)
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@example.com",
		"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@example.com", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}
