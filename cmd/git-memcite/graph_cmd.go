package main

import (
	"context"

	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/graph"
	"github.com/git-memcite/git-memcite/internal/outcome"
	"github.com/git-memcite/git-memcite/internal/render"
)

const graphHelp = `Links are read from the frontmatter (- related: target, or link_type/target_id). ` +
	`A target names a memory by its path below the memory directory, its file name, or its frontmatter id. ` +
	`Exit status: 0 done; 1 with --cycles when cycles exist; 2 error (unknown memory, bad flags).`

// graphCmd groups the graph commands; `graph <root>` runs the traversal.
type graphCmd struct {
	Traverse  graphTraverseCmd  `cmd:"" default:"withargs" help:"Traverse the links from <root>; with --cycles or --format, the whole graph. The default: git memcite graph <root>."`
	FindRoots graphFindRootsCmd `cmd:"" name:"find-roots" help:"List the memories no link points to."`
	Related   graphRelatedCmd   `cmd:"" name:"related" aliases:"backlinks" help:"List the memories that link to a memory (backlinks)."`
}

func (c *graphCmd) Help() string { return graphHelp }

type graphTraverseCmd struct {
	Root      string   `arg:"" optional:"" name:"root" help:"Memory to start from (id, path below the memory directory, or file name)."`
	Strategy  string   `name:"strategy" enum:"bfs,dfs" default:"bfs" help:"Traversal order: ${enum}."`
	MaxDepth  int      `name:"max-depth" default:"3" placeholder:"N" help:"Follow links at most N steps from the root (default 3; -1: no limit)."`
	LinkTypes []string `name:"link-types" sep:"," placeholder:"TYPE" help:"Follow only these link types (related, supersedes, blocks, implements, extends)."`
	JSON      bool     `name:"json" help:"Print JSON."`
	Cycles    bool     `name:"cycles" help:"Find every cycle in the whole graph (one per strongly connected group); exit 1 when there are any."`
	Format    string   `name:"format" enum:",dot,mermaid,json" default:"" help:"Export the whole graph: dot (Graphviz), mermaid or json."`
}

func (c *graphTraverseCmd) Help() string { return graphHelp }

func (c *graphTraverseCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	gr, err := g.openGraph(ctx)
	if err != nil {
		return err
	}
	switch {
	case c.Format != "" || c.Cycles:
		if c.Root != "" {
			return outcome.Usagef("a root memory cannot be combined with --format or --cycles (they cover the whole graph)")
		}
		w, err := gr.Build(ctx, c.LinkTypes)
		if err != nil {
			return err
		}
		if err := render.WholeGraph(env.Stdout, w, c.Format, c.JSON); err != nil {
			return err
		}
		if c.Cycles && c.Format == "" && len(w.Cycles) > 0 {
			return outcome.Reported(outcome.Cycles)
		}
		return nil
	case c.Root == "":
		return outcome.Usagef("graph needs a root memory, or --cycles, or --format dot|mermaid|json (see git memcite graph --help)")
	}
	root, err := gr.Resolve(ctx, c.Root)
	if err != nil {
		return err
	}
	t, err := gr.Traverse(ctx, root, graph.Options{Strategy: graph.Strategy(c.Strategy), MaxDepth: c.MaxDepth, Types: c.LinkTypes})
	if err != nil {
		return err
	}
	if c.JSON {
		return render.TraversalJSON(env.Stdout, t)
	}
	return render.TraversalText(env.Stdout, t)
}

type graphFindRootsCmd struct {
	LinkTypes []string `name:"link-types" sep:"," placeholder:"TYPE" help:"Count only these link types."`
	JSON      bool     `name:"json" help:"Print JSON (a list of ids)."`
}

func (c *graphFindRootsCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	gr, err := g.openGraph(ctx)
	if err != nil {
		return err
	}
	w, err := gr.Build(ctx, c.LinkTypes)
	if err != nil {
		return err
	}
	if c.JSON {
		return render.JSON(env.Stdout, w.Roots)
	}
	return render.RootsText(env.Stdout, w)
}

type graphRelatedCmd struct {
	Memory    string   `arg:"" name:"memory" help:"Memory whose backlinks to list."`
	LinkTypes []string `name:"link-types" sep:"," placeholder:"TYPE" help:"Only these link types."`
	JSON      bool     `name:"json" help:"Print JSON."`
}

func (c *graphRelatedCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	gr, err := g.openGraph(ctx)
	if err != nil {
		return err
	}
	i, err := gr.Resolve(ctx, c.Memory)
	if err != nil {
		return err
	}
	links, err := gr.Backlinks(ctx, i, c.LinkTypes)
	if err != nil {
		return err
	}
	if c.JSON {
		return render.JSON(env.Stdout, links)
	}
	return render.BacklinksText(env.Stdout, gr.ID(i), links)
}

// openGraph lists the memories of the working tree without reading them
// (app.OpenGraph).
func (g *Globals) openGraph(ctx context.Context) (*graph.Graph, error) {
	return app.OpenGraph(ctx, g.openOptions(SourceFlags{}))
}
