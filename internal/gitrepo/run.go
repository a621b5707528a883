package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync/atomic"

	"github.com/git-memcite/git-memcite/internal/trace"
)

// Error is a git command that failed: its arguments, what it printed on
// stderr and its exit code (-1 when it did not run or was killed). It
// wraps the underlying error (*exec.ExitError, exec.ErrNotFound, a context
// error), so callers test it with errors.As and errors.Is, never by
// matching the message.
type Error struct {
	Args     []string
	Stderr   string
	ExitCode int
	Err      error
}

func (e *Error) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), msg)
}

func (e *Error) Unwrap() error { return e.Err }

// ExitCode returns the exit code of a failed git command in err's chain,
// or -1 when err is not one.
func ExitCode(err error) int {
	var ge *Error
	if errors.As(err, &ge) {
		return ge.ExitCode
	}
	return -1
}

// Cmd describes one git invocation.
type Cmd struct {
	Dir   string    // working directory ("" for the current one)
	Env   []string  // added to the inherited environment
	Stdin io.Reader // nil for none

	// hugePages, when set and true, asks for mallocTunables (a
	// repository's, once its history is read)
	hugePages *atomic.Bool
}

// Git runs git with args in dir, with the environment environ describes,
// and returns stdout.
func Git(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := Cmd{Dir: dir}.Run(ctx, args...)
	return string(out), err
}

// environ is the environment of a git process: the inherited one
// (GIT_DIR, GIT_INDEX_FILE … describe the operation in progress when a
// hook runs) plus GIT_OPTIONAL_LOCKS=0, so that git never refreshes an
// index that another git command holds locked, MEMCITE=0, so that hooks
// git may run do not call back into git-memcite, the allocator setting of
// mallocTunables once c's repository reads history, and c.Env.
func (c Cmd) environ() []string {
	env := append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "MEMCITE=0")
	if c.hugePages != nil && c.hugePages.Load() {
		if t, ok := mallocTunables(); ok {
			env = append(env, t)
		}
	}
	return append(env, c.Env...)
}

// mallocTunables asks the C library of a git process on Linux for
// transparent huge pages for its heap (glibc 2.35 and later read
// glibc.malloc.hugetlb=1; older ones and other C libraries ignore it):
// git's log and diff-tree of a long history, and cat-file reading its
// blobs, rebuild large trees and blobs from their deltas in memory they
// allocate and free by the megabyte, and with 4 KiB pages a third of
// their time went to the kernel's page faults (docs/performance.md). A
// small process pays a millisecond or two for its first huge page: the
// setting is for the processes of a repository whose history is read
// (Repo.History), not for a hook's few lookups. A GLIBC_TUNABLES the user
// set is left as it is.
func mallocTunables() (string, bool) {
	if runtime.GOOS != "linux" {
		return "", false
	}
	if _, set := os.LookupEnv("GLIBC_TUNABLES"); set {
		return "", false
	}
	return "GLIBC_TUNABLES=glibc.malloc.hugetlb=1", true
}

// Run runs git with args as c describes and returns its stdout.
func (c Cmd) Run(ctx context.Context, args ...string) ([]byte, error) {
	trace.Printf("run git %s", strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = c.Dir
	cmd.Env = c.environ()
	cmd.Stdin = c.Stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		ge := &Error{Args: args, Stderr: stderr.String(), ExitCode: -1, Err: err}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			ge.ExitCode = ee.ExitCode()
		}
		return stdout.Bytes(), ge
	}
	return stdout.Bytes(), nil
}

// Stream runs git with args as c describes, handing its stdout to read
// as git writes it. read must consume it to its end, or return an error
// (git is then stopped and that error returned); a failure of git is
// returned as Run returns it.
func (c Cmd) Stream(ctx context.Context, read func(io.Reader) error, args ...string) error {
	trace.Printf("run git %s", strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = c.Dir
	cmd.Env = c.environ()
	cmd.Stdin = c.Stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return &Error{Args: args, ExitCode: -1, Err: err}
	}
	if err := cmd.Start(); err != nil {
		return &Error{Args: args, ExitCode: -1, Err: err}
	}
	rerr := read(out)
	if rerr != nil {
		_ = cmd.Process.Kill()
	}
	_, _ = io.Copy(io.Discard, out) // (git may not write into a pipe nobody reads)
	if err := cmd.Wait(); err != nil && rerr == nil {
		ge := &Error{Args: args, Stderr: stderr.String(), ExitCode: -1, Err: err}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			ge.ExitCode = ee.ExitCode()
		}
		return ge
	}
	return rerr
}

// start starts a long-running git process with pipes to its stdin and
// stdout (git cat-file --batch).
func (c Cmd) start(args ...string) (*exec.Cmd, io.WriteCloser, io.ReadCloser, error) {
	trace.Printf("start git %s", strings.Join(args, " "))
	return c.spawn(args...)
}

// spawn is start without the trace line, for a goroutine that must not
// write to the run's output (catFile.warm traces before it starts one).
func (c Cmd) spawn(args ...string) (*exec.Cmd, io.WriteCloser, io.ReadCloser, error) {
	path, err := exec.LookPath("git")
	if err != nil {
		return nil, nil, nil, &Error{Args: args, ExitCode: -1, Err: err}
	}
	cmd := exec.Command(path, args...)
	cmd.Dir = c.Dir
	cmd.Env = c.environ()
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, nil, &Error{Args: args, ExitCode: -1, Err: err}
	}
	return cmd, in, out, nil
}
