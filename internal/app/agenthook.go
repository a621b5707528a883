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

// AgentResult is the agent hook's finding for one event: the memories
// read (Reads) or written (Writes), or the store at a session's start
// (Survey); Mode is the configured agent-hook mode.
type AgentResult struct {
	Event  agenthook.Event
	Mode   string
	Reads  []*agenthook.Answer
	Writes []*agenthook.Written
	Survey *agenthook.Survey
}

// AgentAnswer reads one hook event from stdin and, when it is the read or
// the write of a memory, checks that memory (AgentCheck), or at a
// session's start the whole store. It returns NoAnswer when the hook is
// switched off (MEMCITE=0 and the like) or the event is not one the hook
// answers, and agenthook.ErrEmpty when stdin is a terminal: a person, not
// an agent.
func AgentAnswer(ctx context.Context, o OpenOptions, stdin io.Reader) (*AgentResult, error) {
	if why, skip := hookrun.Skipped("agent-hook", os.Getenv); skip {
		return nil, NoAnswer("switched off by " + why)
	}
	if term.IsTerminal(stdin) {
		return nil, agenthook.ErrEmpty
	}
	data, err := io.ReadAll(io.LimitReader(stdin, agenthook.MaxPayload+1))
	if err != nil {
		return nil, fmt.Errorf("read the event: %w", err)
	}
	if len(data) > agenthook.MaxPayload {
		return nil, fmt.Errorf("event larger than %d MiB", agenthook.MaxPayload>>20)
	}
	ev, err := agenthook.Parse(data)
	if err != nil {
		return nil, err
	}
	if ev.Kind() == agenthook.NotOurs {
		return nil, NoAnswer(fmt.Sprintf("event %q of tool %q is not the read or write of a memory, nor a session start", ev.Name, ev.Tool))
	}
	return AgentCheck(ctx, o, &ev)
}

// AgentCheck answers ev in the repository its working directory is in
// (o.RepoRoot wins; then the event's cwd, CLAUDE_PROJECT_DIR,
// GEMINI_PROJECT_DIR, the current directory): the memories it reads or
// writes are checked, or at a session's start the whole store. It returns
// NoAnswer when no file is a memory or the hook is switched off. An event
// without a cwd is given the directory used.
func AgentCheck(ctx context.Context, o OpenOptions, ev *agenthook.Event) (*AgentResult, error) {
	for _, s := range []string{ev.Cwd, os.Getenv("CLAUDE_PROJECT_DIR"), os.Getenv("GEMINI_PROJECT_DIR"), "."} {
		if o.RepoRoot == "" {
			o.RepoRoot = s
		}
	}
	if ev.Cwd == "" {
		if abs, err := filepath.Abs(o.RepoRoot); err == nil {
			ev.Cwd = abs
		}
	}
	o.Staged, o.Rev = false, "" // the working tree: what the agent reads and writes
	ws, err := OpenConfigured(ctx, o)
	if err != nil {
		return nil, err
	}
	res := &AgentResult{Event: *ev, Mode: ws.Cfg.Get("agent-hook").First()}
	if res.Mode == "off" || !hookrun.ConfigFrom(ws.GitConfig).Enabled {
		return nil, NoAnswer("switched off by configuration")
	}
	if ev.Kind() == agenthook.SessionStart {
		if err := ws.LoadStore(ctx); err != nil {
			return nil, err
		}
		if res.Survey, err = agenthook.SurveyStore(ctx, ws.Src, ws.Store.Memories); err != nil {
			return nil, err
		}
		return res, nil
	}
	dirs, err := ws.MemoryDirs()
	if err != nil {
		return nil, err
	}
	for _, t := range agenthook.LocateAll(*ev, ws.Top, dirs) {
		if ws.Cfg.Ignored(t.Rel) {
			continue
		}
		m := store.LoadFile(ctx, ws.Src, t.Rel, t.Dir)
		if errors.Is(m.Err, source.ErrNotExist) {
			continue
		}
		if ev.Kind() == agenthook.Write {
			w, err := agenthook.CheckWritten(ctx, ws.Src, m)
			if err != nil {
				return nil, err
			}
			res.Writes = append(res.Writes, w)
			continue
		}
		ans, err := agenthook.Check(ctx, ws.Repo, ws.Src, m, agenthook.Options{})
		if err != nil {
			return nil, err
		}
		res.Reads = append(res.Reads, ans)
	}
	if len(res.Reads)+len(res.Writes) == 0 {
		return nil, NoAnswer(fmt.Sprintf("not a memory of the repository %s (memory directories: %v)", ws.Top, dirs))
	}
	return res, nil
}
