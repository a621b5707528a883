// Package outcome names how a command ended when it did not simply
// succeed: stale citations, an install refused or waiting for --yes, a
// hook that blocked a commit, a usage error, and so on. Commands return an
// outcome as an error (Reported or With); cmd/git-memcite's exit table is
// the one place that turns an outcome into a process exit status.
package outcome

import (
	"context"
	"errors"
	"fmt"
)

// Kind is how a command ended.
type Kind int

// The outcomes, in the order of the exit table.
const (
	OK                Kind = iota // done as asked: all citations valid, or nothing to do
	Stale                         // stale citations at or above --fail-on, or that a relocation leaves stale
	Worse                         // health --since: a memory got worse
	Cycles                        // graph --cycles found a cycle
	Refused                       // install refused: nothing installed
	NeedsConfirmation             // install through a hook manager waits for --yes
	NotInstalled                  // status or install: git-memcite does not run where it is expected
	DoctorProblem                 // doctor found a problem
	HookBlocked                   // a pre-commit or pre-merge-commit hook blocked the commit
	BadInput                      // a memory file (or other input) could not be read; the rest was still checked
	Usage                         // bad arguments
	Failed                        // any other error: not a repository, an object that cannot be read, …
	Interrupted                   // SIGINT or SIGTERM
)

// All lists every outcome, in order.
func All() []Kind {
	out := make([]Kind, 0, Interrupted+1)
	for k := OK; k <= Interrupted; k++ {
		out = append(out, k)
	}
	return out
}

var names = [...]string{"ok", "stale", "worse", "cycles", "refused", "needs-confirmation", "not-installed",
	"doctor-problem", "hook-blocked", "bad-input", "usage", "failed", "interrupted"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(names) {
		return fmt.Sprintf("outcome(%d)", int(k))
	}
	return names[k]
}

// Error is an outcome returned as an error. A nil Err means the command
// already reported what happened (nothing more to print).
type Error struct {
	Kind Kind
	Err  error
}

func (e *Error) Error() string {
	if e.Err == nil {
		return e.Kind.String()
	}
	return e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Reported is the outcome k of a command that has already said why.
func Reported(k Kind) error { return &Error{Kind: k} }

// With is the outcome k, with err as its message.
func With(k Kind, err error) error { return &Error{Kind: k, Err: err} }

// Usagef is a usage error (bad arguments) with a message.
func Usagef(format string, args ...any) error {
	return &Error{Kind: Usage, Err: fmt.Errorf(format, args...)}
}

// Of returns the outcome of a command's error: OK for nil, Interrupted for
// a cancelled context, the Kind of an *Error in err's chain, and Failed for
// any other error.
func Of(err error) Kind {
	var e *Error
	switch {
	case err == nil:
		return OK
	case errors.Is(err, context.Canceled):
		return Interrupted
	case errors.As(err, &e):
		return e.Kind
	}
	return Failed
}

// Is reports whether err carries the outcome k.
func Is(err error, k Kind) bool { return Of(err) == k }
