package main

import (
	"context"

	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/doctor"
	"github.com/git-memcite/git-memcite/internal/outcome"
	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/internal/vcache"
)

type doctorCmd struct {
	JSON bool `name:"json" help:"Print JSON."`
}

func (c *doctorCmd) Help() string {
	return `Checks the memory directories and their files, Serena's .serena/project.yml, the git hooks and other hook managers, ` +
		`the git version, the index format and shallow clones. Exit status: 0 healthy; 1 problems found (warnings or failures); 2 error.`
}

func (c *doctorCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	ws, err := g.openConfig(ctx, SourceFlags{})
	if err != nil {
		return err
	}
	off := vcache.OffReason(g.NoCache, g.switches.Cache)
	facts, err := app.DoctorFacts(ctx, ws, vcache.Tool(version), off)
	if err != nil {
		return err
	}
	rep := doctor.Run(facts)
	if c.JSON {
		err = render.JSON(env.Stdout, rep)
	} else {
		err = render.DoctorReport(env.Stdout, rep, g.style(env.Stdout), g.Quiet)
	}
	if err != nil {
		return err
	}
	if rep.Problems() > 0 {
		return outcome.Reported(outcome.DoctorProblem)
	}
	return nil
}
