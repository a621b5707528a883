package main

import (
	"io"

	"github.com/alecthomas/kong"

	"github.com/git-memcite/git-memcite/internal/clidoc"
)

// manCmd prints the man page. git turns `git memcite --help` into
// `man git-memcite`, so install.sh writes it to a MANPATH directory.
type manCmd struct{}

func (c *manCmd) Run(kctx *kong.Context, env *Env) error {
	return writeMan(env.Stdout, kctx.Model)
}

// writeMan writes git-memcite.1 in roff (man(7) macros).
func writeMan(w io.Writer, app *kong.Application) error {
	return clidoc.Man(w, modelOf(app), version, exitHelp)
}
