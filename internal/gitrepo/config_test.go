package gitrepo_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// configCase is a config file for TestConfigAsGit. inProcess says whether
// Config reads it without git; localDeclined, whether it is declined all
// the same as the repository's own config (git reads that one first for
// the repository's format, and dies on or ignores some of it).
type configCase struct {
	name          string
	content       string
	inProcess     bool
	localDeclined bool
}

var configCases = []configCase{
	// read in-process
	{name: "plain", inProcess: true, content: "[core]\n\thooksPath = .githooks\n[memcite]\n\tdir = docs\n\tpreCommit = warn\n"},
	{name: "empty file", inProcess: true, content: ""},
	{name: "only comments", inProcess: true, content: "# nothing\n; here\n\n   \n"},
	{name: "multi-valued", inProcess: true, content: "[memcite]\n\tdir = a\n\tdir = b\n[core]\n\tx = 1\n[memcite]\n\tDIR = c\n\tDir\n"},
	{name: "subsection quotes and escapes", inProcess: true, content: "[memcite \"Sub \\\"q\\\" back\\\\slash \\x ;#[]=\"]\n\tkey = v\n[memcite \"\"]\n\tempty = e\n[memcite \"a.b\"]\n\tdotted = d\n"},
	{name: "legacy subsections", inProcess: true, content: "[memcite.Legacy]\n\tk = 1\n[Core.Sub.Deeper]\n\tk = 2\n[memcite.]\n\tk = 3\n[memcite.x \"Y\"]\n\tk = 4\n"},
	{name: "case variants", inProcess: true, content: "[CORE]\n\tHooksPath = A\n[MemCite]\n\tDir = B\n[mEmCiTe \"MiXed\"]\n\tKeY = C\n[core]\n\thookspath = D\n"},
	{name: "unicode subsection", inProcess: true, content: "[memcite \"Ünïcödé ÄÖ\"]\n\tk = ÄÖ\n"},
	{name: "quoted values", inProcess: true, content: "[memcite]\n\ta = \"x ; y # z\" # comment\n\tb = x\"y\"z\n\tc = \"  lead and trail  \"\n\td = \"\"   after\n\te = \"a\"   \"b\"\n\tf = \"tab\there\"\n\tg = \"\"\n"},
	{name: "comments", inProcess: true, content: "# top\n; top\n[core] # after the header\n\tx = 1 ; trailing\n\t# indented\n\ty = 2#no space\n\tz = 3;\n"},
	{name: "continuations", inProcess: true, content: "[memcite]\n\ta = one \\\n two\n\tb = \"in \\\nquotes\"\n\tc = end\\\n\td = x\n\te = last\\"},
	{name: "escapes", inProcess: true, content: "[memcite]\n\ta = \\t\\n\\b\\\\\\\"\n\tb = \"\\t \\\" \\\\\"\n"},
	{name: "whitespace runs", inProcess: true, content: "[memcite]\n\ta = x \t  y\t\tz   \n\tb =   \t lead\n\tc\t=\tv\n\td    =v\n\te = \"q\" \t tail\n"},
	{name: "CRLF", inProcess: true, content: "[core]\r\n\tx = 1\r\n\ty = \"q\"\r\n[memcite \"s\"]\r\n\tz\r\n\tw = a \\\r\nb\r\n"},
	{name: "lone CR", inProcess: true, content: "[memcite]\n\ta = x\ry\n\tb = \"x\ry\"\n\tc = z\r"},
	{name: "byte order mark", inProcess: true, content: "\xef\xbb\xbf[core]\n\tx = 1\n"},
	{name: "empty and bare", inProcess: true, content: "[memcite]\n\tempty =\n\tempty2=\n\tbare\n\tbare3 \t\n\tbareLast"},
	{name: "other sections", inProcess: true, content: "top = 1\n[user]\n\tname = x\n[memcitex]\n\ta = 1\n[cores]\n\ta = 1\n[cor]\n\ta = 1\n[core]\n\tkept = 1\n[memcite-x]\n\ta = 1\n[x \"memcite\"]\n\ta = 1\n[ \"core\"]\n\ta = 1\n"},
	{name: "header and variable on a line", inProcess: true, content: "[core] bare = false\n[memcite]dir=x\n[memcite \"s\"]k=v # c\n"},
	{name: "dashes and digits", inProcess: true, content: "[memcite]\n\tmax-line-1 = 9\n\tA1-b = c\n[memcite-2]\n\tx = y\n"},
	{name: "no final newline", inProcess: true, content: "[memcite]\n\tdir = x"},
	{name: "comment at the end", inProcess: true, content: "[core]\n\tx = 1\n# end"},
	{name: "spaces before the subsection", inProcess: true, content: "[memcite   \"s\"]\n\tk = v\n[memcite\t\"t\"]\n\tk = w\n"},
	{name: "control characters", inProcess: true, content: "[memcite]\n\ta = x\vy\fz\x01\n"},
	{name: "core.bare", inProcess: true, content: "[core]\n\tbare = false\n\tbare = no\n\tbare = 0\n\tbare =\n"},
	{name: "typical", inProcess: true, content: "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n" +
		"[remote \"origin\"]\n\turl = git@example.com:x/y.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n" +
		"[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n[memcite]\n\tpreCommit = strict\n\tdir = .memories\n\tdir = docs\n"},

	// declined: what git includes, or rejects
	{name: "include", content: "[include]\n\tpath = /nonexistent/file\n[memcite]\n\tdir = x\n"},
	{name: "includeIf", content: "[memcite]\n\tdir = x\n[includeIf \"gitdir:/nowhere/\"]\n\tpath = /nonexistent\n"},
	{name: "include in capitals", content: "[InClUdE]\n"},
	{name: "unterminated quote", content: "[memcite]\n\ta = \"open\n\tb = c\n"},
	{name: "unknown escape", content: "[memcite]\n\ta = \\q\n"},
	{name: "empty section", content: "[]\n"},
	{name: "unclosed section", content: "[core\n\tx = 1\n"},
	{name: "unclosed subsection", content: "[core \"x]\n"},
	{name: "space after the subsection", content: "[core \"x\" ]\n"},
	{name: "subsection without quotes", content: "[core x]\n"},
	{name: "newline in a subsection", content: "[core \"a\\\nb\"]\n"},
	{name: "no equals sign", content: "[core]\n\tx y\n"},
	{name: "key starting with a digit", content: "[core]\n\t1x = y\n"},
	{name: "underscore in a key", content: "[core]\n\ta_b = 1\n"},
	{name: "underscore in a section", content: "[co_re]\n"},
	{name: "partial byte order mark", content: "\xef\xbb[core]\n"},
	{name: "byte order mark later", content: "\n\xef\xbb\xbf[core]\n"},
	{name: "comment after a bare key", content: "[memcite]\n\tbare # comment\n"},
	{name: "CR before the equals sign", content: "[core]\n\tx\r= 1\n"},
	{name: "NUL byte", content: "[memcite]\n\ta = x\x00y\n"},
	{name: "invalid UTF-8 subsection", content: "[memcite \"\xff\xfe\"]\n\tk = v\n"},

	// declined as the repository's config only
	{name: "core.bare not a boolean", inProcess: true, localDeclined: true, content: "[core]\n\tbare = maybe\n"},
	{name: "format version 2", inProcess: true, localDeclined: true, content: "[core]\n\trepositoryformatversion = 2\n[memcite]\n\tdir = x\n"},
	{name: "format version not a number", inProcess: true, localDeclined: true, content: "[core]\n\trepositoryformatversion = one\n"},
	{name: "extension", inProcess: true, localDeclined: true, content: "[core]\n\trepositoryformatversion = 1\n[extensions]\n\tnoop = true\n[memcite]\n\tdir = x\n"},
	{name: "unknown extension", inProcess: true, localDeclined: true, content: "[core]\n\trepositoryformatversion = 1\n[extensions]\n\tunknown = true\n[memcite]\n\tdir = x\n"},
}

