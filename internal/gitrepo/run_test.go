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
// ways the package runs it, and checks what it sees: the allocator
// setting on Linux unless the user set GLIBC_TUNABLES, the user's own
// then, and the variables every git process gets.
func TestEnviron(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the alias runs printenv through a POSIX shell")
	}
	dir := t.TempDir()
	alias := []string{"-c", "alias.env=!printenv GLIBC_TUNABLES GIT_OPTIONAL_LOCKS MEMCITE EXTRA; true", "env"}
	run := func(t *testing.T) []string {
		t.Helper()
		out, err := gitrepo.Cmd{Dir: dir, Env: []string{"EXTRA=1"}}.Run(context.Background(), alias...)
		if err != nil {
			t.Fatal(err)
		}
		var streamed string
		err = gitrepo.Cmd{Dir: dir, Env: []string{"EXTRA=1"}}.Stream(context.Background(), func(r io.Reader) error {
			b, err := io.ReadAll(r)
			streamed = string(b)
			return err
		}, alias...)
		if err != nil {
			t.Fatal(err)
		}
		if streamed != string(out) {
			t.Errorf("Stream saw %q, Run %q", streamed, out)
		}
		return strings.Fields(string(out))
	}
	for _, tc := range []struct {
		name, user string
		set        bool
		want       []string
	}{
		{name: "unset", want: []string{"glibc.malloc.hugetlb=1", "0", "0", "1"}},
		{name: "the user's", user: "glibc.malloc.check=0", set: true, want: []string{"glibc.malloc.check=0", "0", "0", "1"}},
		{name: "set empty", user: "", set: true, want: []string{"", "0", "0", "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.set {
				t.Setenv("GLIBC_TUNABLES", tc.user)
			} else {
				unsetenv(t, "GLIBC_TUNABLES")
			}
			want := tc.want
			if runtime.GOOS != "linux" && !tc.set {
				want = want[1:] // printenv prints nothing for an unset one
			}
			if want[0] == "" {
				want = want[1:] // an empty line is no field
			}
			if got := run(t); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("git saw %q, want %q", got, want)
			}
		})
	}
}
