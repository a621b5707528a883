package main

import (
	"context"

	"github.com/git-memcite/git-memcite/internal/render"
)

type configCmd struct {
	SourceFlags
}

func (c *configCmd) Help() string {
	return "Settings come from, first match wins: flags, MEMCITE_* environment variables, " +
		"git config memcite.* (personal), .memcite.yaml at the repository root or the file MEMCITE_CONFIG names (team), defaults. " +
		"The hook settings (memcite.enabled, memcite.preCommit, memcite.postMerge, memcite.requireBinary, memcite.onError) come from git config only."
}

// Run prints every setting, its value and where it came from.
func (c *configCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	ws, err := g.openConfig(ctx, c.SourceFlags)
	if err != nil {
		return err
	}
	return render.ConfigText(env.Stdout, ws.Cfg, ws.Src.Name())
}
