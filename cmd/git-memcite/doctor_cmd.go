package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-memcite/git-memcite/internal/agentinstall"
	"github.com/git-memcite/git-memcite/internal/doctor"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/hookinstall"
	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/vcache"
)

type doctorCmd struct {
	JSON bool `name:"json" help:"Print JSON."`
}

func (c *doctorCmd) Help() string {
	return `Checks the memory directories and their files, Serena's .serena/project.yml, the git hooks and other hook managers, ` +
		`the git version, the index format and shallow clones. Exit status: 0 healthy; 1 problems found (warnings or failures); 2 error.`
}

func (c *doctorCmd) Run(ctx context.Context, g *Globals, env *Env) error {
	ws, err := g.openConfigured(ctx)
	if err != nil {
		return err
	}
	f := doctor.Facts{Top: ws.top, InRepo: ws.repo != nil}
	if out, err := gitrepo.Git(ctx, "", "version"); err == nil {
		f.GitVersion = strings.TrimSpace(out)
	}
	if ws.repo != nil {
		run := func(args ...string) string {
			out, err := ws.repo.Run(ctx, args...)
			if err != nil {
				return ""
			}
			return strings.TrimSpace(out)
		}
		f.GitDir = absIn(ws.top, run("rev-parse", "--git-common-dir"))
		f.Shallow = run("rev-parse", "--is-shallow-repository") == "true"
		for key, dst := range map[string]*string{"core.splitIndex": &f.SplitIndex, "index.sparse": &f.SparseIdx, "core.sparseCheckout": &f.Sparse} {
			if vals, err := ws.repo.ConfigAll(ctx, key); err == nil && len(vals) > 0 {
				*dst = vals[len(vals)-1]
			}
		}
		f.Backend, f.Probes = probeRepository(ctx, ws.repo)
		f.TempDir = ws.repo.TempDir()
		info := vcache.Inspect(vcache.Dir(ws.repo.GitDir), vcache.Tool(version))
		f.Cache = &info
		switch {
		case g.NoCache:
			f.CacheOff = "--no-cache"
		case cacheOff(os.Getenv("MEMCITE_CACHE")):
			f.CacheOff = "MEMCITE_CACHE=" + os.Getenv("MEMCITE_CACHE")
		}
		st, err := hookinstall.GetStatus(ctx, ws.top, nil)
		if err != nil {
			f.HooksErr = err
		} else {
			f.Hooks = &st
		}
	}
	dirs, err := g.memoryDirs(ctx, ws)
	if err != nil {
		return err
	}
	f.Dirs = dirs
	if f.Store, f.StoreErr = store.Load(ctx, ws.src, dirs); f.StoreErr == nil {
		ws.store = f.Store
		ws.dropIgnored()
	}
	f.AgentHooks = agentinstall.Status(ws.top)
	rep := doctor.Run(f)
	if c.JSON {
		err = render.JSON(env.Stdout, rep)
	} else {
		shown := *rep
		if g.Quiet { // -q: only warnings and failures
			shown.Findings = nil
			for _, f := range rep.Findings {
				if f.Level >= doctor.Warn {
					shown.Findings = append(shown.Findings, f)
				}
			}
		}
		if !g.Quiet || rep.Problems() > 0 {
			err = render.DoctorText(env.Stdout, &shown, g.style(env.Stdout))
		}
	}
	if err != nil {
		return err
	}
	if rep.Problems() > 0 {
		return silent(exitStale)
	}
	return nil
}

// probeHistory reads HEAD's commit and its changes through the history
// reader that relocate and --why use.
func probeHistory(repo *gitrepo.Repo, head gitrepo.OID, born bool) error {
	h, err := repo.History()
	if err != nil {
		return err
	}
	defer h.Close()
	if !born {
		return nil
	}
	x, _ := head.Hash() // a full object name: git printed it
	c, err := h.Commit(x)
	if err != nil || len(c.Parents) == 0 {
		return err
	}
	_, err = h.Changes(c.Parents[0], x, false)
	return err
}

// absIn makes a path printed by git (relative to dir) absolute.
func absIn(dir, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// probeRepository makes the reads of the repository that commands make,
// so that doctor reports whatever would make one of them fail.
func probeRepository(ctx context.Context, repo *gitrepo.Repo) (string, []doctor.Probe) {
	backend, why := repo.Backend()
	desc := string(backend) + " (" + why + ")"
	switch backend {
	case gitrepo.GoGit:
		desc = "go-git's storage in-process, git cat-file for objects it does not find (" + why + ")"
	case gitrepo.GitBinary:
		desc = "the git binary: git cat-file --batch for objects, git diff-tree for history (" + why + ")"
	}
	var probes []doctor.Probe
	head, born, err := repo.Head()
	probes = append(probes, doctor.Probe{What: "resolve HEAD", Err: err, Fix: "git status says what is wrong with HEAD"})
	_, err = repo.Index(ctx)
	probes = append(probes, doctor.Probe{What: "read the index (verify --staged, pre-commit)", Err: err,
		Fix: "git ls-files --stage must work; resolve conflicts first if the index has unmerged paths"})
	if err == nil && born {
		_, err = repo.Commit(ctx, head)
		probes = append(probes, doctor.Probe{What: "read HEAD's tree (verify --rev, hooks)", Err: err,
			Fix: "git cat-file -p HEAD^{tree} must work (a missing object: git fsck; a partial clone: git fetch)"})
	}
	err = probeHistory(repo, head, born)
	probes = append(probes, doctor.Probe{What: "follow lines through history (relocate, verify --why, hook hints)", Err: err,
		Fix: "git log -p -1 must work (a missing object: git fsck)"})
	return desc, probes
}
