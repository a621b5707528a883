package main

import (
	"context"
	"errors"
	"io"

	"github.com/alecthomas/kong"

	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/config"
	"github.com/git-memcite/git-memcite/internal/progress"
	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/internal/term"
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

	args     []string          // the command line, without the program's name
	switches config.Switches   // the environment switches, read once by runIO
	progress *progress.Counter // how far a long command got, for the status line
	session  *app.Session      // the run: its cache and the repositories it opens
}

// SourceFlags choose what content citations are checked against.
type SourceFlags struct {
	Staged bool     `name:"staged" xor:"source" help:"Check the index (what is being committed; honours GIT_INDEX_FILE). Memory files are read from the index too."`
	Rev    revision `name:"rev" xor:"source" placeholder:"REV" help:"Check a commit (any revision git understands). Memory files are read from it too."`
}

// workspace is a resolved repository, content source, configuration
// and memory store (internal/app).
type workspace = app.Workspace

// openOptions are the global and source flags, for app.Open.
func (g *Globals) openOptions(sf SourceFlags) app.OpenOptions {
	return app.OpenOptions{RepoRoot: g.RepoRoot, Dirs: g.Dir, Color: g.Color, Staged: sf.Staged, Rev: string(sf.Rev),
		ConfigFile: g.switches.ConfigFile, Session: g.session, CacheTool: vcache.Tool(version)}
}

// open finds the repository, builds the source the flags ask for, reads
// the configuration and loads the memories.
func (g *Globals) open(ctx context.Context, sf SourceFlags) (*workspace, error) {
	ws, err := g.openConfig(ctx, sf)
	if err != nil {
		return nil, err
	}
	if err := ws.LoadStore(ctx); err != nil {
		return nil, err
	}
	return ws, nil
}

// openConfig opens a workspace without loading the memories: config must
// work even when the memory directory does not exist.
func (g *Globals) openConfig(ctx context.Context, sf SourceFlags) (*workspace, error) {
	return g.openWith(ctx, g.openOptions(sf))
}

// openWith is openConfig with the options o.
func (g *Globals) openWith(ctx context.Context, o app.OpenOptions) (*workspace, error) {
	ws, err := app.Open(ctx, o)
	if err != nil {
		return nil, err
	}
	g.Color = ws.Cfg.Get("color").First()
	return ws, nil
}

// style decides on colour for a stream (--color, NO_COLOR, a terminal).
func (g *Globals) style(w io.Writer) render.Style {
	return render.Style{Color: term.Color(w, g.Color)}
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
