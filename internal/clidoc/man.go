package clidoc

import (
	"fmt"
	"io"
	"strings"

	"github.com/git-memcite/git-memcite/internal/config"
	"github.com/git-memcite/git-memcite/internal/findings"
)

// Man writes git-memcite.1 in roff (man(7) macros): version goes in the
// title line; a command's detail equal to skipDetail (the exit table every
// command shares) is left out.
func Man(w io.Writer, m Model, version, skipDetail string) error {
	globals, cmds := m.Globals, m.Commands
	var b strings.Builder
	fmt.Fprintf(&b, ".TH GIT\\-MEMCITE 1 \"\" \"git-memcite %s\" \"git-memcite Manual\"\n", Roff(version))
	b.WriteString(".SH NAME\ngit\\-memcite \\- verify the code citations of AI\\-agent memory files\n")
	b.WriteString(".SH SYNOPSIS\n.B git memcite\n[\\fIglobal flags\\fR] \\fIcommand\\fR [\\fIflags\\fR] [\\fIarguments\\fR]\n.br\n.B git memcite help\n[\\fIcommand\\fR]\n")
	b.WriteString(".SH DESCRIPTION\n")
	b.WriteString(para("git-memcite checks the code citations kept in the frontmatter of AI-agent memory files " +
		"(markdown under .serena/memories by default) against the working tree, the index (--staged) or a commit (--rev): " +
		"each cited file must exist, each cited line must exist, and each snippet must still be on its line."))
	b.WriteString(para("Installed on PATH as git-memcite, it runs as git memcite. " +
		"git memcite -h and git memcite help COMMAND print the built-in help; git memcite --help opens this page."))
	b.WriteString(".SH GLOBAL FLAGS\n")
	writeFlags(&b, globals)
	manCommands(&b, cmds, skipDetail)
	b.WriteString(".SH OUTPUT FORMATS\n")
	b.WriteString(para("--format text (the default) prints a human report; json prints a versioned findings report " +
		"(schemaVersion, tool, source, findings with ruleId, level, file, line, citation, message and fingerprint, summary); " +
		"github prints workflow commands that become annotations on the memory lines (at most 10 errors and 10 warnings are annotated, " +
		"the rest is listed, and $GITHUB_STEP_SUMMARY gets a table of all); sarif prints SARIF 2.1.0 for code scanning; " +
		"gitlab prints a GitLab code quality report. --json keeps the older per-memory JSON."))
	b.WriteString(".SS Rules\n")
	for _, r := range findings.Rules {
		fmt.Fprintf(&b, ".TP\n.B %s\n%s (default level: %s). %s\n", Roff(r.ID), Roff(r.Full), r.Level, Roff(r.Help))
	}
	manConfiguration(&b)
	b.WriteString(".SH ENVIRONMENT\n")
	for _, e := range [][2]string{
		{"MEMCITE_DEBUG", "When set (and not 0), trace what git-memcite reads and runs to standard error."},
		{"MEMCITE_CONFIG", "A team configuration file to read instead of .memcite.yaml."},
		{"MEMCITE_CACHE", "off, 0, false or no: neither use nor update the verification cache (as --no-cache)."},
		{"MEMCITE_BACKEND", "git: read the index, HEAD and revisions with git's commands instead of in-process (a debugging switch; objects and history are read through git either way)."},
		{"NO_COLOR", "When set, no colour (unless --color always)."},
		{"GITHUB_STEP_SUMMARY", "With --format github, the file the markdown table of all findings is appended to."},
	} {
		fmt.Fprintf(&b, ".TP\n.B %s\n%s\n", e[0], Roff(e[1]))
	}
	b.WriteString(".SH EXIT STATUS\n")
	for _, e := range [][2]string{
		{"0", "All citations valid, or no finding at or above the fail-on level."},
		{"1", "Stale citations found (findings at or above the fail-on level that the baseline does not list)."},
		{"2", "Error: bad arguments, not a repository, an unreadable or malformed memory file (the other memories are still checked)."},
		{"130", "Interrupted."},
	} {
		fmt.Fprintf(&b, ".TP\n.B %s\n%s\n", e[0], Roff(e[1]))
	}
	b.WriteString(".SH SEE ALSO\n.BR git (1),\n.BR git\\-config (1)\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func writeFlags(b *strings.Builder, fs []Flag) {
	for _, f := range fs {
		b.WriteString(".TP\n")
		if f.Short != 0 {
			fmt.Fprintf(b, "\\fB\\-%c\\fR, ", f.Short)
		}
		fmt.Fprintf(b, "\\fB\\-\\-%s\\fR", Roff(f.Name))
		if !f.Bool {
			fmt.Fprintf(b, " \\fI%s\\fR", Roff(f.Place))
		}
		fmt.Fprintf(b, "\n%s\n", Roff(f.Help))
	}
}

func para(s string) string { return ".PP\n" + Roff(s) + "\n" }

// Roff escapes text for a roff line: backslashes, hyphens (so they stay
// ASCII hyphen-minus, which matters for flags people copy), and a leading
// dot or quote that would read as a request.
func Roff(s string) string {
	// quotes as typed (groff would print ' and ` as typographic quotes)
	s = strings.NewReplacer(`\`, `\e`, "-", `\-`, "\n", " ", "'", `\(aq`, "`", `\(ga`).Replace(s)
	if strings.HasPrefix(s, ".") {
		s = `\&` + s
	}
	return s
}

func roffQuoted(s string) string { return strings.ReplaceAll(Roff(s), `"`, `\(dq`) }

// manCommands writes the COMMANDS section: each command, its arguments
// and flags.
func manCommands(b *strings.Builder, cmds []Command, skipDetail string) {
	b.WriteString(".SH COMMANDS\n")
	for _, c := range cmds {
		fmt.Fprintf(b, ".SS \"git memcite %s\"\n", roffQuoted(strings.TrimSpace(c.Name+" "+c.Usage)))
		b.WriteString(para(c.Help))
		if c.Detail != "" && c.Detail != skipDetail {
			b.WriteString(para(c.Detail))
		}
		for _, a := range c.Args {
			fmt.Fprintf(b, ".TP\n.I %s\n%s\n", Roff(a.Name), Roff(a.Help))
		}
		writeFlags(b, c.Flags)
	}
}

// manConfiguration writes the CONFIGURATION section: every setting and
// where it is set.
func manConfiguration(b *strings.Builder) {
	b.WriteString(".SH CONFIGURATION\n")
	b.WriteString(para("Each setting comes from the first of: a flag, a MEMCITE_* environment variable, git config memcite.* " +
		"(personal), the committed .memcite.yaml at the repository root or the file MEMCITE_CONFIG names (team), the default. " +
		"git memcite config prints the effective values and their origins. .memcite.yaml also sets the level of each rule " +
		"under severity: (error, warning, note or off)."))
	for _, k := range config.Keys {
		var where []string
		if k.Flag != "" {
			where = append(where, k.Flag)
		}
		if k.Env != "" {
			where = append(where, k.Env)
		}
		if k.Git != "" {
			where = append(where, k.Git)
		}
		if k.Hook {
			where = append(where, "git config only (read as git reads its values; a value not understood is a warning and the default)")
		} else {
			where = append(where, strings.ReplaceAll(k.Name, "-", "_")+": in .memcite.yaml")
		}
		def := strings.Join(k.Default, ", ")
		if def == "" {
			def = "none"
		}
		fmt.Fprintf(b, ".TP\n.B %s\n%s. Set by %s. Default: %s.\n", Roff(k.Name), Roff(k.Help), Roff(strings.Join(where, ", ")), Roff(def))
	}
}