// gitConfig is the answer of `git config --null --get-regexp
// '^(memcite|core)\.'` in dir, read as Config reads it, or git's stderr
// when it fails.
func gitConfig(t testing.TB, dir string) (cfg map[string][]string, stderr string, failed bool) {
	t.Helper()
	cmd := exec.Command("git", "config", "--null", "--get-regexp", `^(memcite|core)\.`)
	cmd.Dir = dir
	out, err := cmd.Output()
	cfg = map[string][]string{}
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatal(err)
		}
		if ee.ExitCode() == 1 { // no such keys
			return cfg, "", false
		}
		return nil, string(ee.Stderr), true
	}
	for _, rec := range strings.Split(string(out), "\x00") {
		if rec == "" {
			continue
		}
		k, v, _ := strings.Cut(rec, "\n")
		k = strings.ToLower(k)
		cfg[k] = append(cfg[k], v)
	}
	return cfg, "", false
}

// unsetConfigEnv unsets, for a fuzz target, the environment that
// chooses repositories or configuration.
func unsetConfigEnv(f *testing.F) {
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES",
		"GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG",
		"GIT_TEST_ASSUME_DIFFERENT_OWNER", "GIT_NAMESPACE", "GIT_CONFIG_SYSTEM"} {
		f.Setenv(k, "")
		os.Unsetenv(k)
	}
}

