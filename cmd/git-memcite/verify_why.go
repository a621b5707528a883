package main

import (
	"context"

	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// HistoryFlags are verify's options that use the history of the cited
// files.
type HistoryFlags struct {
	Why    bool `name:"why" help:"For each stale citation, name the commit that broke it (moved, edited or deleted its lines) and where the lines are now (text, and a \"why\" object per stale citation with --json)."`
	Record bool `name:"record" help:"Record the current commit and time in every valid citation (commit and verified fields), the base later relocations start from, and the memory's confidence and last_verified."`
}

// explain follows every stale citation of rep through history (verify
// --why; app.Explain) and explains each, by memory path and citation index.
func explain(ctx context.Context, ws *workspace, sf SourceFlags, rep *verify.Report) (render.WhyIndex, error) {
	ex, err := app.Explain(ctx, ws.Repo, ws.Src, string(sf.Rev), sf.Staged, rep)
	if err != nil {
		return nil, err
	}
	return render.WhyIndexOf(ex), nil
}

// record writes the current commit and time into every valid citation
// written as a mapping, and the memory's confidence and last_verified
// (verify --record; app.Record).
func record(ctx context.Context, ws *workspace, rep *verify.Report, env *Env) error {
	res, err := app.Record(ctx, ws.Repo, ws.Src, ws.Cache(), rep)
	if err != nil {
		return err
	}
	render.Recorded(env.Stderr, res.Commit, res.Files, res.Skipped)
	return nil
}
