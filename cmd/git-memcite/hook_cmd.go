package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/git-memcite/git-memcite/hooks"
	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/hookrun"
	"github.com/git-memcite/git-memcite/internal/outcome"
	"github.com/git-memcite/git-memcite/internal/prose"
	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/internal/term"
)

// hookCmd is the entry point of the installed hook scripts, and of hook
// managers (husky, lefthook, the pre-commit framework).
//
// What git passes (githooks(5)); the working directory is the worktree
// root, stdin is /dev/null unless noted, and stdout goes to stderr:
//
//	pre-commit         no arguments; GIT_INDEX_FILE names the index being
//	                   committed (a temporary one for commit -a / <paths>)
//	pre-merge-commit   no arguments; the index holds the merge result
//	post-merge         $1 = 1 for a squash merge, else 0
//	post-rewrite       $1 = amend or rebase; stdin: "<old> <new>" lines
//
// The pre-commit framework passes no arguments; it sets
// PRE_COMMIT_IS_SQUASH_MERGE and PRE_COMMIT_REWRITE_COMMAND instead. Run
// by the framework outside a commit ('pre-commit run --all-files'), the
// pre-* hooks check every citation in the working tree; at the post-*
// and post-checkout stages they do nothing (hookrun.PreContext).
//
// pre-* exit 1 to block the commit, 2 on errors (which block too); post-*
// always exit 0. Everything is reported on stderr.
type hookCmd struct {
	Name string   `arg:"" name:"hook" enum:"pre-commit,pre-merge-commit,post-merge,post-rewrite" help:"Hook name: pre-commit, pre-merge-commit, post-merge or post-rewrite."`
	Args []string `arg:"" optional:"" passthrough:"" help:"Arguments git passed to the hook."`
}

func (c *hookCmd) Run(ctx context.Context, g *Globals, env *Env) (err error) {
	in := hookrun.Resolve(c.Name, c.Args, os.Getenv)
	if _, skip := hookrun.Skipped(in.Hook, os.Getenv); skip {
		return nil
	}
	pre := hooks.Pre(in.Hook)
	if pre {
		switch hookrun.PreContext(os.Getenv) {
		case hookrun.OtherStage:
			return nil
		case hookrun.WholeTree:
			return wholeTree(ctx, g, env)
		}
	}
	defer func() {
		// a crash of git-memcite itself is a failure of the tool, not a
		// finding: the same policy as any other failure
		if r := recover(); r != nil {
			err = onError(ctx, g, env, in, fmt.Errorf("internal error: %v\n%s", r, debug.Stack()))
		}
	}()
	err = c.run(ctx, g, env, in)
	if err == nil {
		return nil
	}
	var oe *outcome.Error
	if errors.As(err, &oe) {
		return err // a finding: blocked or reported as configured
	}
	if pre && errors.Is(err, gitrepo.ErrUnmerged) {
		fmt.Fprintf(env.Stderr, "git-memcite: %v\n", err)
		return outcome.Reported(outcome.HookBlocked)
	}
	return onError(ctx, g, env, in, err)
}

// onError applies memcite.onError to a failure of git-memcite itself in a
// hook (the repository cannot be opened, an object cannot be read, a
// crash): by default a prominent warning that names the cause and the fix,
// and git goes on; with memcite.onError=block a pre-commit or
// pre-merge-commit hook blocks. Post-* hooks never fail.
func onError(ctx context.Context, g *Globals, env *Env, in hookrun.Invocation, err error) error {
	pre := hooks.Pre(in.Hook)
	// the settings are read again (the run that failed may not have got
	// that far); a repository that cannot be opened has the defaults
	cfg, _ := app.HookConfig(ctx, g.openOptions(SourceFlags{}))
	if pre && cfg.OnErrorBlock {
		return fmt.Errorf("%s hook: %w\n  blocked (memcite.onError=block); bypass once: %s", in.Hook, err, render.HookBypass(in.Hook))
	}
	render.HookFailed(env.Stderr, in.Hook, pre, err)
	return nil
}

// wholeTree checks every citation against the working tree: the
// pre-commit framework runs the hook outside a commit ('pre-commit run
// --all-files' in CI). memcite.enabled and memcite.preCommit off and warn
// apply as in a commit; a failure of git-memcite itself is an error (exit
// 2), as for verify-all, since no commit waits on it.
func wholeTree(ctx context.Context, g *Globals, env *Env) error {
	cfg, err := app.HookConfig(ctx, g.openOptions(SourceFlags{}))
	if err != nil {
		return err
	}
	render.HookWarnings(env.Stderr, cfg.Warnings)
	if !cfg.Enabled || cfg.PreCommit == hookrun.Off {
		return nil
	}
	fmt.Fprintln(env.Stderr, "git-memcite: no commit in progress: checking every citation in the working tree")
	quiet := *g
	quiet.Quiet = true
	err = (&verifyAllCmd{noMemo: true}).Run(ctx, &quiet, env)
	if cfg.PreCommit == hookrun.Warn && outcome.Is(err, outcome.Stale) {
		return nil
	}
	return err
}