// isolateConfig clears the environment that chooses configuration files
// or repositories, for one test: no system file, /dev/null as the global
// one.
func isolateConfig(t *testing.T) {
	t.Helper()
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES",
		"GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG",
		"GIT_TEST_ASSUME_DIFFERENT_OWNER", "GIT_NAMESPACE", "GIT_CONFIG_SYSTEM", "XDG_CONFIG_HOME"} {
		unsetenv(t, k)
	}
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
}

// unsetenv unsets k for the test and restores it after.
func unsetenv(t *testing.T, k string) {
	t.Helper()
	t.Setenv(k, "")
	os.Unsetenv(k)
}

// initRepo creates a repository in a new directory, with an empty config
// of its own.
func initRepo(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := gitfixture.Git(dir, 0, "init", "-q"); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, ".git", "config"), "")
	return dir
}

func writeFile(t testing.TB, p, s string) {
	t.Helper()
	gitfixture.Write(t, "", p, s)
}

// checkConfigAsGit compares Config in dir with git's answer: the same map,
// or the same error, and the in-process path taken exactly when expected.
func checkConfigAsGit(t *testing.T, dir string, inProcess bool) {
	t.Helper()
	want, stderr, failed := gitConfig(t, dir)
	r, err := gitrepo.Discover(dir)
	if err != nil {
		if inProcess {
			t.Fatalf("Discover: %v", err)
		}
		if !failed {
			t.Fatalf("Discover: %v; git config answers %q", err, want)
		}
		return // git refuses the repository before its config
	}
	defer r.Close()
	got, err := r.Config(context.Background())
	if r.ConfigInProcessForTest() != inProcess {
		_, why := r.ReadConfigInProcessForTest()
		t.Errorf("read in-process: %v, want %v (plain layout: %v; declined: %q)", r.ConfigInProcessForTest(), inProcess, r.PlainForTest(), why)
	}
	if failed {
		var ge *gitrepo.Error
		if !errors.As(err, &ge) || ge.Stderr != stderr {
			t.Fatalf("Config = %q, %v; git fails with %q", got, err, stderr)
		}
		return
	}
	if err != nil {
		t.Fatalf("Config: %v; git answers %q", err, want)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Config =\n\t%q\ngit answers\n\t%q", got, want)
	}
}

// TestConfigAsGit reads every config file of the table as the global and
// as the repository's config, with Config and with git config: the same
// keys and values, in the same order, or the same error; and the files
// that are certain are read without git. (The system file is read by the
// same code: TestConfigFiles finds it.) One repository serves every case.
func TestConfigAsGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git binary not found")
	}
	dir := initRepo(t)
	local := filepath.Join(dir, ".git", "config")
	plain, err := os.ReadFile(local)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range configCases {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "gitconfig")
			writeFile(t, file, tc.content)
			t.Run("global", func(t *testing.T) {
				isolateConfig(t)
				t.Setenv("GIT_CONFIG_GLOBAL", file)
				checkConfigAsGit(t, dir, tc.inProcess)
			})
			t.Run("local", func(t *testing.T) {
				isolateConfig(t)
				writeFile(t, local, tc.content)
				defer writeFile(t, local, string(plain))
				checkConfigAsGit(t, dir, tc.inProcess && !tc.localDeclined)
			})
		})
	}
}

