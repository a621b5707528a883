// Command git-memcite keeps the code citations of AI-agent memory files
// honest: it verifies them against the working tree, the index or a commit.
// Installed on PATH it runs as `git memcite …`.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/alecthomas/kong"

	"github.com/git-memcite/git-memcite/hooks"
	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/atomicfile"
	"github.com/git-memcite/git-memcite/internal/config"
	"github.com/git-memcite/git-memcite/internal/gctune"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/outcome"
	"github.com/git-memcite/git-memcite/internal/profile"
	"github.com/git-memcite/git-memcite/internal/progress"
	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/internal/term"
	"github.com/git-memcite/git-memcite/internal/trace"
	"github.com/git-memcite/git-memcite/internal/vcache"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run parses args, runs the command with the process's standard input
// and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	return runIO(args, os.Stdin, stdout, stderr)
}

// runIO parses args, runs the command and returns the exit status, which
// exit.go's table gives for the command's outcome.
func runIO(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	hook, isHook := fastHook(args)
	agentHook := !isHook && fastAgentHook(args)
	gctune.Tune(isHook)
	if !agentHook {
		// (the agent hook's answer to a read of a memory took as long
		// with huge pages: 113-116 ms, medians of 31 runs of each)
		gctune.HugePages(isHook)
	}
	defer profile.Start()() // profiles in a build with the profile tag (internal/profile)
	ctx, stop := interruptible(context.Background(), os.Exit)
	defer stop()
	cache := &vcache.Slot{}          // opened once the repository is found
	session := app.NewSession(cache) // the cache and the repositories the command opens
	defer session.Close()
	count := &progress.Counter{} // how far a long command got, for the status line
	status := ""                 // the command to show a status line for, if it runs long

	var cli CLI
	// the environment switches, read once (settings are resolved by the
	// configuration model, internal/config)
	sw := config.ReadSwitches(os.Getenv)
	cli.Globals.switches = sw
	cli.Globals.args = args
	cli.Globals.progress = count
	cli.Globals.session = session
	defer gitrepo.ForceGitBinary(sw.GitBinary)()
	var command func(env *Env) error
	switch {
	case isHook:
		command = func(env *Env) error { return hook.Run(ctx, &cli.Globals, env) }
	case agentHook:
		command = func(env *Env) error { return (&agentHookCmd{}).Run(ctx, &cli.Globals, env) }
	default:
		parser, err := newParser(&cli, stdout, stderr, kong.BindTo(ctx, (*context.Context)(nil)))
		if err != nil {
			fmt.Fprintf(stderr, "git-memcite: %v\n", err)
			return exitStatus(outcome.Failed)
		}
		kctx, code, done := parse(parser, args)
		if done {
			return code
		}
		if kctx == nil {
			return exitStatus(outcome.Failed)
		}
		command = func(env *Env) error {
			kctx.Bind(env)
			return kctx.Run(&cli.Globals)
		}
		status = statusLabel(kctx, &cli.Globals, stderr)
	}
	if sw.Debug {
		trace.Enable(stderr)
		defer trace.Enable(nil)
		trace.Printf("git-memcite %s: %q", version, args)
	}
	if vcache.OffReason(cli.Globals.NoCache, sw.Cache) != "" {
		cache.Disable()
	}
	outW, errW := stdout, stderr
	var line *render.Status
	if status != "" {
		line = render.NewStatus(stderr, status, count)
		outW, errW = line.Writer(stdout), line.Writer(stderr)
	}
	code, msg := exitCode(command(newEnv(stdin, outW, errW)))
	if line != nil {
		line.Stop()
	}
	if ctx.Err() != nil {
		// interrupted: stop now, and leave the cache as it was (what this
		// run learnt is found again by the next)
		code, msg = exitCode(context.Canceled)
	} else if err := cache.Save(); err != nil {
		trace.Printf("%v (the cache is an optimisation: nothing is lost)", err)
	}
	if msg != "" {
		fmt.Fprintf(stderr, "git-memcite: %s\n", msg)
	}
	return code
}

// stopGrace is how long a command has, after SIGINT or SIGTERM, to stop
// by itself before the process is ended.
const stopGrace = 500 * time.Millisecond

