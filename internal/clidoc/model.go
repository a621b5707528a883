// Package clidoc writes the documents generated from the command line's
// model: the man page (Man) and the shell completion scripts
// (Completion). cmd/git-memcite walks its parser's model into a Model, so
// that both list exactly the commands and flags the parser accepts; this
// package knows nothing of the parser.
package clidoc

import "strings"

// Model is the command line: the global flags and the visible commands,
// depth-first.
type Model struct {
	Globals  []Flag
	Commands []Command
}

// Command is a visible command.
type Command struct {
	Name   string // as typed: "verify-all", "graph find-roots"
	Help   string
	Detail string
	Usage  string // flag and argument summary
	Flags  []Flag
	Args   []Arg
	Subs   []string // subcommands, for commands with children
}

// Arg is a positional argument.
type Arg struct {
	Name   string
	Help   string
	Values []string
	Memory bool // names a memory: completed with the store's ids (__complete memories)
}

// Flag is a visible flag.
type Flag struct {
	Name   string
	Short  rune
	Help   string
	Bool   bool
	Place  string   // placeholder, e.g. FILE
	Values []string // the values it takes, when a fixed set
}

// TopNames returns the names of the top-level commands.
func (m Model) TopNames() []string { return commandNames(m.Commands) }

func commandNames(cmds []Command) []string {
	var out []string
	for _, c := range cmds {
		if !strings.Contains(c.Name, " ") {
			out = append(out, c.Name)
		}
	}
	return out
}
