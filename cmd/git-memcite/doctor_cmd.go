package main

import (
	"context"

	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/doctor"
	"github.com/git-memcite/git-memcite/internal/render"
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
	facts, err := app.DoctorFacts(ctx, ws)
	if err != nil {
		return err
	}
	rep := doctor.Run(facts)
	if c.JSON {
		err = render.JSON(env.Stdout, rep)
	} else {
		shown := *rep
		if g.Quiet { // -q: only warnings and failures
			shown.Findings = nil
			for _, f := range rep.Findings {
				if f.Level >= doctor.Warn {
					shown.Findings = append(shown.Findings, f)
				}
			}
		}
		if !g.Quiet || rep.Problems() > 0 {
			err = render.DoctorText(env.Stdout, &shown, g.style(env.Stdout))
		}
	}
	if err != nil {
		return err
	}
	if rep.Problems() > 0 {
		return silent(exitStale)
	}
	return nil
}
