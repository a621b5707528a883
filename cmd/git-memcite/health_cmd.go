package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/graph"
	"github.com/git-memcite/git-memcite/internal/health"
	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/verify"
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
	for _, m := range ws.Store.Memories {
		if m.File != nil {
			for _, d := range m.File.Warnings {
				fmt.Fprintf(env.Stderr, "warning: %s\n", render.Safe(d.String()))
			}
		}
	}
	rep, err := healthOf(ctx, ws.Src.Name(), ws.Store, func(mems []*store.Memory) (*verify.Report, error) {
		return verify.Check(ctx, ws.Src, mems)
	})
	if err != nil {
		return err
	}
	worse := false
	if c.Since != "" {
		if ws.Repo == nil {
			return errors.New("--since needs a git repository")
		}
		h, err := ws.Repo.ResolveCommit(ctx, string(c.Since))
		if err != nil {
			return err
		}
		src, err := ws.Repo.Commit(ctx, h)
		if err != nil {
			return err
		}
		var then []string // the memory directories that existed then
		for _, d := range ws.Store.Dirs {
			if e, err := src.Stat(d); err == nil && e.Kind == source.KindDir {
				then = append(then, d)
			}
		}
		old := &store.Store{Dirs: then}
		if len(then) > 0 {
			if old, err = store.Load(ctx, src, then); err != nil {
				return err
			}
		}
		before, err := healthOf(ctx, src.Name(), old, func(mems []*store.Memory) (*verify.Report, error) {
			return verify.Check(ctx, src, mems)
		})
		if err != nil {
			return err
		}
		health.Compare(rep, before, string(c.Since), h.String())
		worse = len(rep.Since.Worse) > 0
	}
	var buf bytes.Buffer
	switch c.Format {
	case "json":
		err = render.HealthJSON(&buf, rep)
	case "html":
		err = render.HealthHTML(&buf, rep)
	default:
		err = render.HealthMarkdown(&buf, rep)
	}
	if err != nil {
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
		return silent(exitStale)
	}
	return nil
}

// healthOf verifies a store and builds its health report with its graph.
func healthOf(ctx context.Context, source string, st *store.Store, check func([]*store.Memory) (*verify.Report, error)) (*health.Report, error) {
	vr, err := check(st.Memories)
	if err != nil {
		return nil, err
	}
	vr.Source = source
	w, err := graph.FromStore(st).Build(ctx, nil)
	if err != nil {
		return nil, err
	}
	return health.Build(vr, w), nil
}