// TestConfigFiles reads configuration from every place git looks, in
// git's order, and asks git wherever the files or their meaning are not
// certain.
func TestConfigFiles(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git binary not found")
	}
	setup := func(t *testing.T) (dir, tmp string) {
		isolateConfig(t)
		tmp = t.TempDir()
		dir = initRepo(t)
		writeFile(t, filepath.Join(dir, ".git", "config"), "[memcite]\n\tdir = local\n")
		writeFile(t, filepath.Join(tmp, "home", ".gitconfig"), "[memcite]\n\tdir = home\n")
		writeFile(t, filepath.Join(tmp, "home", ".config", "git", "config"), "[memcite]\n\tdir = home-xdg\n")
		writeFile(t, filepath.Join(tmp, "xdg", "git", "config"), "[memcite]\n\tdir = xdg\n")
		writeFile(t, filepath.Join(tmp, "system"), "[memcite]\n\tdir = system\n")
		t.Setenv("HOME", filepath.Join(tmp, "home"))
		return dir, tmp
	}
	gitOnPath := func() bool {
		p, err := exec.LookPath("git")
		if err != nil {
			return false
		}
		p, err = filepath.EvalSymlinks(p)
		return err == nil && (p == "/usr/bin/git" || p == "/usr/lib/git-core/git")
	}
	for _, tc := range []struct {
		name      string
		env       func(t *testing.T, tmp string)
		inProcess bool
		dir       []string // memcite.dir, when in-process
	}{
		{"home and XDG", func(t *testing.T, tmp string) {
			unsetenv(t, "GIT_CONFIG_GLOBAL")
			t.Setenv("XDG_CONFIG_HOME", filepath.Join(tmp, "xdg"))
		}, true, []string{"xdg", "home", "local"}},
		{"home without XDG", func(t *testing.T, tmp string) {
			unsetenv(t, "GIT_CONFIG_GLOBAL")
		}, true, []string{"home-xdg", "home", "local"}},
		{"empty XDG", func(t *testing.T, tmp string) {
			unsetenv(t, "GIT_CONFIG_GLOBAL")
			t.Setenv("XDG_CONFIG_HOME", "")
		}, true, []string{"home-xdg", "home", "local"}},
		{"global instead of home", func(t *testing.T, tmp string) {
			t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(tmp, "xdg", "git", "config"))
		}, true, []string{"xdg", "local"}},
		{"empty global", func(t *testing.T, tmp string) {
			t.Setenv("GIT_CONFIG_GLOBAL", "")
		}, true, []string{"local"}},
		{"missing global", func(t *testing.T, tmp string) {
			t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(tmp, "missing"))
		}, true, []string{"local"}},
		{"global under a file", func(t *testing.T, tmp string) {
			t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(tmp, "system", "config"))
		}, true, []string{"local"}},
		{"system", func(t *testing.T, tmp string) {
			t.Setenv("GIT_CONFIG_NOSYSTEM", "false")
			t.Setenv("GIT_CONFIG_SYSTEM", filepath.Join(tmp, "system"))
		}, true, []string{"system", "local"}},
		{"system turned off", func(t *testing.T, tmp string) {
			t.Setenv("GIT_CONFIG_NOSYSTEM", "Yes")
			t.Setenv("GIT_CONFIG_SYSTEM", filepath.Join(tmp, "system"))
		}, true, []string{"local"}},
		{"compiled-in system file", func(t *testing.T, tmp string) {
			unsetenv(t, "GIT_CONFIG_NOSYSTEM")
		}, gitOnPath(), nil},
		{"another git on PATH", func(t *testing.T, tmp string) {
			unsetenv(t, "GIT_CONFIG_NOSYSTEM")
			git, _ := exec.LookPath("git")
			bin := filepath.Join(tmp, "bin")
			if err := os.MkdirAll(bin, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(git, filepath.Join(bin, "git")); err != nil {
				t.Fatal(err)
			}
			t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		}, gitOnPath(), nil}, // a link to the same git: the same file
		{"git installed elsewhere", func(t *testing.T, tmp string) {
			unsetenv(t, "GIT_CONFIG_NOSYSTEM")
			git, _ := exec.LookPath("git")
			writeFile(t, filepath.Join(tmp, "bin", "git"), "#!/bin/sh\nexec "+git+" \"$@\"\n")
			if err := os.Chmod(filepath.Join(tmp, "bin", "git"), 0o755); err != nil {
				t.Fatal(err)
			}
			t.Setenv("PATH", filepath.Join(tmp, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
		}, false, nil}, // its system file is not known
		{"GIT_CONFIG_NOSYSTEM unclear", func(t *testing.T, tmp string) {
			t.Setenv("GIT_CONFIG_NOSYSTEM", "maybe")
		}, false, nil},
		{"global is a directory", func(t *testing.T, tmp string) {
			t.Setenv("GIT_CONFIG_GLOBAL", tmp)
		}, false, nil},
		{"relative global", func(t *testing.T, tmp string) {
			t.Setenv("GIT_CONFIG_GLOBAL", "gitconfig")
		}, false, nil},
		{"HOME unset", func(t *testing.T, tmp string) {
			unsetenv(t, "GIT_CONFIG_GLOBAL")
			unsetenv(t, "HOME")
		}, false, nil},
		{"include in the global file", func(t *testing.T, tmp string) {
			p := filepath.Join(tmp, "included")
			writeFile(t, p, "[memcite]\n\tdir = included\n")
			writeFile(t, filepath.Join(tmp, "global"), "[include]\n\tpath = "+p+"\n")
			t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(tmp, "global"))
		}, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, tmp := setup(t)
			tc.env(t, tmp)
			checkConfigAsGit(t, dir, tc.inProcess)
			if tc.dir != nil {
				r, err := gitrepo.Discover(dir)
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				cfg, why := r.ReadConfigInProcessForTest()
				if why != "" || !reflect.DeepEqual(cfg["memcite.dir"], tc.dir) {
					t.Errorf("memcite.dir = %q (%s), want %q", cfg["memcite.dir"], why, tc.dir)
				}
			}
		})
	}
}

