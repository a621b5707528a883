package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/outcome"
)

// The exit statuses the tests expect (the contract of README's exit table).
const (
	exitOK          = 0
	exitStale       = 1
	exitInterrupted = 130
)

// TestExitTable lists every outcome and its exit status: changing one is
// changing the contract.
func TestExitTable(t *testing.T) {
	want := map[outcome.Kind]int{
		outcome.OK:                0,
		outcome.Stale:             1,
		outcome.Worse:             1,
		outcome.Cycles:            1,
		outcome.Refused:           1,
		outcome.NeedsConfirmation: 1,
		outcome.NotInstalled:      1,
		outcome.DoctorProblem:     1,
		outcome.HookBlocked:       1,
		outcome.BadInput:          2,
		outcome.Usage:             2,
		outcome.Failed:            2,
		outcome.Interrupted:       130,
	}
	if len(want) != len(outcome.All()) {
		t.Errorf("the test lists %d outcomes, the package %d", len(want), len(outcome.All()))
	}
	seen := map[outcome.Kind]bool{}
	for _, e := range exitTable {
		if seen[e.outcome] {
			t.Errorf("%s is twice in the exit table", e.outcome)
		}
		seen[e.outcome] = true
	}
	for _, k := range outcome.All() {
		if !seen[k] {
			t.Errorf("%s is not in the exit table", k)
		}
		if got := exitStatus(k); got != want[k] {
			t.Errorf("exit status of %s = %d, want %d", k, got, want[k])
		}
	}
}

// TestExitCode: a command's error gives the status and the message.
func TestExitCode(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code int
		msg  string
	}{
		{nil, 0, ""},
		{errors.New("not a git repository"), 2, "not a git repository"},
		{fmt.Errorf("verify: %w", context.Canceled), 130, "interrupted"},
		{outcome.Reported(outcome.Stale), 1, ""},
		{fmt.Errorf("install: %w", outcome.Reported(outcome.Refused)), 1, ""},
		{outcome.With(outcome.Stale, errors.New("the citation does not verify")), 1, "the citation does not verify"},
		{outcome.Usagef("unknown agent %s", "x"), 2, "unknown agent x"},
		{outcome.Reported(outcome.BadInput), 2, ""},
	} {
		code, msg := exitCode(tc.err)
		if code != tc.code || msg != tc.msg {
			t.Errorf("exitCode(%v) = %d, %q; want %d, %q", tc.err, code, msg, tc.code, tc.msg)
		}
	}
	for _, tc := range []struct{ kong, want int }{{0, 0}, {80, 2}, {1, 2}, {2, 2}} {
		if got := kongExit(tc.kong); got != tc.want {
			t.Errorf("kongExit(%d) = %d, want %d", tc.kong, got, tc.want)
		}
	}
}

// TestREADMEExitTable: README's exit table is exitTable.
func TestREADMEExitTable(t *testing.T) {
	readme := readDoc(t, "README.md")
	want := exitTableMarkdown()
	if !strings.Contains(readme, "## Exit status\n\n"+want+"\n") {
		t.Errorf("README.md's exit table (under ## Exit status) is not the one of cmd/git-memcite/exit.go; it should read:\n\n%s", want)
	}
}
