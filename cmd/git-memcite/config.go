package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/git-memcite/git-memcite/internal/config"
	"github.com/git-memcite/git-memcite/internal/findings"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/trace"
)

// loadConfig resolves the configuration of a workspace: the global flags,
// MEMCITE_* variables, git config memcite.* and the team file, which is
// MEMCITE_CONFIG (a path on disk) or .memcite.yaml read from the checked
// content (the index copy with --staged, the commit's with --rev).
func (g *Globals) loadConfig(ctx context.Context, ws *workspace) (*config.Config, error) {
	l := config.Layers{Flags: map[string][]string{}, Getenv: os.Getenv}
	if len(g.Dir) > 0 {
		l.Flags["dirs"] = g.Dir
	}
	if g.Color != "" {
		l.Flags["color"] = []string{g.Color}
	}
	if ws.repo != nil {
		vals, err := gitConfigMemcite(ctx, ws)
		if err != nil {
			return nil, err
		}
		l.Git = func(key string) ([]string, error) { return vals[strings.ToLower(key)], nil }
	}
	var data []byte
	var err error
	if p := os.Getenv("MEMCITE_CONFIG"); p != "" {
		trace.Printf("read config %s (MEMCITE_CONFIG)", p)
		if data, err = os.ReadFile(p); err != nil {
			return nil, fmt.Errorf("MEMCITE_CONFIG: %w", err)
		}
		l.FileName = p
	} else {
		data, err = ws.src.ReadFile(config.FileName)
		switch {
		case err == nil:
			trace.Printf("read config %s from the %s", config.FileName, ws.src.Name())
			l.FileName = config.FileName
		case errors.Is(err, source.ErrNotExist):
			trace.Printf("no %s in the %s", config.FileName, ws.src.Name())
			data = nil
		default:
			return nil, fmt.Errorf("read %s: %w", config.FileName, err)
		}
	}
	if l.FileName != "" {
		if l.File, err = config.ParseFile(l.FileName, data); err != nil {
			return nil, err
		}
	}
	cfg, err := config.Resolve(l)
	if err != nil {
		return nil, err
	}
	g.Color = cfg.Get("color").First()
	return cfg, nil
}

// gitConfigMemcite reads every memcite.* key with one git process (git's
// rules: -c, includes, worktree config), keyed by lower-case name.
func gitConfigMemcite(ctx context.Context, ws *workspace) (map[string][]string, error) {
	if ws.gitConfig != nil {
		return ws.gitConfig, nil // read once per run (the hooks read it first)
	}
	all, err := ws.repo.Config(ctx)
	if err != nil {
		return nil, err
	}
	var vals map[string][]string
	for k, v := range all {
		if strings.HasPrefix(k, "memcite.") {
			if vals == nil {
				vals = map[string][]string{}
			}
			vals[k] = v
		}
	}
	if vals == nil {
		return nil, nil // no such keys
	}
	ws.gitConfig = vals
	return vals, nil
}

// dropIgnored removes the memories that match the ignore globs.
func (ws *workspace) dropIgnored() {
	if len(ws.cfg.Get("ignore").Values) == 0 {
		return
	}
	kept := ws.store.Memories[:0]
	for _, m := range ws.store.Memories {
		if ws.cfg.Ignored(m.Path) {
			trace.Printf("ignore %s (matches ignore)", m.Path)
			continue
		}
		kept = append(kept, m)
	}
	ws.store.Memories = kept
}

type configCmd struct {
	SourceFlags
}

func (c *configCmd) Help() string {
	return "Settings come from, first match wins: flags, MEMCITE_* environment variables, " +
		"git config memcite.* (personal), .memcite.yaml at the repository root or the file MEMCITE_CONFIG names (team), defaults."
}

// Run prints every setting, its value and where it came from.
func (c *configCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	ws, err := g.openConfig(ctx, c.SourceFlags)
	if err != nil {
		return err
	}
	cfg := ws.cfg
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	for _, k := range config.Keys {
		v := cfg.Get(k.Name)
		fmt.Fprintf(tw, "%s\t%s\t(%s)\n", k.Name, orNone(v.String()), v.Origin)
	}
	levels := cfg.Levels()
	for _, r := range findings.Rules {
		origin := "default"
		l := r.Level
		for _, s := range cfg.Severities {
			if s.Rule == r.ID {
				l, origin = levels[r.ID], s.Origin
			}
		}
		fmt.Fprintf(tw, "severity.%s\t%s\t(%s)\n", strings.TrimPrefix(r.ID, findings.RulePrefix), l, origin)
	}
	file := cfg.FileName
	if file == "" {
		file = "none (" + config.FileName + " not found in the " + ws.src.Name() + ")"
	}
	fmt.Fprintf(tw, "config file\t%s\n", file)
	return tw.Flush()
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// openConfig opens a workspace without loading the memories: config must
// work even when the memory directory does not exist.
func (g *Globals) openConfig(ctx context.Context, sf SourceFlags) (*workspace, error) {
	ws, err := g.openSource(ctx, sf)
	if err != nil {
		return nil, err
	}
	if ws.cfg, err = g.loadConfig(ctx, ws); err != nil {
		return nil, err
	}
	return ws, nil
}
