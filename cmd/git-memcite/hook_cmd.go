package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/hookrun"
	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/internal/source"
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
// PRE_COMMIT_IS_SQUASH_MERGE and PRE_COMMIT_REWRITE_COMMAND instead.
//
// pre-* exit 1 to block the commit, 2 on errors (which block too); post-*
// always exit 0. Everything is reported on stderr.
type hookCmd struct {
	Name string   `arg:"" name:"hook" enum:"pre-commit,pre-merge-commit,post-merge,post-rewrite" help:"Hook name: pre-commit, pre-merge-commit, post-merge or post-rewrite."`
	Args []string `arg:"" optional:"" passthrough:"" help:"Arguments git passed to the hook."`
}

func (c *hookCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	in := hookrun.Resolve(c.Name, c.Args, os.Getenv)
	if _, skip := hookrun.Skipped(in.Hook, os.Getenv); skip {
		return nil
	}
	pre := in.Hook == "pre-commit" || in.Hook == "pre-merge-commit"
	err := c.run(ctx, g, env, in)
	if err == nil || !pre {
		if err != nil {
			fmt.Fprintf(env.Stderr, "git-memcite: %s hook: %v (nothing changed)\n", in.Hook, err)
		}
		return nil // post-* hooks never fail
	}
	var ee *exitErr
	if errors.As(err, &ee) {
		return err
	}
	if errors.Is(err, gitrepo.ErrUnmerged) {
		fmt.Fprintf(env.Stderr, "git-memcite: %v\n", err)
		return silent(exitStale)
	}
	bypass := "git commit --no-verify"
	if in.Hook == "pre-merge-commit" {
		bypass = "git merge --no-verify"
	}
	return &exitErr{code: exitError, err: fmt.Errorf("%s hook: %w\n  bypass once: %s", in.Hook, err, bypass)}
}

func (c *hookCmd) run(ctx context.Context, g *Globals, env *Env, in hookrun.Invocation) error {
	repo, err := gitrepo.Discover(repoDir(g))
	if err != nil {
		return err
	}
	cfg, err := hookrun.ReadConfig(ctx, repo.Top)
	if err != nil {
		return err
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(env.Stderr, "git-memcite: warning: %s\n", w)
	}
	if !cfg.Enabled {
		return nil
	}
	// memory directories: flags > MEMCITE_DIR > git config > .memcite.yaml > default
	ws := &workspace{repo: repo, top: repo.Top}
	if ws.src, err = source.NewWorktree(repo.Top); err != nil {
		return err
	}
	if ws.cfg, err = g.loadConfig(ctx, ws); err != nil {
		return err
	}
	dirs, err := g.memoryDirs(ctx, ws)
	if err != nil {
		return err
	}
	switch in.Hook {
	case "pre-commit", "pre-merge-commit":
		return preCommit(ctx, env, repo, cfg, dirs, in)
	default:
		return postChange(ctx, env, repo, cfg, dirs, in)
	}
}

func preCommit(ctx context.Context, env *Env, repo *gitrepo.Repo, cfg hookrun.Config, dirs []string, in hookrun.Invocation) error {
	if cfg.PreCommit == hookrun.Off {
		return nil
	}
	out, err := hookrun.PreCommit(ctx, repo, dirs)
	if err != nil {
		return err
	}
	rep := render.HookReport{Hook: in.Hook, Outcome: out, Policy: cfg.PreCommit, Suggestions: map[render.Key]int{}}
	for _, s := range out.Blocking(hookrun.Block) {
		if line, ok := hookrun.SuggestLine(out.After, s.Result.Citation); ok {
			rep.Suggestions[render.Key{Memory: s.Memory.Path, Index: s.Result.Citation.Index}] = line
		}
	}
	if err := render.PreCommitText(env.Stderr, rep); err != nil {
		return err
	}
	if cfg.PreCommit == hookrun.Warn {
		return nil
	}
	blocked := len(out.Blocking(cfg.PreCommit)) > 0
	for _, b := range out.Broken {
		blocked = blocked || b.Changed || cfg.PreCommit == hookrun.Strict
	}
	if blocked {
		return silent(exitStale)
	}
	return nil
}

func postChange(ctx context.Context, env *Env, repo *gitrepo.Repo, cfg hookrun.Config, dirs []string, in hookrun.Invocation) error {
	if cfg.PostMerge == hookrun.PostOff {
		return nil
	}
	var stdin []byte
	if in.Hook == "post-rewrite" && !isTerminal(os.Stdin) {
		stdin, _ = io.ReadAll(io.LimitReader(os.Stdin, 16<<20))
	}
	rng, ok, err := hookrun.PostRange(ctx, repo.Top, in, stdin)
	if err != nil || !ok {
		return err
	}
	out, err := hookrun.PostChange(ctx, repo, rng, dirs)
	if err != nil {
		return err
	}
	rep := render.HookReport{Hook: in.Hook, Outcome: out, Change: changeName(in), Suggestions: map[render.Key]int{}}
	if len(out.Stale) > 0 {
		moves := map[string]map[int]int{}
		expect := map[string][]byte{}
		for _, s := range out.Stale {
			if s.Class == hookrun.Preexisting {
				continue
			}
			c := s.Result.Citation
			if line, ok := hookrun.SuggestLine(out.After, c); ok {
				rep.Suggestions[render.Key{Memory: s.Memory.Path, Index: c.Index}] = line
				if moves[s.Memory.Path] == nil {
					moves[s.Memory.Path] = map[int]int{}
				}
				moves[s.Memory.Path][c.Index] = line
				expect[s.Memory.Path] = s.Memory.File.Src
			}
		}
		if cfg.PostMerge == hookrun.ApplyFixes && len(moves) > 0 {
			unlock := func() {}
			why := hookrun.ApplyBlocked(repo.GitDir, in)
			if why == "" {
				// Serialise with other rewriters (relocate --fix …).
				var err error
				if unlock, err = repo.Lock(ctx, 2*time.Second); err != nil {
					why, unlock = err.Error(), func() {}
				}
			}
			defer unlock()
			if why != "" {
				rep.ApplySkipped = why
			} else {
				paths := make([]string, 0, len(moves))
				for p := range moves {
					paths = append(paths, p)
				}
				sort.Strings(paths)
				for _, p := range paths {
					if err := hookrun.ApplyMoves(repo.Top, p, expect[p], moves[p]); err != nil {
						fmt.Fprintf(env.Stderr, "git-memcite: %v\n", err)
						continue
					}
					rep.Applied = append(rep.Applied, p)
				}
			}
		}
	}
	return render.PostText(env.Stderr, rep)
}

func changeName(in hookrun.Invocation) string {
	switch {
	case in.Hook == "post-merge" && in.Arg(0) == "1":
		return "the squash merge"
	case in.Hook == "post-merge":
		return "the merge"
	case in.Arg(0) == "rebase":
		return "the rebase"
	case in.Arg(0) == "amend":
		return "the amend"
	}
	return "the rewrite"
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
