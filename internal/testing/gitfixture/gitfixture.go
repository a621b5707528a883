// Package gitfixture builds real git repositories for tests by running the
// git binary with a pinned identity, pinned dates and no user or system
// configuration. Fixture histories are txtar archives (testdata/repos/*.txtar)
// whose comment is a script and whose files are snapshots of the work tree:
//
//	commit <dir> <subject...>   make the work tree exactly the files under
//	                            <dir>/ in the archive, then commit all
//	crlf <path> <subject...>    convert <path> to CRLF line endings, commit
//	branch <name>               create and switch to a branch
//	checkout <name>             switch to a branch
//	merge <name> <subject...>   merge <name> into the current branch (--no-ff)
//	tag <name>                  tag the current commit
//
// Lines starting with # and blank lines are ignored. The n-th commit is
// dated 2024-01-01 00:00 UTC plus n hours, so hashes are reproducible.
package gitfixture

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

// Epoch is the date of the fixture repositories' first commit.
var Epoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// globalConfig is the global configuration git runs with in fixtures:
// none, or the one Main writes.
var globalConfig = os.DevNull

// Env returns the environment git runs with in fixtures: pinned identity
// and dates (for commit number n), no system configuration and no global
// configuration but Main's.
func Env(n int) []string {
	d := Epoch.Add(time.Duration(n) * time.Hour).Format(time.RFC3339)
	return append(os.Environ(),
		"GIT_AUTHOR_NAME=Ada Author", "GIT_AUTHOR_EMAIL=ada@example.com",
		"GIT_COMMITTER_NAME=Cy Committer", "GIT_COMMITTER_EMAIL=cy@example.com",
		"GIT_AUTHOR_DATE="+d, "GIT_COMMITTER_DATE="+d,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+globalConfig,
		"LC_ALL=C", "TZ=UTC",
	)
}

// Git runs git in dir with the fixture environment for commit number n and
// returns its trimmed standard output.
func Git(dir string, n int, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = Env(n)
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, msg)
	}
	return strings.TrimSpace(string(out)), nil
}

// Runner returns a function that runs git in dir for t with the fixture
// environment, the commit number counting up from 1 with every call, and
// returns its trimmed standard output; a failure fails t.
func Runner(t testing.TB, dir string) func(args ...string) string {
	n := 0
	return func(args ...string) string {
		t.Helper()
		n++
		out, err := Git(dir, n, args...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
}

// Write writes content to the file p (slash-separated, relative to dir),
// making its directories; a failure fails t.
func Write(t testing.TB, dir, p, content string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Replay builds the repository described by the txtar archive at path in a
// new temporary directory and returns the directory.
func Replay(t testing.TB, path string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git binary not found")
	}
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := Build(dir, ar); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return dir
}

// Build replays the archive's script into dir, which must be empty.
func Build(dir string, ar *txtar.Archive) error {
	n := 0
	git := func(args ...string) error {
		_, err := Git(dir, n, args...)
		return err
	}
	if err := git("init", "-q", "-b", "main"); err != nil {
		return err
	}
	sc := bufio.NewScanner(strings.NewReader(string(ar.Comment)))
	for lineNo := 1; sc.Scan(); lineNo++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		fail := func(err error) error { return fmt.Errorf("script line %d: %w", lineNo, err) }
		need := func(k int) error {
			if len(f) < k {
				return fail(fmt.Errorf("%s needs %d arguments", f[0], k-1))
			}
			return nil
		}
		var err error
		switch f[0] {
		case "commit":
			if err = need(3); err == nil {
				if err = snapshot(dir, ar, f[1]); err == nil {
					n++
					if err = git("add", "-A"); err == nil {
						err = git("commit", "-q", "--allow-empty", "-m", strings.Join(f[2:], " "))
					}
				}
			}
		case "crlf":
			if err = need(3); err == nil {
				p := filepath.Join(dir, filepath.FromSlash(f[1]))
				var b []byte
				if b, err = os.ReadFile(p); err == nil {
					s := strings.ReplaceAll(string(b), "\r\n", "\n")
					if err = os.WriteFile(p, []byte(strings.ReplaceAll(s, "\n", "\r\n")), 0o644); err == nil {
						n++
						if err = git("add", "-A"); err == nil {
							err = git("commit", "-q", "-m", strings.Join(f[2:], " "))
						}
					}
				}
			}
		case "branch":
			if err = need(2); err == nil {
				err = git("checkout", "-q", "-b", f[1])
			}
		case "checkout":
			if err = need(2); err == nil {
				err = git("checkout", "-q", f[1])
			}
		case "merge":
			if err = need(3); err == nil {
				n++
				err = git("merge", "-q", "--no-ff", "-m", strings.Join(f[2:], " "), f[1])
			}
		case "tag":
			if err = need(2); err == nil {
				err = git("tag", f[1])
			}
		default:
			err = fmt.Errorf("unknown command %q", f[0])
		}
		if err != nil {
			return fail(err)
		}
	}
	return nil
}

// snapshot makes the work tree of dir hold exactly the archive files under
// prefix/.
func snapshot(dir string, ar *txtar.Archive, prefix string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if e.Name() == ".git" {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	found := false
	for _, f := range ar.Files {
		rel, ok := strings.CutPrefix(f.Name, prefix+"/")
		if !ok {
			continue
		}
		found = true
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return err
		}
	}
	if !found {
		return fmt.Errorf("no files under %s/", prefix)
	}
	return nil
}

// Main runs a package's tests (from its TestMain) with git's repository
// templates turned off: GIT_TEMPLATE_DIR names an empty directory, so
// `git init` and `git clone` create no sample hooks, which are most of
// the files a small test repository holds and most of what creating one
// costs. The tests of hook installation, which meet those samples in
// users' repositories, keep git's templates. The hooks directory is
// still created, empty. The temporary directory is Scratch's. The
// global configuration of Env turns off the
// maintenance git starts after every commit (`git maintenance run
// --auto`, a process that looks for work a test repository never has).
// It returns m.Run's code.
func Main(m *testing.M) int {
	defer Scratch()()
	dir, err := os.MkdirTemp("", "memcite-git-template-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "gitfixture:", err)
		return 2
	}
	defer os.RemoveAll(dir)
	tpl, cfg := filepath.Join(dir, "template"), filepath.Join(dir, "gitconfig")
	if err := os.MkdirAll(filepath.Join(tpl, "hooks"), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "gitfixture:", err)
		return 2
	}
	if err := os.WriteFile(cfg, []byte("[maintenance]\n\tauto = false\n"), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gitfixture:", err)
		return 2
	}
	os.Setenv("GIT_TEMPLATE_DIR", tpl)
	globalConfig = cfg
	return m.Run()
}