// TestConfigAsksGit: what only git knows — configuration given in the
// environment after the repository was found, a linked worktree —
// is git's answer.
func TestConfigAsksGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git binary not found")
	}
	for _, tc := range []struct {
		name string
		env  []string
	}{
		{"GIT_CONFIG_PARAMETERS with an include", []string{"GIT_CONFIG_PARAMETERS", "'include.path'='/nonexistent' 'memcite.dir'='command line'"}},
		{"GIT_CONFIG_COUNT", []string{"GIT_CONFIG_COUNT", "1", "GIT_CONFIG_KEY_0", "memcite.dir", "GIT_CONFIG_VALUE_0", "environment"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isolateConfig(t)
			dir := initRepo(t)
			writeFile(t, filepath.Join(dir, ".git", "config"), "[memcite]\n\tdir = local\n")
			r, err := gitrepo.Discover(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if !r.PlainForTest() {
				t.Fatal("not found as a plain layout")
			}
			for i := 0; i < len(tc.env); i += 2 {
				t.Setenv(tc.env[i], tc.env[i+1])
			}
			got, err := r.Config(context.Background())
			if err != nil || r.ConfigInProcessForTest() || len(got["memcite.dir"]) != 2 {
				t.Errorf("Config = %q, %v (in-process: %v); want local and %s", got, err, r.ConfigInProcessForTest(), tc.env[len(tc.env)-1])
			}
		})
	}
	t.Run("linked worktree", func(t *testing.T) {
		isolateConfig(t)
		dir := t.TempDir()
		for i, args := range [][]string{
			{"init", "-q"},
			{"commit", "-q", "--allow-empty", "-m", "first"},
			{"config", "memcite.dir", "shared"},
			{"worktree", "add", "-q", filepath.Join(dir, "wt")},
		} {
			if _, err := gitfixture.Git(dir, i, args...); err != nil {
				t.Fatal(err)
			}
		}
		checkConfigAsGit(t, filepath.Join(dir, "wt"), false)
	})
}

