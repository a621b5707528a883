package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/git-memcite/git-memcite/internal/agenthook"
	"github.com/git-memcite/git-memcite/internal/hookrun"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/term"
	"github.com/git-memcite/git-memcite/internal/verify"
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
	ws, err := Open(ctx, o)
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
		rep, err := Verify(ctx, ws, ws.Store.Memories)
		if err != nil {
			return nil, err
		}
		res.Survey = agenthook.SurveyReport(rep)
		return res, nil
	}
	dirs, err := ws.MemoryDirs()
	if err != nil {
		return nil, err
	}
	targets := agenthook.LocateAll(*ev, ws.Top, dirs)
	check := agenthook.Options{Verify: verify.Options{Cache: ws.Cache()}}
	if len(targets) > 0 && ev.Kind() != agenthook.Write {
		// a memory read: the references in its prose are judged too (the
		// other memories are listed, not read, for the names it may
		// mention); a write checks its text as written itself
		if err := ws.FindStore(ctx); err != nil {
			return nil, err
		}
		var done func()
		if check.Verify, done, err = ws.VerifyOptions(); err != nil {
			return nil, err
		}
		defer done()
	}
	for _, t := range targets {
		if ws.Cfg.Ignored(t.Rel) {
			continue
		}
		m := store.LoadFile(ctx, ws.Src, t.Rel, t.Dir, ws.Cache())
		if errors.Is(m.Err, source.ErrNotExist) {
			continue
		}
		if ev.Kind() == agenthook.Write {
			w, err := agenthook.CheckWritten(ctx, ws.Src, m, ws.Cache())
			if err != nil {
				return nil, err
			}
			if res.Mode == "pin" && w.Unpinned > 0 {
				pinWritten(ctx, ws, ev, w)
			}
			res.Writes = append(res.Writes, w)
			continue
		}
		ans, err := agenthook.Check(ctx, ws.Repo, ws.Src, m, check)
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

// pinLockWait is how long the hook waits for the rewrite lock before it
// gives up pinning: the agent is waiting.
const pinLockWait = time.Second

// pinWritten pins the citations of the memory w that hold and name no
// commit (agent_hook: pin), as git memcite verify --record does: under
// the rewrite lock, and only when the file still holds exactly what the
// agent wrote (the event's whole content; a tool that edits part of a
// file gives none, and nothing is pinned). What it did, or why not, goes
// into w (Pinned, PinNote).
func pinWritten(ctx context.Context, ws *Workspace, ev *agenthook.Event, w *agenthook.Written) {
	m := w.Memory
	switch {
	case ev.Content == "":
		w.PinNote = "the tool edited part of the file, so what the agent wrote is not known"
		return
	case ws.Repo == nil:
		w.PinNote = ErrRecordNoRepository.Error()
		return
	case m.File == nil || !bytes.Equal(m.File.Src, []byte(ev.Content)):
		w.PinNote = "the file does not hold what the agent wrote"
		return
	}
	head, ok, err := ws.Repo.Head()
	if err != nil || !ok {
		w.PinNote = ErrRecordNoCommit.Error()
		return
	}
	headHash, _ := head.Hash()
	hist, err := ws.Repo.History()
	if err != nil {
		w.PinNote = err.Error()
		return
	}
	defer hist.Close()
	unlock, err := ws.Repo.Lock(ctx, pinLockWait)
	if err != nil {
		w.PinNote = "another git-memcite is rewriting memories: " + err.Error()
		return
	}
	defer unlock()
	cur := store.LoadFile(ctx, ws.Src, m.Path, m.Dir, ws.Cache())
	if cur.Err != nil || !bytes.Equal(cur.File.Src, []byte(ev.Content)) {
		w.PinNote = "the file changed since the agent wrote it"
		return
	}
	rep, err := verify.Check(ctx, ws.Src, []*store.Memory{cur}, verify.Options{Cache: ws.Cache()})
	if err != nil {
		w.PinNote = err.Error()
		return
	}
	stamp := memfile.Timestamp(Now().UTC().Format(time.RFC3339))
	dirty := Dirty(hist, headHash, ws.Src)
	pinned := 0
	for _, c := range rep.Memories[0].Citations {
		if c.Status == verify.Valid && c.Citation.Form == memfile.FormMapping && c.Citation.Commit == "" && !dirty(c.Citation.Path) {
			pinned++
		}
	}
	out, _, err := recordOne(&rep.Memories[0], head.String(), stamp, dirty)
	if err != nil || out == nil {
		if err != nil {
			w.PinNote = err.Error()
		}
		return
	}
	if err := WriteMemory(ws.Repo, ws.Top, m.Path, cur.File.Src, out); err != nil {
		w.PinNote = err.Error()
		return
	}
	w.Pinned, w.PinCommit = pinned, head.String()
	w.Unpinned -= min(pinned, w.Unpinned)
}
