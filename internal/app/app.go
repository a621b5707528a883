// Package app is the application layer between the CLI and the domain
// packages. It opens a workspace (Open: the repository, the content
// source, the configuration read once, the memories) and resolves the
// memories commands name; it carries out the commands that change files:
// following citations through history and rewriting them (Relocate),
// recording the commit at which citations hold (Record), adopting
// informal citations (Adopt), writing memory files, plans and reports; and
// it gathers what other commands judge (Health, DoctorFacts, AgentCheck)
// and settles findings reports (Judge: levels, order, baseline). The CLI
// maps its flags to these functions' options and hands their results to
// package render; it writes no file itself.
//
// Every rewrite of memory files holds the repository's rewrite lock,
// taken with one policy (Lock): wait up to LockWait for another
// git-memcite process, then fail with gitrepo.ErrLocked.
package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/git-memcite/git-memcite/internal/atomicfile"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/memfile"
)

// LockWait is how long a rewrite waits for another git-memcite process
// that holds the rewrite lock.
const LockWait = 30 * time.Second

// Lock takes the rewrite lock of repo (gitrepo.Repo.Lock) with the one
// wait every command uses; a nil repo (a plain directory) has no lock.
func Lock(ctx context.Context, repo *gitrepo.Repo) (unlock func(), err error) {
	if repo == nil {
		return func() {}, nil
	}
	return repo.Lock(ctx, LockWait)
}

// WriteMemory replaces the memory file at the repo-relative path p below
// top with data when it still holds old (memfile.WriteFileVia). The
// temporary file is made inside the git directory, so that a write
// interrupted by a crash leaves nothing in the working tree. Callers hold
// the rewrite lock.
func WriteMemory(repo *gitrepo.Repo, top, p string, old, data []byte) error {
	tmp := ""
	if repo != nil {
		tmp = repo.TempDir()
	}
	if err := memfile.WriteFileVia(tmp, filepath.Join(top, filepath.FromSlash(p)), old, data); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	return nil
}

// WriteReport writes a report file (--output) through a temporary file
// and an atomic replace, so that a reader never sees half a report.
func WriteReport(p string, data []byte) error {
	tmp, err := atomicfile.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", p, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	if err := atomicfile.Replace(tmp.Name(), p); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}

// AppendFile appends data to the file at p, creating it (as
// $GITHUB_STEP_SUMMARY is written: every step adds its part).
func AppendFile(p string, data []byte) error {
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Now is the time recorded in citations: SOURCE_DATE_EPOCH when set
// (reproducible output, as for reproducible builds), else the clock.
func Now() time.Time {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.Unix(n, 0).UTC()
		}
	}
	return time.Now()
}
