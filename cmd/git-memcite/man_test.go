package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/alecthomas/kong"

	"github.com/git-memcite/git-memcite/internal/clidoc"
)

func testModel(t *testing.T) *kong.Application {
	t.Helper()
	var cli CLI
	p, err := newParser(&cli, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return p.Model
}

// goldenFile compares got with testdata/name (-update rewrites it).
func goldenFile(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date (go test -update); got:\n%s", p, got)
	}
}

func TestManPage(t *testing.T) {
	app := testModel(t)
	var b bytes.Buffer
	if err := writeMan(&b, app); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	goldenFile(t, "git-memcite.1", b.Bytes())
	if !strings.HasPrefix(page, ".TH GIT\\-MEMCITE 1 ") {
		t.Errorf("no .TH header")
	}
	// every visible command and flag is documented
	m := modelOf(app)
	globals, cmds := m.Globals, m.Commands
	if len(cmds) < 4 {
		t.Fatalf("only %d commands in the model", len(cmds))
	}
	for _, c := range cmds {
		if !strings.Contains(page, ".SS \"git memcite "+clidoc.Roff(c.Name)) {
			t.Errorf("command %s missing", c.Name)
		}
		for _, f := range c.Flags {
			if !strings.Contains(page, `\fB\-\-`+clidoc.Roff(f.Name)+`\fR`) {
				t.Errorf("flag --%s of %s missing", f.Name, c.Name)
			}
		}
	}
	for _, f := range globals {
		if !strings.Contains(page, `\fB\-\-`+clidoc.Roff(f.Name)+`\fR`) {
			t.Errorf("global flag --%s missing", f.Name)
		}
	}
	if strings.Contains(page, `"git memcite man`) {
		t.Errorf("the hidden man command is documented")
	}
	// groff finds no problem in it
	if _, err := exec.LookPath("groff"); err == nil {
		cmd := exec.Command("groff", "-man", "-Tutf8", "-ww", "-z")
		cmd.Stdin = strings.NewReader(page)
		out, err := cmd.CombinedOutput()
		if err != nil || len(out) > 0 {
			t.Errorf("groff: %v\n%s", err, out)
		}
	}
}

func TestRoffEscape(t *testing.T) {
	for in, want := range map[string]string{
		"--format":  `\-\-format`,
		`a\b`:       `a\eb`,
		".hidden":   `\&.hidden`,
		"'quoted":   `\(aqquoted`,
		"a `b`":     `a \(gab\(ga`,
		"two\nline": "two line",
	} {
		if got := clidoc.Roff(in); got != want {
			t.Errorf("clidoc.Roff(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCompletionScripts(t *testing.T) {
	app := testModel(t)
	for _, sh := range []string{"bash", "zsh", "fish"} {
		t.Run(sh, func(t *testing.T) {
			var b bytes.Buffer
			if err := writeCompletion(&b, sh, app); err != nil {
				t.Fatal(err)
			}
			goldenFile(t, "completion."+sh, b.Bytes())
			if _, err := exec.LookPath(sh); err != nil {
				t.Skipf("%s not installed: syntax not checked", sh)
			}
			cmd := exec.Command(sh, "-n")
			if sh == "fish" {
				cmd = exec.Command(sh, "--no-execute")
			}
			cmd.Stdin = bytes.NewReader(b.Bytes())
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v\n%s", sh, err, out)
			}
		})
	}
	if err := writeCompletion(io.Discard, "tcsh", app); err == nil {
		t.Error("no error for an unknown shell")
	}
}

// TestBashCompletion runs the bash completion inside git's own completion,
// as a user's shell does for "git memcite <TAB>", and for git-memcite typed
// alone without git's completion.
func TestBashCompletion(t *testing.T) {
	gitComp := "/usr/share/bash-completion/completions/git"
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	var b bytes.Buffer
	if err := writeCompletion(&b, "bash", testModel(t)); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "git-memcite")
	if err := os.WriteFile(script, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	repo := completionRepo(t)
	// mode: "git" completes "git memcite …" through git's completion;
	// "alone" completes git-memcite typed alone without it; "alone+git"
	// with git's completion loaded in the shell
	complete := func(t *testing.T, mode, line string) string {
		t.Helper()
		words := strings.Fields(line)
		if strings.HasSuffix(line, " ") {
			words = append(words, "")
		}
		var sb strings.Builder
		if mode != "alone" {
			sb.WriteString("source " + gitComp + "\n")
		}
		sb.WriteString("source " + script + "\n")
		sb.WriteString("COMP_WORDS=(")
		for _, w := range words {
			sb.WriteString("'" + w + "' ")
		}
		sb.WriteString(")\nCOMP_CWORD=" + strconv.Itoa(len(words)-1) + "\nCOMP_LINE='" + line + "'\nCOMP_POINT=${#COMP_LINE}\n")
		if mode == "git" {
			sb.WriteString("__git_wrap__git_main\n")
		} else {
			sb.WriteString("_git_memcite_standalone\n")
		}
		sb.WriteString(`printf '%s\n' "${COMPREPLY[@]}" | sort` + "\n")
		cmd := exec.Command("bash", "--norc", "--noprofile")
		cmd.Dir = repo
		cmd.Stdin = strings.NewReader(sb.String())
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1", "PATH="+binary(t)+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v\n%s", err, out)
		}
		return string(out)
	}
	for _, tc := range []struct {
		mode string
		line string
		want []string
		not  []string
	}{
		{"git", "git memcite ver", []string{"verify ", "verify-all "}, []string{"config"}},
		{"git", "git memcite verify-all --f", []string{"--format=", "--fail-on="}, nil},
		{"git", "git memcite verify-all --format=s", []string{"sarif "}, []string{"json"}},
		{"git", "git memcite completion ", []string{"bash ", "zsh ", "fish "}, nil},
		{"git", "git memcite --co", []string{"--color="}, nil},
		{"git", "git memcite verify al", []string{"alpha "}, []string{"beta"}},
		{"git", "git memcite health --format=", []string{"markdown ", "html "}, []string{"sarif"}},
		{"git", "git memcite graph --c", []string{"--cycles "}, nil},
		{"git", "git memcite graph ", []string{"find-roots ", "alpha ", "topic/beta "}, nil},
		{"alone", "git-memcite con", []string{"config"}, []string{"verify"}},
		{"alone", "git-memcite verify --st", []string{"--staged"}, nil},
		{"alone", "git-memcite relocate ", []string{"alpha", "topic/beta"}, nil},
		{"alone+git", "git-memcite ", []string{"verify "}, []string{"unary operator", "bash:"}},
		{"alone+git", "git-memcite adopt a", []string{"alpha "}, []string{"unary operator", "bash:"}},
	} {
		t.Run(tc.mode+" "+tc.line, func(t *testing.T) {
			if tc.mode != "alone" {
				if _, err := os.Stat(gitComp); err != nil {
					t.Skip("git's bash completion is not installed")
				}
			}
			got := complete(t, tc.mode, tc.line)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("completions of %q lack %q:\n%s", tc.line, w, got)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(got, w) {
					t.Errorf("completions of %q offer %q:\n%s", tc.line, w, got)
				}
			}
		})
	}
}

