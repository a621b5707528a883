package main

import (
	"context"
	"errors"
	"fmt"
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

const (
	exitOK          = 0
	exitStale       = 1
	exitError       = 2
	exitInterrupted = 130
)

// exitErr carries an exit status through kong's Run. A nil Err means the
// command already reported what happened.
type exitErr struct {
	code int
	err  error
}

func (e *exitErr) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitErr) Unwrap() error { return e.err }

// silent returns an error that sets the exit status without a message.
func silent(code int) error { return &exitErr{code: code} }

// exitCode maps a Run error to the process exit status and the message to
// print (empty for none).
func exitCode(err error) (int, string) {
	var ee *exitErr
	switch {
	case err == nil:
		return exitOK, ""
	case errors.Is(err, context.Canceled):
		return exitInterrupted, "interrupted"
	case errors.As(err, &ee):
		if ee.err == nil {
			return ee.code, ""
		}
		return ee.code, ee.err.Error()
	}
	return exitError, err.Error()
}
