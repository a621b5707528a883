package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/outcome"
	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
)

type verifyCmd struct {
	SourceFlags
	HistoryFlags
	Memories []string `arg:"" optional:"" name:"memory" help:"Memory id, file path, or file name in a memory directory (with --why or --record, none means every memory)."`
	JSON     bool     `name:"json" xor:"format" help:"Print JSON (one object per memory; an array for several): the per-memory shape of docs/citation-schema.md; --format json prints the findings report instead."`
	FormatFlags
}

func (c *verifyCmd) Help() string { return exitHelp }

func (c *verifyCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	if len(c.Memories) == 0 && !c.Why && !c.Record {
		return outcome.Usagef("name the memories to verify (git memcite verify-all checks every memory; with --why or --record no name means every memory)")
	}
	ws, err := g.open(ctx, c.SourceFlags)
	if err != nil {
		return err
	}
	mems, failed := selectMemories(ctx, ws, c.Memories, env.Stderr)
	rep, err := app.Verify(ctx, ws, mems)
	if err != nil {
		return err
	}
	var why render.WhyIndex
	if c.Why {
		if c.Format != "" && c.Format != "text" {
			return fmt.Errorf("--why works with text and --json output, not --format %s", c.Format)
		}
		if why, err = explain(ctx, ws, c.SourceFlags, rep); err != nil {
			return err
		}
	}
	var jsonOut func() error
	if c.JSON {
		jsonOut = func() error {
			warn(env, rep)
			if len(rep.Memories) == 1 && len(c.Memories) == 1 {
				return render.MemoryJSON(env.Stdout, &rep.Memories[0], why)
			}
			return render.MemoriesJSON(env.Stdout, rep, why)
		}
	}
	return c.conclude(ctx, g, env, ws, c.SourceFlags, "verify", rep, failed, c.Record, func(w io.Writer, st render.Style) error {
		return render.VerifyText(w, rep, why, g.Quiet, st)
	}, jsonOut)
}

// conclude writes a verification's report (the findings report in the
// format asked for, with text as its text format; or jsonOut for --json),
// runs --record when asked, and returns the outcome.
func (f *FormatFlags) conclude(ctx context.Context, g *Globals, env *Env, ws *workspace, sf SourceFlags, command string,
	rep *verify.Report, failed, record bool, text func(io.Writer, render.Style) error, jsonOut func() error) error {
	var result error // the outcome: nil, or an *outcome.Error
	if jsonOut == nil {
		result = f.report(ctx, g, env, ws, command, rep, failed, text)
		var oe *outcome.Error
		if result != nil && !errors.As(result, &oe) {
			return result
		}
	} else {
		if err := jsonOut(); err != nil {
			return err
		}
		result = reportOutcome(rep, failed)
	}
	if record {
		if err := recordChecked(ctx, ws, sf, rep, env); err != nil {
			return err
		}
	}
	return result
}

// recordChecked runs --record after a verification.
func recordChecked(ctx context.Context, ws *workspace, sf SourceFlags, rep *verify.Report, env *Env) error {
	if sf.Staged || sf.Rev != "" {
		return fmt.Errorf("--record writes the working tree's memory files: it cannot be combined with --staged or --rev")
	}
	return record(ctx, ws, rep, env)
}

// reportOutcome maps a report to its outcome: errors win over stale.
func reportOutcome(rep *verify.Report, failed bool) error {
	s := rep.Summary()
	switch {
	case failed || s.Errors > 0:
		return outcome.Reported(outcome.BadInput)
	case s.Stale > 0:
		return outcome.Reported(outcome.Stale)
	}
	return nil
}

// warn prints the parse warnings of the memories in a report.
func warn(env *Env, rep *verify.Report) { render.ReportWarnings(env.Stderr, rep) }

// selectMemories returns the memories named by args (every memory when
// there are none). A name that resolves to nothing is reported on stderr and
// skipped, so the others are still processed; failed says that happened
// (exit 2).
func selectMemories(ctx context.Context, ws *workspace, args []string, stderr io.Writer) (mems []*store.Memory, failed bool) {
	mems, errs := ws.Select(ctx, args)
	render.Errors(stderr, errs)
	return mems, len(errs) > 0
}

type verifyAllCmd struct {
	SourceFlags
	JSON   bool `name:"json" xor:"format" help:"Print one JSON document: source, summary and per-memory objects (the per-memory shape of docs/citation-schema.md; --format json prints the findings report instead)."`
	Record bool `name:"record" help:"Record the current commit and time in every valid citation of every memory (commit and verified fields), in one run."`
	FormatFlags

	noMemo bool // run as part of a hook: the run is not kept (runMemo)
}

func (c *verifyAllCmd) Help() string { return exitHelp }

func (c *verifyAllCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	start := time.Now()
	// the verification cache is read only if the run is not replayed
	o := g.openOptions(c.SourceFlags)
	o.DeferCache = true
	ws, err := g.openWith(ctx, o)
	if err != nil {
		return err
	}
	memo := c.runMemo(ctx, g, env, ws)
	if run := memo.Replay(ctx); run != nil {
		return replayRun(env, run, time.Since(start))
	}
	ws.OpenCache()
	memo.Record()
	if err := ws.LoadStore(ctx); err != nil {
		return err
	}
	rep, err := app.Verify(ctx, ws, ws.Store.Memories)
	if err != nil {
		return err
	}
	if memo == nil {
		rep.Elapsed = time.Since(start)
		return c.report(ctx, g, env, ws, rep)
	}
	return keepRun(env, memo, start, rep, func(env *Env) error { return c.report(ctx, g, env, ws, rep) })
}

// report writes verify-all's report and returns the outcome.
func (c *verifyAllCmd) report(ctx context.Context, g *Globals, env *Env, ws *workspace, rep *verify.Report) error {
	var jsonOut func() error
	if c.JSON {
		jsonOut = func() error { return render.AllJSON(env.Stdout, rep) }
	}
	return c.conclude(ctx, g, env, ws, c.SourceFlags, "verify-all", rep, false, c.Record, func(w io.Writer, st render.Style) error {
		return render.AllText(w, rep, render.AllOptions{Quiet: g.Quiet, Style: st})
	}, jsonOut)
}

// runMemo returns the memo of this run (docs/cache.md, "Whole runs"), or
// nil when it is not kept: in a hook, or when the run writes elsewhere
// than to its output streams (--record, --output, a GitHub step summary)
// or depends on more than the key and the content it checks (a
// baseline, --changed-since).
func (c *verifyAllCmd) runMemo(ctx context.Context, g *Globals, env *Env, ws *workspace) *app.RunMemo {
	if c.noMemo || c.Record || (c.Output != "" && c.Output != "-") || c.Since != "" || c.Baseline != "" ||
		os.Getenv("GITHUB_BASE_REF") != "" {
		return nil
	}
	if f := c.Format; f == "github" || (f == "" && !c.JSON && ws.Cfg.Get("format").First() == "github") {
		return nil
	}
	style := fmt.Sprintf("stdout %t stderr %t", g.style(env.Stdout).Color, g.style(env.Stderr).Color)
	return app.NewRunMemo(ctx, ws, app.RunOptions{Tool: vcache.Tool(version), Args: g.args, Env: os.Environ(), Style: style})
}
