package hookinstall

import (
	"context"
	"os"
	"path/filepath"
)

// HookStatus describes one hook.
type HookStatus struct {
	Name    string
	Path    string
	State   State
	Version int     // marker version of our script
	Manager Manager // for a foreign hook
	Calls   bool    // a foreign hook that runs git-memcite itself
	Chained string  // <hook>.memcite-prev, when present
	Backup  string  // <hook>.memcite-bak, when present
}

// Status describes the hooks of a repository.
type Status struct {
	Repo  Repo
	Hooks []HookStatus
}

// Installed reports whether at least one of our scripts is installed, or
// a foreign hook (husky, lefthook, pre-commit...) runs git-memcite.
func (s Status) Installed() bool {
	for _, h := range s.Hooks {
		if h.State.Ours() || h.Calls {
			return true
		}
	}
	return false
}

// Outdated reports whether any installed script of ours differs from the
// current one.
func (s Status) Outdated() bool {
	for _, h := range s.Hooks {
		if h.State == Outdated {
			return true
		}
	}
	return false
}

// OK reports whether hooks are installed and none is outdated.
func (s Status) OK() bool { return s.Installed() && !s.Outdated() }

// GetStatus inspects the hooks of the repository containing dir. names
// nil means every hook git-memcite provides.
func GetStatus(ctx context.Context, dir string, names []string) (Status, error) {
	repo, err := Locate(ctx, dir)
	if err != nil {
		return Status{}, err
	}
	names, err = checkNames(names)
	if err != nil {
		return Status{}, err
	}
	st := Status{Repo: repo}
	for _, name := range names {
		path := filepath.Join(repo.HooksDir, name)
		f, err := classify(path, name)
		if err != nil {
			return st, err
		}
		h := HookStatus{Name: name, Path: path, State: f.State, Version: f.Version, Manager: f.Manager, Calls: f.Calls}
		if f.State == Foreign && repo.Husky() {
			// husky's stubs run .husky/<hook>, where the user adds lines.
			if b, err := os.ReadFile(filepath.Join(repo.Top, ".husky", name)); err == nil {
				h.Calls = callsMemcite(b)
			}
		}
		if exists(path + PrevSuffix) {
			h.Chained = path + PrevSuffix
		}
		if exists(path + BackupSuffix) {
			h.Backup = path + BackupSuffix
		}
		st.Hooks = append(st.Hooks, h)
	}
	return st, nil
}