// interruptible returns a context that SIGINT or SIGTERM cancels, and a
// function that stops listening. A command sees the cancellation and
// returns (exit status 130). One that has not returned stopGrace after
// the signal (held in a system call, or in work that does not look at its
// context), or that gets a second signal, is ended by exit(130) once the
// temporary files of the writes under way are removed: nothing half
// written is left, and the files a write replaces keep their old content.
func interruptible(parent context.Context, exit func(int)) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
		case <-done:
			return
		}
		cancel()
		select {
		case <-sigs:
		case <-time.After(stopGrace):
		case <-done:
			return
		}
		atomicfile.RemoveTemps()
		exit(exitStatus(outcome.Interrupted))
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(sigs)
			close(done)
			cancel()
		})
	}
}

// fastHook recognises the command line of the installed hook scripts,
// `hook <name> [git's arguments]`, which git runs on every commit, merge
// and rebase: it needs no parser, and building the parser's model of the
// whole command tree is a fifth of the CPU a start-up costs. Anything else
// (a flag, an unknown hook name, no name) goes through the parser, which
// gives the same hookCmd for what this accepts (TestFastHookAsParsed).
func fastHook(args []string) (*hookCmd, bool) {
	if len(args) < 2 || args[0] != "hook" {
		return nil, false
	}
	if !hooks.IsName(args[1]) {
		return nil, false
	}
	rest := args[2:]
	for _, a := range rest {
		if strings.HasPrefix(a, "-") {
			return nil, false
		}
	}
	if len(rest) == 0 {
		rest = nil
	}
	return &hookCmd{Name: args[1], Args: rest}, true
}

// statusLabel names the command a status line is shown for while it runs
// silent for more than a second (render.Status): only on a terminal
// (stderr, not a dumb one), never with --quiet, and never for the hooks,
// whose output git and agents read.
func statusLabel(kctx *kong.Context, g *Globals, stderr io.Writer) string {
	name, _, _ := strings.Cut(kctx.Command(), " ")
	switch {
	case g.Quiet, name == "hook", name == "agent-hook", name == "completion", name == "help":
		return ""
	case !term.IsTerminal(stderr) || term.Dumb():
		return ""
	}
	return name
}

// fastAgentHook recognises the command line of the agent hook, which an
// AI agent runs after every file it reads: `agent-hook` alone, as install
// --agent writes it. Like fastHook, it spares building the parser's model
// of the whole command tree; with a flag it goes through the parser
// (TestFastAgentHookAsParsed).
func fastAgentHook(args []string) bool {
	return len(args) == 1 && args[0] == "agent-hook"
}

// newParser builds the kong parser of the command tree.
func newParser(cli *CLI, stdout, stderr io.Writer, opts ...kong.Option) (*kong.Kong, error) {
	return kong.New(cli, append([]kong.Option{
		kong.Name("git-memcite"),
		kong.Description("Verify the code citations of AI-agent memory files (run as `git memcite`). " +
			"`git memcite help <command>` describes a command; `git memcite --help` opens the man page.\n\n" + exitHelp),
		kong.UsageOnError(),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.Writers(stdout, stderr),
		kong.Vars{"version": versionLine()},
	}, opts...)...)
}

type exitPanic struct{}

// parse runs kong's parser, turning its Exit callback (help, --version,
// usage errors) into a return value: the process exit status when done.
func parse(p *kong.Kong, args []string) (kctx *kong.Context, code int, done bool) {
	var exit int // the status kong asked for
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(exitPanic); !ok {
				panic(r)
			}
			kctx, code, done = nil, kongExit(exit), true
		}
	}()
	p.Exit = func(c int) { exit = c; panic(exitPanic{}) }
	kctx, err := p.Parse(args)
	if err != nil {
		p.Errorf("%s", err)
		if pe, ok := err.(*kong.ParseError); ok && pe.Context != nil {
			// a usage error is diagnostics (stderr, stdout stays clean):
			// the error, with kong's "did you mean", and one usage line,
			// not the whole help
			usageLine(p.Stderr, pe.Context.Selected())
		}
		return nil, exitStatus(outcome.Usage), true
	}
	return kctx, 0, false
}

// usageLine writes the usage of the command a parse error happened in
// (nil: the top level), and where its help is.
func usageLine(w io.Writer, n *kong.Node) {
	if n == nil || n.Type != kong.CommandNode {
		fmt.Fprintln(w, "Usage: git-memcite <command> [flags]   (the commands: git memcite help)")
		return
	}
	fmt.Fprintf(w, "Usage: git-memcite %s   (its flags: git memcite help %s)\n", n.Summary(), n.Path())
}
