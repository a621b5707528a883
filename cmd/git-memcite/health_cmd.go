package main

import (
	"bytes"
	"context"
	"fmt"

	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/outcome"
	"github.com/git-memcite/git-memcite/internal/render"
)

type healthCmd struct {
	Format string   `name:"format" enum:"markdown,json,html" default:"markdown" help:"Report format: ${enum}."`
	Output string   `name:"output" short:"o" placeholder:"FILE" help:"Write the report to FILE instead of standard output."`
	Since  revision `name:"since" placeholder:"REV" help:"Compare with the store and code at an earlier commit and list what got worse."`
}

func (c *healthCmd) Help() string {
	return `Per memory: status, last verified date, confidence, valid/total citations and the staleness reason, worst first; ` +
		`totals and coverage; a per-folder breakdown; dangling links and orphans. ` +
		`Exit status: 0 report written; 1 with --since when a memory got worse; 2 error.`
}

func (c *healthCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	ws, err := g.open(ctx, SourceFlags{})
	if err != nil {
		return err
	}
	render.ParseWarnings(env.Stderr, ws.Store.Memories)
	rep, worse, err := app.Health(ctx, ws, string(c.Since))
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := render.Health(&buf, c.Format, rep); err != nil {
		return err
	}
	if c.Output != "" {
		if err := app.WriteReport(c.Output, buf.Bytes()); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "health report written to %s\n", render.Safe(c.Output))
	} else if _, err := env.Stdout.Write(buf.Bytes()); err != nil {
		return err
	}
	if worse {
		return outcome.Reported(outcome.Worse)
	}
	return nil
}