// completionRepo is a repository with two memories, alpha and topic/beta,
// for the dynamic completion of memory ids.
func completionRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for p, body := range map[string]string{
		".serena/memories/alpha.md":      "---\nid: alpha\n---\n",
		".serena/memories/topic/beta.md": "---\ncitations: []\n---\n",
	} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("git", "init", "-q")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	return dir
}

// TestFishCompletion asks fish for completions with the generated rules.
func TestFishCompletion(t *testing.T) {
	if _, err := exec.LookPath("fish"); err != nil {
		t.Skip("fish not installed")
	}
	var b bytes.Buffer
	if err := writeCompletion(&b, "fish", testModel(t)); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "git-memcite.fish")
	if err := os.WriteFile(script, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	repo := completionRepo(t)
	for line, want := range map[string][]string{
		"git-memcite ver":                   {"verify\t", "verify-all\t"},
		"git memcite verify-all --format s": {"sarif\t"},
		"git memcite verify --st":           {"--staged\t"},
		"git-memcite completion ":           {"bash", "zsh", "fish"},
		"git-memcite verify ":               {"alpha", "topic/beta"},
		"git-memcite health --format ":      {"markdown"},
	} {
		cmd := exec.Command("fish", "--no-config", "-c", "source "+script+"; complete -C '"+line+"'")
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "PATH="+binary(t)+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("fish: %v\n%s", err, out)
		}
		for _, w := range want {
			if !strings.Contains(string(out), w) {
				t.Errorf("completions of %q lack %q:\n%s", line, w, out)
			}
		}
	}
}

// TestHelpQuotesAsTyped: no help text turns quotes typed in it (” or “)
// into typographic quotes, which a reader cannot copy into a shell.
func TestHelpQuotesAsTyped(t *testing.T) {
	bin := filepath.Join(binary(t), "git-memcite")
	cmds := modelOf(testModel(t)).Commands
	for _, c := range append(cmds, clidoc.Command{Name: ""}) {
		args := append(strings.Fields(c.Name), "--help")
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
		if strings.ContainsAny(string(out), "“”‘’") {
			t.Errorf("git-memcite %s: typographic quotes in the help:\n%s", strings.Join(args, " "), out)
		}
	}
}
