package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/git-memcite/git-memcite/internal/agenthook"
	"github.com/git-memcite/git-memcite/internal/hookrun"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
)

// NoAnswer ends an agent hook run that has nothing to say, with the
// reason.
type NoAnswer string

func (e NoAnswer) Error() string { return string(e) }

// AgentCheck checks the memory an agent read (ev, a memory read) in the
// repository its working directory is in (o.RepoRoot wins; then the
// event's cwd, CLAUDE_PROJECT_DIR, the current directory). It returns the
// answer and the configured agent-hook mode, or NoAnswer when the file is
// not a memory or the hook is switched off. An event without a cwd is
// given the directory used.
func AgentCheck(ctx context.Context, o OpenOptions, ev *agenthook.Event) (*agenthook.Answer, string, error) {
	for _, s := range []string{ev.Cwd, os.Getenv("CLAUDE_PROJECT_DIR"), "."} {
		if o.RepoRoot == "" {
			o.RepoRoot = s
		}
	}
	if ev.Cwd == "" {
		if abs, err := filepath.Abs(o.RepoRoot); err == nil {
			ev.Cwd = abs
		}
	}
	o.Staged, o.Rev = false, "" // the working tree: what the agent read
	ws, err := OpenConfigured(ctx, o)
	if err != nil {
		return nil, "", err
	}
	mode := ws.Cfg.Get("agent-hook").First()
	if mode == "off" || !hookrun.ConfigFrom(ws.GitConfig).Enabled {
		return nil, mode, NoAnswer("switched off by configuration")
	}
	dirs, err := ws.MemoryDirs()
	if err != nil {
		return nil, mode, err
	}
	rel, dir, ok := agenthook.Locate(*ev, ws.Top, dirs)
	if !ok || ws.Cfg.Ignored(rel) {
		return nil, mode, NoAnswer(fmt.Sprintf("not a memory of the repository %s (memory directories: %v)", ws.Top, dirs))
	}
	m := store.LoadFile(ctx, ws.Src, rel, dir)
	if errors.Is(m.Err, source.ErrNotExist) {
		return nil, mode, NoAnswer(rel + ": no such memory file")
	}
	ans, err := agenthook.Check(ctx, ws.Repo, ws.Src, m, agenthook.Options{})
	return ans, mode, err
}
