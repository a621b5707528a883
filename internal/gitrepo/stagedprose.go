package gitrepo

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// StagedRenames lists the renames of the commit of the index being
// committed against HEAD, old path → new path, as git's rename detection
// pairs them ('git diff-index --cached -M'): one git process.
func (r *Repo) StagedRenames(ctx context.Context) (map[string]string, error) {
	c := r.cmd()
	if os.Getenv("GIT_INDEX_FILE") != "" {
		c.Env = []string{"GIT_INDEX_FILE=" + r.IndexPath()}
	}
	out, err := c.Run(ctx, "diff-index", "--cached", "-z", "--name-status", "-M", "--diff-filter=R", "HEAD", "--")
	if err != nil {
		return nil, fmt.Errorf("renames staged against HEAD: %w", err)
	}
	renames := map[string]string{}
	f := strings.Split(string(out), "\x00")
	for i := 0; i+2 < len(f); i += 3 {
		if strings.HasPrefix(f[i], "R") {
			renames[f[i+1]] = f[i+2]
		}
	}
	return renames, nil
}

// GrepIndexWords reports which of names occur as a whole word in the
// files of the index being committed whose paths match pathspecs ('git
// grep --cached -w -F -o -h'); one git process for every name.
func (r *Repo) GrepIndexWords(ctx context.Context, names, pathspecs []string) (map[string]bool, error) {
	found := map[string]bool{}
	if len(names) == 0 {
		return found, nil
	}
	c := r.cmd()
	if os.Getenv("GIT_INDEX_FILE") != "" {
		c.Env = []string{"GIT_INDEX_FILE=" + r.IndexPath()}
	}
	args := []string{"grep", "--cached", "-I", "-w", "-F", "-o", "-h", "--no-color"}
	for _, n := range names {
		args = append(args, "-e", n)
	}
	args = append(args, "--")
	args = append(args, pathspecs...)
	out, err := c.Run(ctx, args...)
	if err != nil && ExitCode(err) != 1 { // 1: nothing found
		return nil, fmt.Errorf("grep in the index: %w", err)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if l != "" {
			found[l] = true
		}
	}
	return found, nil
}
