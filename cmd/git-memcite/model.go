package main

import (
	"strings"

	"github.com/alecthomas/kong"

	"github.com/git-memcite/git-memcite/internal/clidoc"
	"github.com/git-memcite/git-memcite/internal/config"
)

// The man page and the shell completions are generated (package clidoc)
// from the kong model, walked here into a clidoc.Model, so they list
// exactly the commands and flags the parser accepts.

// memoryArgs are the positional arguments that name memories.
var memoryArgs = map[string]bool{"memory": true, "memories": true, "root": true, "target": true}

// modelOf lists the global flags and the visible commands (depth-first).
func modelOf(app *kong.Application) clidoc.Model {
	var globals []clidoc.Flag
	var cmds []clidoc.Command
	globals = flagsOf(app.Node.Flags)
	var walk func(n *kong.Node, prefix string)
	walk = func(n *kong.Node, prefix string) {
		for _, c := range n.Children {
			if c.Hidden || c.Type != kong.CommandNode {
				continue
			}
			name := strings.TrimSpace(prefix + " " + c.Name)
			ci := clidoc.Command{Name: name, Help: c.Help, Detail: c.Detail, Usage: c.Summary(), Flags: flagsOf(c.Flags)}
			ci.Usage = strings.TrimSpace(strings.TrimPrefix(ci.Usage, c.Name))
			positional := c.Positional
			if d := c.DefaultCmd; d != nil {
				// `graph <root>` runs the default child: its flags and
				// arguments are the command's too
				ci.Flags = append(ci.Flags, flagsOf(d.Flags)...)
				positional = append(positional, d.Positional...)
			}
			for _, p := range positional {
				ci.Args = append(ci.Args, clidoc.Arg{Name: p.Name, Help: p.Help, Values: enumOf(p.Enum), Memory: memoryArgs[p.Name]})
			}
			for _, s := range c.Children {
				if !s.Hidden && s.Type == kong.CommandNode {
					ci.Subs = append(ci.Subs, s.Name)
				}
			}
			cmds = append(cmds, ci)
			walk(c, name)
		}
	}
	walk(app.Node, "")
	for i := range cmds { // help takes a command name
		if cmds[i].Name == "help" && len(cmds[i].Args) == 1 {
			cmds[i].Args[0].Values = clidoc.Model{Commands: cmds}.TopNames()
		}
	}
	return clidoc.Model{Globals: globals, Commands: cmds}
}

func flagsOf(fs []*kong.Flag) []clidoc.Flag {
	var out []clidoc.Flag
	for _, f := range fs {
		if f.Hidden || f.Name == "help" {
			continue
		}
		fi := clidoc.Flag{Name: f.Name, Short: f.Short, Help: f.Help, Bool: f.IsBool(), Values: flagValues(f)}
		if !fi.Bool {
			fi.Place = f.FormatPlaceHolder()
		}
		out = append(out, fi)
	}
	return out
}

// flagValues is the fixed set of values a flag takes: its enum, else the
// values of the configuration key it sets (checked there); nil for any
// value. --help, the man page and the completions all take it from here.
func flagValues(f *kong.Flag) []string {
	if vs := enumOf(f.Enum); len(vs) > 0 {
		return vs
	}
	for _, k := range config.Keys {
		if k.Flag == "--"+f.Name && k.Allowed != nil {
			return k.Allowed // a flag checked against its configuration key
		}
	}
	return nil
}

func enumOf(e string) []string {
	var out []string
	for _, v := range strings.Split(e, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// hasCommand reports whether the CLI has a visible or hidden command with
// this path ("add-citation", "hook pre-commit").
func hasCommand(app *kong.Application, path string) bool {
	n := app.Node
	for _, part := range strings.Fields(path) {
		var next *kong.Node
		for _, c := range n.Children {
			if c.Type == kong.CommandNode && (c.Name == part || contains(c.Aliases, part)) {
				next = c
			}
		}
		if next == nil {
			return false
		}
		n = next
	}
	return true
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