func (c *hookCmd) run(ctx context.Context, g *Globals, env *Env, in hookrun.Invocation) error {
	h, ws, err := app.OpenHook(ctx, g.openOptions(SourceFlags{}), in)
	if err != nil {
		return err
	}
	render.HookWarnings(env.Stderr, h.Cfg.Warnings)
	if h.Off {
		return nil
	}
	g.Color = ws.Cfg.Get("color").First()
	if h.Pre {
		res, err := h.PreCommit(ctx)
		if err != nil {
			return err
		}
		warnNoHints(env, res.RelocErr)
		fixes := render.Fixes(res.Items, true)
		render.AlreadyFixed(fixes, res.Outcome.Stale, h.FixedInWorktree(ctx, res.Outcome.Blocking(hookrun.Block)))
		rep := render.HookReport{Hook: in.Hook, Outcome: res.Outcome, Policy: h.Cfg.PreCommit, Fixes: fixes,
			NotFixed: res.NotFixed, Fixed: map[render.Key]bool{}}
		for _, f := range res.Fixed {
			rep.FixedFiles = append(rep.FixedFiles, render.FixedFile{Path: f.Path, Citations: f.Citations})
		}
		for _, k := range res.FixedCitations() {
			rep.Fixed[render.Key{Memory: k.Path, Index: k.Index}] = true
		}
		if err := render.PreCommitText(env.Stderr, rep); err != nil {
			return err
		}
		pres, err := h.ProsePreCommit(ctx, ws, res)
		if err != nil {
			if !res.Blocked {
				return err // memcite.onError decides
			}
			// the citations block the commit whatever the prose says
			fmt.Fprintf(env.Stderr, "git-memcite: the prose of the memories was not checked: %v\n", err)
			return outcome.Reported(outcome.HookBlocked)
		}
		if err := proseHookText(env, in.Hook, pres); err != nil {
			return err
		}
		if res.Blocked || (pres != nil && pres.Blocked) {
			return outcome.Reported(outcome.HookBlocked)
		}
		return nil
	}
	var stdin []byte
	if in.Hook == "post-rewrite" && !term.IsTerminal(os.Stdin) {
		stdin, _ = io.ReadAll(io.LimitReader(os.Stdin, 16<<20))
	}
	res, ok, err := h.PostChange(ctx, in, stdin)
	if err != nil || !ok {
		return err
	}
	warnNoHints(env, res.RelocErr)
	for _, err := range res.ApplyFailed {
		fmt.Fprintf(env.Stderr, "git-memcite: not updated: %v\n", err)
	}
	rep := render.HookReport{Hook: in.Hook, Outcome: res.Outcome, Change: render.ChangeName(in),
		Fixes: render.Fixes(res.Items, false), Applied: res.Applied, ApplySkipped: res.ApplySkipped}
	return render.PostText(env.Stderr, rep)
}

// warnNoHints says why a hook's report has no relocation hints.
func warnNoHints(env *Env, err error) {
	if err != nil {
		fmt.Fprintf(env.Stderr, "git-memcite: warning: no relocation suggestions: %v\n", err)
	}
}

// proseHookText renders the pre-commit hook's report on the prose.
func proseHookText(env *Env, hook string, res *app.ProseHookResult) error {
	if res == nil {
		return nil
	}
	rep := render.ProseHookReport{Hook: hook, Level: res.Level, Blocked: res.Blocked, NotFixed: res.NotFixed}
	for _, f := range res.Findings {
		x := render.ProseBreak{Memory: f.Memory, Line: f.Ref.Line, Text: f.Ref.Text, Reason: f.Reason, Fixed: res.IsFixed(f)}
		if fx, ok := prose.FixFor(f.Memory, f.Ref); ok {
			x.Fix = fx.New
		}
		rep.Breaks = append(rep.Breaks, x)
	}
	for _, f := range res.Fixed {
		rep.FixedFiles = append(rep.FixedFiles, render.FixedFile{Path: f.Path, Citations: f.Citations})
	}
	return render.ProsePreCommitText(env.Stderr, rep)
}
