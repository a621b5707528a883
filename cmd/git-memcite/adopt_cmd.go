package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/cite"
	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/render"
)

type adoptCmd struct {
	Memories []string `arg:"" optional:"" name:"memory" help:"Memories to scan (default: every memory)."`
	Fix      bool     `name:"fix" xor:"fix" help:"Add the proposed citations to the memories' frontmatter."`
	DryRun   bool     `name:"dry-run" xor:"fix" help:"Print the edit --fix would make, as a diff git apply accepts; write nothing."`
	JSON     bool     `name:"json" help:"Print JSON."`
}

func (c *adoptCmd) Help() string {
	return `Finds informal citations in memory bodies ([cite:code](path:12) markup, path:12 and path:12-20 (also #L12-L20), ` +
		"backticked paths and bare file names), resolves them against the tracked files (a bare name must match exactly one), " +
		`and proposes structured citations with snippet, commit and verified filled in. Blank or trivial lines, ` +
		`unknown or ambiguous files and citations already present are reported, not proposed. Fenced code blocks are skipped. ` +
		editHelp + `Exit status: 0 scanned (whatever was found); 2 error (a memory file that cannot be parsed).`
}

func (c *adoptCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	ws, err := g.open(ctx, SourceFlags{})
	if err != nil {
		return err
	}
	mems, failed := selectMemories(ctx, ws, c.Memories, env.Stderr)
	tracked, err := ws.Tracked(ctx)
	if err != nil {
		return err
	}
	cenv, err := ws.CiteEnv(ctx)
	if err != nil {
		return err
	}
	if cenv.Head != nil { // a repository with commits: anchor where the words were written
		hist, err := ws.Repo.History()
		if err != nil {
			return fmt.Errorf("adopt anchors mentions in history: %w", err)
		}
		defer hist.Close()
		head, err := hist.Resolve("HEAD")
		if err != nil {
			return err
		}
		idx, err := ws.Repo.Index(ctx)
		if err != nil {
			return err
		}
		cenv.Anchor = &relocate.MentionAnchorer{H: hist, T: gitblame.New(hist), Head: head,
			Target: gitblame.Target{Commit: head, View: ws.Src, CrossFiles: relocate.CrossFiles(idx, ws.Store.Memories)}}
	}
	if c.Fix {
		unlock, err := app.Lock(ctx, ws.Repo)
		if err != nil {
			return err
		}
		defer unlock()
	}
	results := []render.AdoptResult{}
	var diffs strings.Builder
	for _, m := range mems {
		if m.Err != nil {
			fmt.Fprintf(env.Stderr, "git-memcite: %s\n", render.Safe(m.Err.Error()))
			failed = true
			continue
		}
		ms, plan, err := cite.Adopt(ctx, m.File, cenv, tracked, c.Fix || c.DryRun)
		if err != nil {
			return err
		}
		if len(ms) == 0 {
			continue
		}
		if c.DryRun {
			for i := range ms {
				if ms[i].Status == cite.Added {
					ms[i].Status = cite.Proposed // not written
				}
			}
			if plan != nil && plan.Changed {
				diffs.WriteString(render.UnifiedDiff(m.Path, plan.Old, plan.New))
			}
			plan = nil
		}
		results = append(results, render.AdoptResult{Memory: m.ID, Path: m.Path, Mentions: ms})
		if plan != nil && plan.Changed {
			if err := app.WriteMemory(ws.Repo, ws.Top, m.Path, plan.Old, plan.New); err != nil {
				return err
			}
		}
	}
	if c.JSON {
		if err := render.JSON(env.Stdout, results); err != nil {
			return err
		}
	} else if err := render.AdoptText(env.Stdout, results, g.Quiet, diffs.String()); err != nil {
		return err
	}
	if failed {
		return silent(exitError)
	}
	return nil
}
