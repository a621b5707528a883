package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/git-memcite/git-memcite/internal/agenthook"
	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/hookrun"
	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/internal/trace"
)

// agentHookCmd answers an AI agent's tool hook (docs/agent-hook.md): it
// reads one event as JSON on stdin and, when the agent read a memory of
// the repository whose citations are stale, writes Claude Code's
// PostToolUse answer on stdout. It always exits 0 and never blocks the
// agent: an event that is not a memory read, input that is not an event,
// a repository that cannot be opened, even a crash, give no answer and a
// note on stderr when MEMCITE_DEBUG is set.
type agentHookCmd struct{}

func (c *agentHookCmd) Help() string {
	return "Reads one hook event (Claude Code's protocol) as JSON on stdin. When the agent read a memory file " +
		"(the Read tool, or Serena's read_memory) with stale citations, prints a hookSpecificOutput answer naming each, " +
		"where its lines went and the command that fixes it; nothing for a valid memory " +
		"(git config memcite.agentHook verbose: one line). Always exits 0. " +
		"Install it with git memcite install --agent claude; see docs/agent-hook.md."
}

func (c *agentHookCmd) Run(ctx context.Context, g *Globals, env *Env) (err error) {
	defer func() {
		if r := recover(); r != nil {
			trace.Printf("agent-hook: internal error: %v\n%s", r, debug.Stack())
			err = nil
		}
	}()
	var out bytes.Buffer
	if err := c.answer(ctx, g, env.Stdin, &out); err != nil {
		trace.Printf("agent-hook: no answer: %v", err)
		return nil
	}
	if _, err := env.Stdout.Write(out.Bytes()); err != nil {
		trace.Printf("agent-hook: %v", err)
	}
	return nil
}

// answer reads the event and writes the answer to out (nothing when there
// is nothing to say).
func (c *agentHookCmd) answer(ctx context.Context, g *Globals, stdin io.Reader, out io.Writer) error {
	if why, skip := hookrun.Skipped("agent-hook", os.Getenv); skip {
		return app.NoAnswer("switched off by " + why)
	}
	if f, ok := stdin.(*os.File); ok && isTerminal(f) {
		return agenthook.ErrEmpty // a person at a terminal, not an agent
	}
	data, err := io.ReadAll(io.LimitReader(stdin, agenthook.MaxPayload+1))
	if err != nil {
		return fmt.Errorf("read the event: %w", err)
	}
	if len(data) > agenthook.MaxPayload {
		return fmt.Errorf("event larger than %d MiB", agenthook.MaxPayload>>20)
	}
	ev, err := agenthook.Parse(data)
	if err != nil {
		return err
	}
	if !ev.MemoryRead() {
		return app.NoAnswer(fmt.Sprintf("event %q of tool %q is not the read of a memory", ev.Name, ev.Tool))
	}
	ans, mode, err := app.AgentCheck(ctx, g.openOptions(SourceFlags{}), &ev)
	if err != nil {
		return err
	}
	return render.AgentHookJSON(out, ans, mode == "verbose")
}
