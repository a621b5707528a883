package main

import (
	"context"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

// TestFastHookAsParsed: the command lines fastHook takes give the hookCmd
// the parser gives, and those it leaves to the parser are the ones whose
// meaning the parser decides (flags, unknown names).
func TestFastHookAsParsed(t *testing.T) {
	for _, tc := range []struct {
		args []string
		fast bool
	}{
		{[]string{"hook", "pre-commit"}, true},
		{[]string{"hook", "pre-merge-commit"}, true},
		{[]string{"hook", "post-merge", "0"}, true},
		{[]string{"hook", "post-merge", "1"}, true},
		{[]string{"hook", "post-rewrite", "amend"}, true},
		{[]string{"hook", "post-rewrite", "rebase", "extra", "words"}, true},
		{[]string{"hook", "post-merge", "--help"}, false},
		{[]string{"hook", "--no-cache", "pre-commit"}, false},
		{[]string{"hook", "pre-push"}, false},
		{[]string{"hook"}, false},
		{[]string{"--no-cache", "hook", "pre-commit"}, false},
		{[]string{"verify-all"}, false},
	} {
		got, ok := fastHook(tc.args)
		if ok != tc.fast {
			t.Errorf("%q: fast = %v, want %v", tc.args, ok, tc.fast)
			continue
		}
		if !ok {
			continue
		}
		var cli CLI
		p, err := newParser(&cli, io.Discard, io.Discard, kong.BindTo(context.Background(), (*context.Context)(nil)))
		if err != nil {
			t.Fatal(err)
		}
		kctx, err := p.Parse(tc.args)
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if kctx.Command() != "hook <hook>" && kctx.Command() != "hook <hook> <args>" {
			t.Fatalf("%q: parsed as %q", tc.args, kctx.Command())
		}
		if !reflect.DeepEqual(*got, cli.Hook) {
			t.Errorf("%q: fastHook %+v, parser %+v", tc.args, *got, cli.Hook)
		}
		if !reflect.DeepEqual(cli.Globals, Globals{}) {
			t.Errorf("%q: the parser set global flags %+v", tc.args, cli.Globals)
		}
	}
}

// TestFastAgentHookAsParsed: the agent hook's command line skips the
// parser only where the parser would give the agent-hook command with no
// flag set.
func TestFastAgentHookAsParsed(t *testing.T) {
	for _, tc := range []struct {
		args []string
		fast bool
	}{
		{[]string{"agent-hook"}, true},
		{[]string{"agent-hook", "--help"}, false},
		{[]string{"--no-cache", "agent-hook"}, false},
		{[]string{"agent-hook", "--repo-root", "x"}, false},
		{[]string{"hook", "pre-commit"}, false},
		{nil, false},
	} {
		if got := fastAgentHook(tc.args); got != tc.fast {
			t.Errorf("%q: fast = %v, want %v", tc.args, got, tc.fast)
			continue
		}
		if !tc.fast {
			continue
		}
		var cli CLI
		p, err := newParser(&cli, io.Discard, io.Discard, kong.BindTo(context.Background(), (*context.Context)(nil)))
		if err != nil {
			t.Fatal(err)
		}
		kctx, err := p.Parse(tc.args)
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if kctx.Command() != "agent-hook" || !reflect.DeepEqual(cli.Globals, Globals{}) {
			t.Errorf("%q: parsed as %q with globals %+v", tc.args, kctx.Command(), cli.Globals)
		}
	}
}

// BenchmarkAgentHookStart: the agent hook's start on input that is no
// event (it answers nothing): what every Read an agent makes costs before
// any work. BenchmarkAgentHookStartParsed is the same through the parser
// (the path before fastAgentHook).
func BenchmarkAgentHookStart(b *testing.B) {
	for b.Loop() {
		if code := runIO([]string{"agent-hook"}, strings.NewReader("{}"), io.Discard, io.Discard); code != exitOK {
			b.Fatalf("exit %d", code)
		}
	}
}

func BenchmarkAgentHookStartParsed(b *testing.B) {
	for b.Loop() {
		if code := runIO([]string{"--color", "auto", "agent-hook"}, strings.NewReader("{}"), io.Discard, io.Discard); code != exitOK {
			b.Fatalf("exit %d", code)
		}
	}
}

// TestStatusLabel: a status line is shown for a command on a terminal,
// never with --quiet, for the hooks, or when stderr is no terminal.
func TestStatusLabel(t *testing.T) {
	tty, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0) // a character device
	if err != nil {
		t.Skip(err)
	}
	defer tty.Close()
	t.Setenv("TERM", "xterm")
	for _, tc := range []struct {
		args   []string
		stderr io.Writer
		want   string
	}{
		{[]string{"adopt"}, tty, "adopt"},
		{[]string{"verify-all"}, tty, "verify-all"},
		{[]string{"graph", "find-roots"}, tty, "graph"},
		{[]string{"adopt", "--quiet"}, tty, ""},
		{[]string{"hook", "pre-commit", "--no-cache"}, tty, ""},
		{[]string{"--no-cache", "agent-hook"}, tty, ""},
		{[]string{"adopt"}, io.Discard, ""},
	} {
		var cli CLI
		p, err := newParser(&cli, io.Discard, io.Discard, kong.BindTo(context.Background(), (*context.Context)(nil)))
		if err != nil {
			t.Fatal(err)
		}
		kctx, err := p.Parse(tc.args)
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if got := statusLabel(kctx, &cli.Globals, tc.stderr); got != tc.want {
			t.Errorf("%q: status for %q, want %q", tc.args, got, tc.want)
		}
	}
}
