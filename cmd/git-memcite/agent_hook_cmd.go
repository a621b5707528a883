package main

import (
	"bytes"
	"context"
	"io"
	"runtime/debug"
	"strings"

	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/internal/trace"
)

// agentHookCmd answers an AI agent's hooks (docs/agent-hook.md): it reads
// one event as JSON on stdin and, when the agent read or wrote a memory of
// the repository whose citations are stale, or starts a session in a
// repository with stale memories, writes the answer that gives the agent
// text (hookSpecificOutput.additionalContext) on stdout. It always exits 0 and never blocks the
// agent: an event that is not a memory read, input that is not an event,
// a repository that cannot be opened, even a crash, give no answer and a
// note on stderr when MEMCITE_DEBUG is set.
type agentHookCmd struct{}

func (c *agentHookCmd) Help() string {
	return "Reads one hook event as JSON on stdin (Claude Code, Gemini CLI, Codex, GitHub Copilot and VS Code send the same fields). " +
		"When the agent read a memory file (a file tool, or Serena's read_memory) with stale citations, prints a hookSpecificOutput answer naming each, " +
		"where its lines went and the command that fixes it; when it wrote one (a file tool, Serena's write_memory or edit_memory), " +
		"the citations and path:line references that do not hold in the working tree; when a session starts, how many memories are stale and the worst. " +
		"Nothing when all hold (git config memcite.agentHook verbose: one line). Always exits 0. " +
		"Install it with git memcite install --agent claude|gemini|codex; see docs/agent-hook.md."
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
	res, err := app.AgentAnswer(ctx, g.openOptions(SourceFlags{}), stdin)
	if err != nil {
		return err
	}
	verbose := res.Mode == "verbose"
	var texts []string
	add := func(t string) {
		if t != "" {
			texts = append(texts, t)
		}
	}
	for _, a := range res.Reads {
		add(render.AgentHookText(a, verbose))
	}
	for _, w := range res.Writes {
		add(render.AgentWrittenText(w, verbose))
	}
	if res.Survey != nil {
		add(render.AgentSurveyText(res.Survey, verbose))
	}
	return render.AgentContextJSON(out, res.Event.Name, strings.Join(texts, "\n\n"))
}
