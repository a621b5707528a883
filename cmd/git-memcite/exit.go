package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-memcite/git-memcite/internal/outcome"
)

// Exit status of git-memcite (also shown by `git memcite --help`):
//
//	0    all citations valid (or none to verify)
//	1    stale citations found (relocate: citations remain stale)
//	2    error: bad arguments, not a repository, unreadable or malformed
//	     memory file (the other memories are still verified)
//	130  interrupted
const exitHelp = `Exit status: 0 all citations valid (or none); 1 stale citations found; ` +
	`2 error (bad arguments, not a repository, malformed memory file: the other memories are still checked); 130 interrupted.`

// exitTable is the exit status of every outcome: the only place that
// chooses one (internal/layers checks that no other code does). README's
// exit table is made from it (exitTableMarkdown, TestREADMEExitTable).
var exitTable = []struct {
	outcome outcome.Kind
	code    int
	meaning string
}{
	{outcome.OK, 0, "all citations valid (or none to verify); the command did what was asked"},
	{outcome.Stale, 1, "one or more stale citations (at or above `--fail-on`); relocate: citations remain stale; add-citation: the citation does not verify"},
	{outcome.Worse, 1, "health `--since`: a memory got worse"},
	{outcome.Cycles, 1, "graph `--cycles`: the links form a cycle"},
	{outcome.Refused, 1, "install refused: nothing installed"},
	{outcome.NeedsConfirmation, 1, "install through a hook manager: waiting for `--yes`"},
	{outcome.NotInstalled, 1, "status, install: git-memcite does not run at a hook where it is expected, or a hook script is outdated"},
	{outcome.DoctorProblem, 1, "doctor found a problem"},
	{outcome.HookBlocked, 1, "a pre-commit or pre-merge-commit hook blocked the commit"},
	{outcome.BadInput, 2, "a malformed or unreadable memory file (the others are still verified)"},
	{outcome.Usage, 2, "bad arguments (usage errors exit 2, not kong's 80)"},
	{outcome.Failed, 2, "error: not a repository, an unknown revision, a failure of git-memcite itself"},
	{outcome.Interrupted, 130, "interrupted (SIGINT, SIGTERM)"},
}

// exitStatus is the exit status of an outcome.
func exitStatus(k outcome.Kind) int {
	for _, e := range exitTable {
		if e.outcome == k {
			return e.code
		}
	}
	return exitStatus(outcome.Failed)
}

// exitCode maps a Run error to the process exit status and the message to
// print (empty for none).
func exitCode(err error) (int, string) {
	k := outcome.Of(err)
	var oe *outcome.Error
	switch {
	case err == nil:
		return exitStatus(k), ""
	case k == outcome.Interrupted:
		return exitStatus(k), "interrupted"
	case errors.As(err, &oe) && oe.Err == nil:
		return exitStatus(k), ""
	}
	return exitStatus(k), err.Error()
}

// kongExit maps the status kong's parser asks for (help and --version: 0;
// a usage error: 80, or whatever it chose) to the process exit status.
func kongExit(code int) int {
	if code == 0 {
		return exitStatus(outcome.OK)
	}
	return exitStatus(outcome.Usage)
}

// exitTableMarkdown is README's exit table: one row per outcome.
func exitTableMarkdown() string {
	var b strings.Builder
	b.WriteString("| Code | Meaning |\n| --- | --- |\n")
	for _, e := range exitTable {
		fmt.Fprintf(&b, "| %d | %s |\n", e.code, e.meaning)
	}
	return b.String()
}
