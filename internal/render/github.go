package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/git-memcite/git-memcite/internal/findings"
)

// GitHubLimit is how many annotations of each level GitHub shows per step;
// more are dropped silently (actions/toolkit docs/problem-matchers.md).
const GitHubLimit = 10

// GitHub writes workflow commands that GitHub Actions turns into
// annotations on the memory-file lines:
//
//	::error file=.serena/memories/a.md,line=7,endLine=7,title=memcite/snippet-mismatch::stale citation of …
//
// Findings come most relevant first; past GitHubLimit errors (warnings;
// notices, one fewer for the closing one) the rest are printed as plain log
// lines, followed by a notice with the totals.
func GitHub(w io.Writer, r *findings.Report) error {
	var b strings.Builder
	shown := map[findings.Level]int{}
	var rest []findings.Finding
	for _, f := range r.Findings {
		limit := GitHubLimit
		if f.Level < findings.Warning {
			limit-- // notices share the limit with the closing summary notice
		}
		if shown[f.Level] >= limit {
			rest = append(rest, f)
			continue
		}
		shown[f.Level]++
		b.WriteString(GitHubCommand(f))
		b.WriteByte('\n')
	}
	if len(rest) > 0 {
		fmt.Fprintf(&b, "%d more finding(s) beyond GitHub's %d annotations per level and step:\n", len(rest), GitHubLimit)
		for _, f := range rest {
			fmt.Fprintf(&b, "  %s [%s] %s\n", Safe(location(f)), f.Level, Safe(f.Message))
		}
	}
	s := r.Summary
	msg := fmt.Sprintf("%d error(s), %d warning(s), %d note(s) in %s (%s checked against the %s)",
		s.Errors, s.Warnings, s.Notes, count(s.Memories, "memory", "memories"), count(s.Citations, "citation", "citations"), r.Source)
	if s.Baselined > 0 {
		msg += fmt.Sprintf("; %d known finding(s) in the baseline", s.Baselined)
	}
	if len(rest) > 0 {
		msg += fmt.Sprintf("; %d not shown as annotations (see the log or the step summary)", len(rest))
	}
	fmt.Fprintf(&b, "::notice title=%s::%s\n", EscapeProperty("git-memcite "+r.Command), EscapeData(msg))
	_, err := io.WriteString(w, b.String())
	return err
}

// GitHubCommand is the workflow command for one finding.
func GitHubCommand(f findings.Finding) string {
	cmd := map[findings.Level]string{findings.Error: "error", findings.Warning: "warning"}[f.Level]
	if cmd == "" {
		cmd = "notice"
	}
	var props []string
	props = append(props, "file="+EscapeProperty(f.MemoryFile))
	if f.MemoryLine > 0 {
		l := fmt.Sprint(f.MemoryLine)
		props = append(props, "line="+l, "endLine="+l)
	}
	props = append(props, "title="+EscapeProperty(f.RuleID))
	// Line breaks are kept (GitHub shows them); other control characters
	// must not reach the log viewer.
	lines := strings.Split(f.Message, "\n")
	for i, l := range lines {
		lines[i] = Safe(l)
	}
	return "::" + cmd + " " + strings.Join(props, ",") + "::" + EscapeData(strings.Join(lines, "\n"))
}

// EscapeData escapes a workflow command's message as actions/toolkit's
// escapeData does: % CR LF.
func EscapeData(s string) string { return dataEscaper.Replace(s) }

// The escapers are built once: a strings.Replacer builds its tables on
// first use, which costs more than most of the strings it escapes.
var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	cellEscaper     = strings.NewReplacer("|", `\|`, "\r", " ", "\n", " ", "<", "&lt;", ">", "&gt;", "&", "&amp;", "`", "'")
	codeEscaper     = strings.NewReplacer("|", `\|`, "\r", " ", "\n", " ", "`", "'")
)

// EscapeProperty escapes a workflow command's property value as
// actions/toolkit's escapeProperty does: % CR LF : ,
func EscapeProperty(s string) string { return propertyEscaper.Replace(s) }

func location(f findings.Finding) string {
	if f.MemoryLine > 0 {
		return fmt.Sprintf("%s:%d", f.MemoryFile, f.MemoryLine)
	}
	return f.MemoryFile
}

// StepSummary writes the findings as a markdown table for
// $GITHUB_STEP_SUMMARY: every finding, not only those annotated.
func StepSummary(w io.Writer, r *findings.Report) error {
	var b strings.Builder
	s := r.Summary
	fmt.Fprintf(&b, "### git-memcite %s\n\n", mdCell(r.Command))
	fmt.Fprintf(&b, "%d error(s), %d warning(s), %d note(s) in %s; %s checked against the %s.",
		s.Errors, s.Warnings, s.Notes, count(s.Memories, "memory", "memories"), count(s.Citations, "citation", "citations"), mdCell(r.Source))
	if s.Baselined > 0 {
		fmt.Fprintf(&b, " %d known finding(s) in the baseline.", s.Baselined)
	}
	b.WriteString("\n\n")
	if len(r.Findings) > 0 {
		b.WriteString("| Level | Memory | Cites | Rule | Message |\n| --- | --- | --- | --- | --- |\n")
		for _, f := range r.Findings {
			fmt.Fprintf(&b, "| %s | `%s` | `%s` | %s | %s |\n", f.Level, mdCode(location(f)), mdCode(f.CitedLocation()), f.RuleID, mdCell(f.Message))
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdCell makes text safe in a markdown table cell: no line breaks, no
// pipes, no HTML.
func mdCell(s string) string { return cellEscaper.Replace(Safe(s)) }

// mdCode makes text safe inside a backtick code span in a table cell.
func mdCode(s string) string { return codeEscaper.Replace(Safe(s)) }
