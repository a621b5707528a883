package main

import (
	"strings"

	"github.com/alecthomas/kong"

	"github.com/git-memcite/git-memcite/internal/outcome"
)

// helpCmd prints the help of a command: `git memcite help verify`. It
// exists because git turns `git memcite --help` into `man git-memcite`.
type helpCmd struct {
	Command []string `arg:"" optional:"" name:"command" help:"The command to describe (none: all commands)."`
}

func (c *helpCmd) Run(kctx *kong.Context) error {
	if len(c.Command) > 0 && !hasCommand(kctx.Model, strings.Join(c.Command, " ")) {
		return outcome.Usagef("no such command %q; see git memcite help", strings.Join(c.Command, " "))
	}
	tctx, err := kong.Trace(kctx.Kong, c.Command)
	if err != nil {
		return err
	}
	return tctx.PrintUsage(false)
}