// TestConfigParametersAsGit: configuration on git's command line (`git -c`,
// which git hands to a hook in GIT_CONFIG_PARAMETERS: an editor's commit
// runs `git -c user.useConfigOnly=true commit`) is read in-process, after
// the files, as git reads it, and the repository is still found without
// git; what changes the layout, trust or includes, and what git refuses,
// is git's to answer.
func TestConfigParametersAsGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git binary not found")
	}
	// the variable as git writes it: printed by an alias of git -c's own
	fromGit := func(t *testing.T, args ...string) string {
		t.Helper()
		var cargs []string
		for _, a := range args {
			cargs = append(cargs, "-c", a)
		}
		cargs = append(cargs, "-c", "alias.penv=!printenv GIT_CONFIG_PARAMETERS", "penv")
		cmd := exec.Command("git", cargs...)
		cmd.Dir = t.TempDir()
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %q: %v", cargs, err)
		}
		return strings.TrimSuffix(string(out), "\n")
	}
	for _, tc := range []struct {
		name      string
		args      []string // given to git -c
		env       string   // or the variable itself
		inProcess bool
	}{
		{name: "an editor's commit", args: []string{"user.useConfigOnly=true"}, inProcess: true},
		{name: "core and memcite", args: []string{"core.quotepath=false", "memcite.preCommit=block", "Core.FSMonitor=false", "memcite.dir=it's here!", "memcite.dir=again"}, inProcess: true},
		{name: "subsection and case", args: []string{"memcite.Sub.Key=V", "MEMCITE.dir=x", "memcite.a.b.c=d"}, inProcess: true},
		{name: "no value, an empty value", args: []string{"memcite.flag", "memcite.empty="}, inProcess: true},
		{name: "core.worktree", args: []string{"core.worktree=/elsewhere"}},
		{name: "core.bare", args: []string{"core.bare=false", "memcite.dir=x"}},
		{name: "include", args: []string{"include.path=/nonexistent"}},
		{name: "includeIf", args: []string{"includeIf.gitdir:/x/.path=/nonexistent"}},
		{name: "safe.directory", args: []string{"safe.directory=*"}},
		{name: "old style", env: `'memcite.dir=old style' 'memcite.flag' ' memcite.spaced = v'`, inProcess: true},
		{name: "separators", env: "'memcite.a'='1'\t'core.b'='2'\n'memcite.c'=  'memcite.d'='4'  ", inProcess: true},
		{name: "escapes", env: `'memcite.q'='a'\''b'\!'c' 'memcite.r'=''\'''`, inProcess: true},
		{name: "empty", env: "", inProcess: true},
		{name: "leading space", env: ` 'memcite.a'='1'`},
		{name: "unquoted", env: `memcite.dir=x`},
		{name: "text after a key", env: `'memcite.dir'x`},
		{name: "text after a value", env: `'memcite.dir'='x'y`},
		{name: "unclosed quote", env: `'memcite.dir'='x`},
		{name: "bad escape", env: `'memcite.dir'='a'\x'b'`},
		{name: "key starting with a digit", env: `'memcite.1x'='y'`},
		{name: "key without a section", env: `'memcite'='y'`},
		{name: "key with an empty variable", env: `'memcite.'='y'`},
		{name: "underscore in a key", env: `'memcite.a_b'='y'`},
		{name: "empty key", env: `''='y'`},
		{name: "invalid UTF-8 key", env: "'memcite.sub\xff.k'='y'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isolateConfig(t)
			env := tc.env
			if tc.args != nil {
				env = fromGit(t, tc.args...)
			}
			dir := initRepo(t)
			writeFile(t, filepath.Join(dir, ".git", "config"), "[memcite]\n\tdir = local\n[core]\n\tquotepath = true\n")
			t.Setenv("GIT_CONFIG_PARAMETERS", env)
			checkConfigAsGit(t, dir, tc.inProcess)
			if r, err := gitrepo.Discover(dir); err == nil {
				if r.PlainForTest() != tc.inProcess {
					t.Errorf("found without git: %v, want %v", r.PlainForTest(), tc.inProcess)
				}
				r.Close()
			}
		})
	}
}

