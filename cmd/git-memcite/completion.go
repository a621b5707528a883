package main

import (
	"context"
	"io"

	"github.com/alecthomas/kong"

	"github.com/git-memcite/git-memcite/internal/clidoc"
	"github.com/git-memcite/git-memcite/internal/render"
)

// completionCmd prints a completion script. git's own completion calls
// _git_memcite (bash), _git-memcite (zsh) and the fish rules for
// `git memcite`; the same scripts complete git-memcite typed alone.
type completionCmd struct {
	Shell string `arg:"" name:"shell" enum:"bash,zsh,fish" help:"bash, zsh or fish."`
}

func (c *completionCmd) Help() string {
	return "bash: source it from ~/.bashrc, or save it as ~/.local/share/bash-completion/completions/git-memcite. " +
		"zsh: save it as _git-memcite in a directory of $fpath. fish: save it as ~/.config/fish/completions/git-memcite.fish."
}

func (c *completionCmd) Run(kctx *kong.Context, env *Env) error {
	return writeCompletion(env.Stdout, c.Shell, kctx.Model)
}

// completeCmd prints dynamic completion candidates, one per line. It
// never fails: a shell completing a word must not print errors.
type completeCmd struct {
	What string `arg:"" name:"what" enum:"memories" help:"memories: the ids of the memories."`
}

func (c *completeCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	ws, err := g.open(ctx, SourceFlags{})
	if err != nil || ws.Store == nil {
		return nil
	}
	_ = render.MemoryIDs(env.Stdout, ws.Store.Memories) // never fails
	return nil
}

func writeCompletion(w io.Writer, shell string, app *kong.Application) error {
	return clidoc.Completion(w, shell, modelOf(app))
}
