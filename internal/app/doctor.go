package app

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/git-memcite/git-memcite/internal/agentinstall"
	"github.com/git-memcite/git-memcite/internal/doctor"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/hookinstall"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/vcache"
)

// DoctorFacts gathers what doctor judges (doctor.Run) in a workspace
// opened without its memories: git's version, the repository's layout
// and settings, the reads commands make (probeRepository), the hooks, the
// memory directories and their files (verified against the working tree,
// as verify-all does), the agent hook's settings.
//
// cacheTool names the running binary (vcache.Tool); cacheOff, when not
// empty, says what turned the verification cache off.
func DoctorFacts(ctx context.Context, ws *Workspace, cacheTool, cacheOff string) (doctor.Facts, error) {
	f := doctor.Facts{Top: ws.Top, InRepo: ws.Repo != nil}
	if out, err := gitrepo.Git(ctx, "", "version"); err == nil {
		f.GitVersion = strings.TrimSpace(out)
	}
	if ws.Repo != nil {
		run := func(args ...string) string {
			out, err := ws.Repo.Run(ctx, args...)
			if err != nil {
				return ""
			}
			return strings.TrimSpace(out)
		}
		f.GitDir = absIn(ws.Top, run("rev-parse", "--git-common-dir"))
		f.Shallow = run("rev-parse", "--is-shallow-repository") == "true"
		for key, dst := range map[string]*string{"core.splitIndex": &f.SplitIndex, "index.sparse": &f.SparseIdx, "core.sparseCheckout": &f.Sparse} {
			if vals, err := ws.Repo.ConfigAll(ctx, key); err == nil && len(vals) > 0 {
				*dst = vals[len(vals)-1]
			}
		}
		f.Backend, f.Probes = probeRepository(ctx, ws.Repo)
		f.TempDir = ws.Repo.TempDir()
		info := vcache.Inspect(vcache.Dir(ws.Repo.GitDir), cacheTool)
		f.Cache = &info
		f.CacheOff = cacheOff
		st, err := hookinstall.GetStatus(ctx, ws.Top, nil)
		if err != nil {
			f.HooksErr = err
		} else {
			f.Hooks = &st
		}
	}
	dirs, err := ws.MemoryDirs()
	if err != nil {
		return f, err
	}
	f.Dirs = dirs
	if f.Store, f.StoreErr = store.Load(ctx, ws.Src, dirs, ws.Cache()); f.StoreErr == nil {
		ws.Store = f.Store
		ws.DropIgnored()
		// what verify-all would say of the working tree, so that doctor
		// never calls healthy a store verify-all fails
		rep, err := Verify(ctx, ws, ws.Store.Memories)
		if err != nil {
			return f, err
		}
		sum := rep.Summary()
		f.Verified = &sum
	}
	f.AgentHooks = agentinstall.Status(ws.Top)
	return f, nil
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
	desc := "git cat-file --batch (history: git diff-tree --stdin; a single object of the repository's own, loose or packed, in-process); the index and refs read in-process (" + why + ")"
	if backend == gitrepo.GitBinary {
		desc = "git cat-file --batch (history: git diff-tree --stdin); the index and refs read by git's commands (" + why + ")"
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
