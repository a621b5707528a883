package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/verify"
)

type verifyCmd struct {
	SourceFlags
	HistoryFlags
	Memories []string `arg:"" optional:"" name:"memory" help:"Memory id, file path, or file name in a memory directory (with --why or --record, none means every memory)."`
	JSON     bool     `name:"json" xor:"format" help:"Print JSON (one object per memory; an array for several): the per-memory shape of docs/citation-schema.md; --format json prints the findings report instead."`
	FormatFlags
}

func (c *verifyCmd) Help() string { return exitHelp }

func (c *verifyCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	if len(c.Memories) == 0 && !c.Why && !c.Record {
		return &exitErr{code: exitError, err: errors.New("name the memories to verify (git memcite verify-all checks every memory; with --why or --record no name means every memory)")}
	}
	ws, err := g.open(ctx, c.SourceFlags)
	if err != nil {
		return err
	}
	mems, failed := ws.selectMemories(ctx, c.Memories, env.Stderr)
	rep, err := verify.Check(ctx, ws.src, mems)
	if err != nil {
		return err
	}
	var why render.WhyIndex
	if c.Why {
		if c.Format != "" && c.Format != "text" {
			return fmt.Errorf("--why works with text and --json output, not --format %s", c.Format)
		}
		if why, err = explain(ctx, ws, c.SourceFlags, rep); err != nil {
			return err
		}
	}
	var result error // the outcome: nil, or the exit status to return
	if !c.JSON {
		result = c.report(ctx, g, env, ws, "verify", rep, failed, func(w io.Writer, st render.Style) error {
			n := 0
			for i := range rep.Memories {
				m := &rep.Memories[i]
				if g.Quiet && !m.Stale() && m.Err() == nil {
					continue // -q: only what needs attention
				}
				if n > 0 {
					fmt.Fprintln(w)
				}
				n++
				if err := render.MemoryText(w, m, st); err != nil {
					return err
				}
			}
			render.WhyText(w, rep, why)
			return nil
		})
		var ee *exitErr
		if result != nil && !errors.As(result, &ee) {
			return result
		}
	} else {
		warn(env, rep)
		if len(rep.Memories) == 1 && len(c.Memories) == 1 {
			err = render.MemoryJSON(env.Stdout, &rep.Memories[0], why)
		} else {
			err = render.MemoriesJSON(env.Stdout, rep, why)
		}
		if err != nil {
			return err
		}
		result = outcome(rep, failed)
	}
	if c.Record {
		if err := recordChecked(ctx, ws, c.SourceFlags, rep, env); err != nil {
			return err
		}
	}
	return result
}

// recordChecked runs --record after a verification.
func recordChecked(ctx context.Context, ws *workspace, sf SourceFlags, rep *verify.Report, env *Env) error {
	if sf.Staged || sf.Rev != "" {
		return fmt.Errorf("--record writes the working tree's memory files: it cannot be combined with --staged or --rev")
	}
	return record(ctx, ws, rep, env)
}

// outcome maps a report to the exit status: errors win over stale.
func outcome(rep *verify.Report, failed bool) error {
	s := rep.Summary()
	switch {
	case failed || s.Errors > 0:
		return silent(exitError)
	case s.Stale > 0:
		return silent(exitStale)
	}
	return nil
}

// warn prints the parse warnings of the memories in a report.
func warn(env *Env, rep *verify.Report) {
	for i := range rep.Memories {
		if f := rep.Memories[i].Memory.File; f != nil {
			for _, d := range f.Warnings {
				fmt.Fprintf(env.Stderr, "warning: %s\n", render.Safe(d.String()))
			}
		}
	}
}

// selectMemories returns the memories named by args (every memory when
// there are none). A name that resolves to nothing is reported on stderr and
// skipped, so the others are still processed; failed says that happened
// (exit 2).
func (ws *workspace) selectMemories(ctx context.Context, args []string, stderr io.Writer) (mems []*store.Memory, failed bool) {
	if len(args) == 0 {
		return ws.store.Memories, false
	}
	for _, arg := range args {
		m, err := ws.resolve(ctx, arg)
		if err != nil {
			fmt.Fprintf(stderr, "git-memcite: %s\n", render.Safe(err.Error()))
			failed = true
			continue
		}
		mems = append(mems, m)
	}
	return mems, failed
}

// resolve finds the memory an argument names: a file path (relative to the
// current directory or the repository root), then an id or name in the
// memory directories.
func (ws *workspace) resolve(ctx context.Context, arg string) (*store.Memory, error) {
	if slashed := filepath.ToSlash(arg); strings.HasSuffix(arg, ".md") || strings.Contains(slashed, "/") {
		for _, p := range []string{path.Join(ws.cwdRel, slashed), slashed} {
			c, err := source.Clean(p)
			if err != nil {
				if errors.Is(err, source.ErrOutside) {
					return nil, fmt.Errorf("%s: outside the repository", arg)
				}
				continue
			}
			if m, err := ws.store.Resolve(c); err == nil && m.Path == c {
				return m, nil
			}
			if e, err := ws.src.Stat(c); err == nil && e.Kind == source.KindFile {
				m := store.LoadFile(ctx, ws.src, c, path.Dir(c))
				if m.ID == "" || (m.File != nil && m.File.ID == "") {
					m.ID = strings.TrimSuffix(path.Base(c), ".md")
				}
				return m, nil
			}
		}
	}
	m, err := ws.store.Resolve(arg)
	if err != nil {
		return nil, err
	}
	return m, nil
}

type verifyAllCmd struct {
	SourceFlags
	JSON   bool `name:"json" xor:"format" help:"Print one JSON document: source, summary and per-memory objects (the per-memory shape of docs/citation-schema.md; --format json prints the findings report instead)."`
	Record bool `name:"record" help:"Record the current commit and time in every valid citation of every memory (commit and verified fields), in one run."`
	FormatFlags
}

func (c *verifyAllCmd) Help() string { return exitHelp }

func (c *verifyAllCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	start := time.Now()
	ws, err := g.open(ctx, c.SourceFlags)
	if err != nil {
		return err
	}
	rep, err := verify.Check(ctx, ws.src, ws.store.Memories)
	if err != nil {
		return err
	}
	rep.Elapsed = time.Since(start)
	var result error
	if !c.JSON {
		result = c.report(ctx, g, env, ws, "verify-all", rep, false, func(w io.Writer, st render.Style) error {
			return render.AllText(w, rep, render.AllOptions{Quiet: g.Quiet, Style: st})
		})
		var ee *exitErr
		if result != nil && !errors.As(result, &ee) {
			return result
		}
	} else {
		if err := render.AllJSON(env.Stdout, rep); err != nil {
			return err
		}
		result = outcome(rep, false)
	}
	if c.Record {
		if err := recordChecked(ctx, ws, c.SourceFlags, rep, env); err != nil {
			return err
		}
	}
	return result
}
