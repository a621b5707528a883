package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/git-memcite/git-memcite/internal/config"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/trace"
	"github.com/git-memcite/git-memcite/internal/vcache"
)

// Env is what commands share: the standard streams.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

func newEnv(stdin io.Reader, stdout, stderr io.Writer) *Env {
	return &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr}
}

// Globals are the flags every command takes.
type Globals struct {
	RepoRoot string           `name:"repo-root" placeholder:"PATH" help:"Repository root (default: the repository containing the current directory)."`
	Dir      []string         `name:"dir" placeholder:"PATH" help:"Memory directory, relative to the repository root; repeatable (default: MEMCITE_DIR, git config memcite.dir, .memcite.yaml dirs, else .serena/memories)."`
	Color    string           `name:"color" placeholder:"auto|always|never" help:"Colour output: auto (a terminal without NO_COLOR; the default), always, never."`
	Quiet    bool             `name:"quiet" short:"q" help:"Print less: only what needs attention (stale citations, errors, warnings) and the summary; a command that only confirms success prints nothing."`
	NoCache  bool             `name:"no-cache" help:"Neither use nor update the verification cache in the git directory (also MEMCITE_CACHE=off); see docs/cache.md."`
	Version  kong.VersionFlag `name:"version" help:"Print the version and exit."`
}

// SourceFlags choose what content citations are checked against.
type SourceFlags struct {
	Staged bool     `name:"staged" xor:"source" help:"Check the index (what is being committed; honours GIT_INDEX_FILE). Memory files are read from the index too."`
	Rev    revision `name:"rev" xor:"source" placeholder:"REV" help:"Check a commit (any revision git understands). Memory files are read from it too."`
}

// workspace is a resolved repository, content source and memory store.
type workspace struct {
	quiet  bool          // -q: print only what needs attention
	repo   *gitrepo.Repo // nil outside a git repository (working tree only)
	top    string
	cwdRel string // the current directory relative to top ("" at top)
	src    source.Source
	store  *store.Store
	cfg    *config.Config // the effective configuration (config.go)

	gitConfig map[string][]string // memcite.* from git config, once read
}

// open finds the repository, builds the source the flags ask for and loads
// the memories.
func (g *Globals) open(ctx context.Context, sf SourceFlags) (*workspace, error) {
	ws, err := g.openSource(ctx, sf)
	if err != nil {
		return nil, err
	}
	if ws.cfg, err = g.loadConfig(ctx, ws); err != nil {
		return nil, err
	}
	dirs, err := g.memoryDirs(ctx, ws)
	if err != nil {
		return nil, err
	}
	ws.store, err = store.Load(ctx, ws.src, dirs)
	if errors.Is(err, store.ErrNoDir) && ws.cfg != nil && ws.cfg.Get("dirs").Origin == "default" {
		// nothing configured and no memories at the default place: a
		// repository without memories, not an error
		trace.Printf("no memory directory %s: no memories", store.DefaultDir)
		ws.store, err = &store.Store{Dirs: dirs}, nil
	}
	if err != nil {
		return nil, err
	}
	ws.dropIgnored()
	return ws, nil
}

// openSource finds the repository and builds the source the flags ask for.
func (g *Globals) openSource(ctx context.Context, sf SourceFlags) (*workspace, error) {
	start := g.RepoRoot
	if start == "" {
		start = "."
	}
	ws := &workspace{quiet: g.Quiet}
	repo, err := gitrepo.Discover(start)
	switch {
	case err == nil:
		ws.repo, ws.top = repo, repo.Top
		vcache.SlotFrom(ctx).Open(repo.GitDir, repo.TempDir(), vcache.Tool(version))
	case errors.Is(err, gitrepo.ErrNotRepo) && !sf.Staged && sf.Rev == "":
		ws.top, err = filepath.Abs(start) // plain directory: working tree only
		if err != nil {
			return nil, err
		}
	default:
		return nil, err
	}
	if wd, err := os.Getwd(); err == nil && g.RepoRoot == "" {
		if rel, err := filepath.Rel(ws.top, wd); err == nil && !strings.HasPrefix(rel, "..") && rel != "." {
			ws.cwdRel = filepath.ToSlash(rel)
		}
	}
	switch {
	case sf.Staged:
		ws.src, err = repo.Index(ctx)
	case sf.Rev != "":
		h, rerr := repo.ResolveCommit(ctx, string(sf.Rev))
		if rerr != nil {
			return nil, rerr
		}
		ws.src, err = repo.Commit(ctx, h)
	case repo != nil:
		ws.src, err = repo.Worktree()
	default:
		ws.src, err = source.NewWorktree(ws.top)
	}
	if err != nil {
		return nil, err
	}
	return ws, nil
}

// memoryDirs returns the repo-relative memory directories: --dir, else
// MEMCITE_DIR, else git config memcite.dir, else .memcite.yaml, else the
// default.
func (g *Globals) memoryDirs(_ context.Context, ws *workspace) ([]string, error) {
	dirs := g.Dir
	if ws.cfg != nil {
		dirs = ws.cfg.Get("dirs").Values
	}
	if len(dirs) == 0 {
		return []string{store.DefaultDir}, nil
	}
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		if filepath.IsAbs(d) {
			rel, err := filepath.Rel(ws.top, d)
			if err != nil || strings.HasPrefix(rel, "..") {
				return nil, fmt.Errorf("memory directory %s is outside the repository %s", d, ws.top)
			}
			d = rel
		}
		c, err := source.Clean(filepath.ToSlash(d))
		if err != nil {
			return nil, fmt.Errorf("memory directory %s: %w", d, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// style decides on colour for a stream.
func (g *Globals) style(w io.Writer) render.Style {
	switch g.Color {
	case "always":
		return render.Style{Color: true}
	case "never":
		return render.Style{}
	}
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return render.Style{}
	}
	f, ok := w.(*os.File)
	if !ok {
		return render.Style{}
	}
	fi, err := f.Stat()
	return render.Style{Color: err == nil && fi.Mode()&os.ModeCharDevice != 0}
}

// revision is a flag that names a git revision. Given, it must not be
// empty: `--rev ”` is an error, never the working tree or HEAD.
type revision string

// Decode implements kong.MapperValue.
func (r *revision) Decode(ctx *kong.DecodeContext) error {
	var s string
	if err := ctx.Scan.PopValueInto("revision", &s); err != nil {
		return err
	}
	if s == "" {
		return errors.New("empty revision: name a commit")
	}
	*r = revision(s)
	return nil
}
