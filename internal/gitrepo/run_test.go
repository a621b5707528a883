package gitrepo_test

import (
	"context"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
)

// TestEnviron runs git (a shell alias that prints its environment) the
// ways the package runs it, and checks what it sees: the variables every
// git process gets; the allocator setting on Linux once the repository's
// history is opened, unless the user set GLIBC_TUNABLES (theirs then).
func TestEnviron(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the alias runs printenv through a POSIX shell")
	}
	alias := []string{"-c", "alias.env=!printenv GLIBC_TUNABLES GIT_OPTIONAL_LOCKS MEMCITE EXTRA; true", "env"}
	fields := func(out []byte) string { return strings.Join(strings.Fields(string(out)), " ") }
	for _, tc := range []struct {
		name, user string
		set        bool
		// what git sees before the history is opened, and after
		before, after string
	}{
		{name: "unset", before: "0 0", after: "glibc.malloc.hugetlb=1 0 0"},
		{name: "the user's", user: "glibc.malloc.check=0", set: true, before: "glibc.malloc.check=0 0 0", after: "glibc.malloc.check=0 0 0"},
		{name: "set empty", user: "", set: true, before: "0 0", after: "0 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.set {
				t.Setenv("GLIBC_TUNABLES", tc.user)
			} else {
				unsetenv(t, "GLIBC_TUNABLES")
			}
			after := tc.after
			if runtime.GOOS != "linux" {
				after = tc.before
			}
			dir := initRepo(t)
			r, err := gitrepo.Discover(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			run := func() string {
				t.Helper()
				out, err := r.Run(context.Background(), alias...)
				if err != nil {
					t.Fatal(err)
				}
				return fields([]byte(out))
			}
			if got := run(); got != tc.before {
				t.Errorf("before the history: git saw %q, want %q", got, tc.before)
			}
			h, err := r.History()
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			if got := run(); got != after {
				t.Errorf("with the history open: git saw %q, want %q", got, after)
			}
			// a command of no repository, run or streamed, with Env
			cmd := gitrepo.Cmd{Dir: dir, Env: []string{"EXTRA=1"}}
			out, err := cmd.Run(context.Background(), alias...)
			if err != nil {
				t.Fatal(err)
			}
			var streamed []byte
			err = cmd.Stream(context.Background(), func(r io.Reader) error {
				var err error
				streamed, err = io.ReadAll(r)
				return err
			}, alias...)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.before + " 1"
			if got := fields(out); got != want {
				t.Errorf("Cmd.Run: git saw %q, want %q", got, want)
			}
			if got := fields(streamed); got != want {
				t.Errorf("Cmd.Stream: git saw %q, want %q", got, want)
			}
		})
	}
}