// FuzzConfigParametersAsGit: whenever Config reads a random
// GIT_CONFIG_PARAMETERS in-process, git config answers the same.
func FuzzConfigParametersAsGit(f *testing.F) {
	if _, err := exec.LookPath("git"); err != nil {
		f.Skip("git binary not found")
	}
	for _, s := range []string{`'memcite.dir'='x'`, `'memcite.dir=x' 'core.a'`, `'memcite.q'='a'\''b'`, "'memcite.a'= 'core.b'='c'\t",
		`'user.useConfigOnly'='true'`, `'memcite.Sub.K'='v'`, `'include.path'='/x'`, "x"} {
		f.Add(s)
	}
	unsetConfigEnv(f)
	f.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	f.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	dir := initRepo(f)
	writeFile(f, filepath.Join(dir, ".git", "config"), "[memcite]\n\tdir = local\n")
	f.Fuzz(func(t *testing.T, env string) {
		if strings.ContainsRune(env, 0) {
			return // no environment variable holds a NUL
		}
		t.Setenv("GIT_CONFIG_PARAMETERS", env)
		agreeIfInProcess(t, dir)
	})
}

// FuzzConfigAsGit reads random config files as the global or the
// repository's config: whenever Config would read them in-process, git
// config answers the same.
func FuzzConfigAsGit(f *testing.F) {
	if _, err := exec.LookPath("git"); err != nil {
		f.Skip("git binary not found")
	}
	for _, tc := range configCases {
		f.Add([]byte(tc.content), false)
		f.Add([]byte(tc.content), true)
	}
	unsetConfigEnv(f)
	global := filepath.Join(f.TempDir(), "gitconfig")
	f.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	f.Setenv("GIT_CONFIG_GLOBAL", global)
	dir := initRepo(f)
	local := filepath.Join(dir, ".git", "config")
	f.Fuzz(func(t *testing.T, content []byte, asLocal bool) {
		writeFile(t, global, "")
		writeFile(t, local, "")
		if asLocal {
			writeFile(t, local, string(content))
		} else {
			writeFile(t, global, string(content))
		}
		agreeIfInProcess(t, dir)
	})
}

// agreeIfInProcess: where Config reads dir's configuration in-process,
// git config answers the same (the check of the fuzz targets).
func agreeIfInProcess(t *testing.T, dir string) {
	t.Helper()
	r, err := gitrepo.Discover(dir)
	if err != nil {
		return // git refuses the repository
	}
	defer r.Close()
	got, declined := r.ReadConfigInProcessForTest()
	if declined != "" {
		return
	}
	want, stderr, failed := gitConfig(t, dir)
	if failed {
		t.Fatalf("read in-process as %q; git fails: %s", got, stderr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("read in-process as\n\t%q\ngit answers\n\t%q", got, want)
	}
}

// BenchmarkConfigInProcess reads a typical repository's configuration,
// a global file and the system file (where its path is known) without
// git; starting git for it costs 2–3 ms.
func BenchmarkConfigInProcess(b *testing.B) {
	tmp := b.TempDir()
	global := filepath.Join(tmp, "gitconfig")
	writeFile(b, global, "[user]\n\tname = Ada Author\n\temail = ada@example.com\n[init]\n\tdefaultBranch = main\n"+
		"[alias]\n\tst = status\n\tco = checkout\n\tlg = log --graph --oneline --decorate\n[pull]\n\trebase = true\n"+
		"[memcite]\n\tagentHook = verbose\n[core]\n\texcludesFile = ~/.gitignore_global\n\tpager = less -FRX\n")
	for _, k := range []string{"GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_SYSTEM"} {
		b.Setenv(k, "")
		os.Unsetenv(k)
	}
	b.Setenv("GIT_CONFIG_GLOBAL", global)
	dir := initRepo(b)
	for _, tc := range configCases {
		if tc.name == "typical" {
			writeFile(b, filepath.Join(dir, ".git", "config"), tc.content)
		}
	}
	r, err := gitrepo.Discover(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	if _, why := r.ReadConfigInProcessForTest(); why != "" {
		b.Logf("%s: without the system file", why)
		b.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, why := r.ReadConfigInProcessForTest(); why != "" {
			b.Fatal(why)
		}
	}
}
