package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

// enumFlag is a flag with a fixed set of values, in kong's model (what
// --help and the parser use), and the top-level command it belongs to
// ("" for a global flag).
type enumFlag struct {
	cmd, flag string
	values    []string
}

// enumFlags walks kong's model: every flag with a fixed set of values
// (flagValues) of every visible command.
func enumFlags(app *kong.Application) []enumFlag {
	var out []enumFlag
	for _, f := range app.Node.Flags {
		if vs := flagValues(f); len(vs) > 0 && !f.Hidden {
			out = append(out, enumFlag{"", f.Name, vs})
		}
	}
	for _, c := range app.Node.Children {
		if c.Hidden || c.Type != kong.CommandNode {
			continue
		}
		flags := c.Flags
		if c.DefaultCmd != nil {
			flags = append(flags, c.DefaultCmd.Flags...)
		}
		for _, f := range flags {
			if vs := flagValues(f); len(vs) > 0 && !f.Hidden {
				out = append(out, enumFlag{c.Name, f.Name, vs})
			}
		}
	}
	return out
}

// TestCompletionEveryEnumFlag: for every enum flag of every command, the
// shell completions offer every value the parser accepts, as the next
// word (--format VALUE) and after "=" (--format=VALUE).
func TestCompletionEveryEnumFlag(t *testing.T) {
	app := testModel(t)
	flags := enumFlags(app)
	if len(flags) < 5 {
		t.Fatalf("only %d enum flags found: %v", len(flags), flags)
	}
	found := map[string]bool{}
	for _, f := range flags {
		found[f.cmd+" --"+f.flag] = true
	}
	for _, want := range []string{"health --format", "install --agent", "verify-all --format", " --color"} {
		if !found[want] {
			t.Errorf("the walk missed %q", want)
		}
	}

	t.Run("bash", func(t *testing.T) {
		if _, err := exec.LookPath("bash"); err != nil {
			t.Skip("no bash")
		}
		var b bytes.Buffer
		if err := writeCompletion(&b, "bash", app); err != nil {
			t.Fatal(err)
		}
		script := filepath.Join(t.TempDir(), "git-memcite")
		if err := os.WriteFile(script, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		// one shell, one completion per line asked, separated by markers
		var sb strings.Builder
		var lines []string
		sb.WriteString("source " + script + "\n")
		ask := func(words []string) {
			line := strings.Join(words, " ")
			lines = append(lines, line)
			sb.WriteString("COMP_WORDS=(")
			for _, w := range words {
				sb.WriteString("'" + w + "' ")
			}
			sb.WriteString(")\nCOMP_CWORD=" + strconv.Itoa(len(words)-1) + "\nCOMPREPLY=()\n_git_memcite_standalone\n")
			sb.WriteString(`printf '%s\n' "${COMPREPLY[@]}"; echo @@` + "\n")
		}
		for _, f := range flags {
			words := []string{"git-memcite"}
			if f.cmd != "" {
				words = append(words, f.cmd)
			}
			ask(append(append([]string{}, words...), "--"+f.flag, ""))
			ask(append(append([]string{}, words...), "--"+f.flag+"="))
		}
		cmd := exec.Command("bash", "--norc", "--noprofile")
		cmd.Stdin = strings.NewReader(sb.String())
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v\n%s", err, out)
		}
		answers := strings.Split(string(out), "@@\n")
		for i, line := range lines {
			f := flags[i/2]
			got := ""
			if i < len(answers) {
				got = answers[i]
			}
			for _, v := range f.values {
				if !strings.Contains("\n"+got, "\n"+v) {
					t.Errorf("completions of %q lack %q:\n%s", line, v, got)
				}
			}
		}
	})

	t.Run("zsh and fish scripts", func(t *testing.T) {
		for _, sh := range []string{"zsh", "fish"} {
			var b bytes.Buffer
			if err := writeCompletion(&b, sh, app); err != nil {
				t.Fatal(err)
			}
			for _, f := range flags {
				want := "(" + strings.Join(f.values, " ") + ")" // zsh: --flag=[help]:place:(values)
				if sh == "fish" {
					want = "-l " + f.flag + " -r -f -a '" + strings.Join(f.values, " ") + "'"
				}
				if !strings.Contains(b.String(), want) {
					t.Errorf("%s: no completion of the values of %s --%s (%s)", sh, f.cmd, f.flag, want)
				}
			}
		}
	})
}
