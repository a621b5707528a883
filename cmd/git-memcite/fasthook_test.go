package main

import (
	"context"
	"io"
	"reflect"
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
