package render

import (
	"fmt"
	"strings"
)

// UnifiedDiff returns a unified diff of old and new (one hunk spanning all
// changes, three lines of context), labelled a/name and b/name; "" when
// they are equal. Edits to a memory file are few and close together, so
// one hunk between the common head and tail is enough. It is the one diff
// every --dry-run prints, and `git apply` accepts it: control characters
// inside lines are escaped for the terminal (Safe), line endings kept.
func UnifiedDiff(name string, old, new []byte) string {
	if string(old) == string(new) {
		return ""
	}
	a, b := diffLines(string(old)), diffLines(string(new))
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	const ctx = 3
	start := max(head-ctx, 0)
	endA := min(len(a)-tail+ctx, len(a))
	endB := min(len(b)-tail+ctx, len(b))
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- a/%s\n+++ b/%s\n", Safe(name), Safe(name))
	fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(start, endA-start), hunkRange(start, endB-start))
	for _, l := range a[start:head] {
		sb.WriteString(" " + safeLine(l))
	}
	for _, l := range a[head : len(a)-tail] {
		sb.WriteString("-" + safeLine(l))
	}
	for _, l := range b[head : len(b)-tail] {
		sb.WriteString("+" + safeLine(l))
	}
	for _, l := range a[len(a)-tail : endA] {
		sb.WriteString(" " + safeLine(l))
	}
	return sb.String()
}

// safeLine escapes control characters in a diff line, keeping carriage
// returns (CRLF and CR-only files), the line ending and git's no-newline
// marker as they are, so that the diff still applies.
func safeLine(l string) string {
	const noEOL = "\n\\ No newline at end of file\n"
	if body, ok := strings.CutSuffix(l, noEOL); ok {
		return safeCR(body) + noEOL
	}
	body := strings.TrimSuffix(l, "\n")
	return safeCR(body) + l[len(body):]
}

func safeCR(s string) string {
	parts := strings.Split(s, "\r")
	for i, p := range parts {
		parts[i] = Safe(p)
	}
	return strings.Join(parts, "\r")
}

// diffLines splits s after each LF, keeping the breaks; a last line
// without one gets git's marker.
func diffLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s+"\n\\ No newline at end of file\n")
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
