package gitrepo

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/git-memcite/git-memcite/internal/trace"
)

// LookProgram finds a program on PATH, else in one of dirs (such as a
// project's node_modules/.bin), and returns its path.
func LookProgram(name string, dirs ...string) (string, bool) {
	if p, err := exec.LookPath(name); err == nil {
		return p, true
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if info, err := os.Stat(p); err == nil && !info.IsDir() && info.Mode().Perm()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}

// Program runs another program git's hooks depend on (a hook manager's
// installer: lefthook install, pre-commit install) in dir and returns
// what it printed, stdout and stderr together. This package is the one
// door to other programs, as it is to git.
func Program(ctx context.Context, dir, path string, args ...string) (string, error) {
	trace.Printf("run %s %s", path, strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("%s %s: %w", filepath.Base(path), strings.Join(args, " "), err)
	}
	return string(out), nil
}
