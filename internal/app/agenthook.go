package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/git-memcite/git-memcite/internal/agenthook"
	"github.com/git-memcite/git-memcite/internal/hookrun"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/term"
)

// NoAnswer ends an agent hook run that has nothing to say, with the
// reason.
type NoAnswer string

func (e NoAnswer) Error() string { return string(e) }

// AgentAnswer reads one hook event from stdin and, when it is the read of
// a memory, checks that memory (AgentCheck). It returns NoAnswer when the
// hook is switched off (MEMCITE=0 and the like) or the event is not a
// memory read, and agenthook.ErrEmpty when stdin is a terminal: a person,
// not an agent.
func AgentAnswer(ctx context.Context, o OpenOptions, stdin io.Reader) (*agenthook.Answer, string, error) {
	if why, skip := hookrun.Skipped("agent-hook", os.Getenv); skip {
		return nil, "", NoAnswer("switched off by " + why)
	}
	if term.IsTerminal(stdin) {
		return nil, "", agenthook.ErrEmpty
	}
	data, err := io.ReadAll(io.LimitReader(stdin, agenthook.MaxPayload+1))
	if err != nil {
		return nil, "", fmt.Errorf("read the event: %w", err)
	}
	if len(data) > agenthook.MaxPayload {
		return nil, "", fmt.Errorf("event larger than %d MiB", agenthook.MaxPayload>>20)
	}
	ev, err := agenthook.Parse(data)
	if err != nil {
		return nil, "", err
	}
	if !ev.MemoryRead() {
		return nil, "", NoAnswer(fmt.Sprintf("event %q of tool %q is not the read of a memory", ev.Name, ev.Tool))
	}
	return AgentCheck(ctx, o, &ev)
}

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
	// the prose of the memory is checked too: the other memories are
	// listed (not read) for the names it may mention
	if err := ws.FindStore(ctx); err != nil {
		return nil, mode, err
	}
	ctx, done, err := WithProse(ctx, ws)
	if err != nil {
		return nil, mode, err
	}
	defer done()
	ans, err := agenthook.Check(ctx, ws.Repo, ws.Src, m, agenthook.Options{})
	return ans, mode, err
}
