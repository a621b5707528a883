package render

import (
	"fmt"
	"strings"
)

// UnifiedDiff returns a unified diff of old and new (three lines of
// context, a hunk per group of changes), labelled a/name and b/name; ""
// when they are equal. Only changed lines are shown as removed and added:
// a line both sides share (an unchanged snippet: between two edited
// lines of a citation) is context. It is the one diff every --dry-run
// prints, and `git apply` accepts it: control characters inside lines are
// escaped for the terminal (Safe), line endings kept.
func UnifiedDiff(name string, old, new []byte) string {
	if string(old) == string(new) {
		return ""
	}
	a, b := diffLines(string(old)), diffLines(string(new))
	ops := lineOps(a, b)
	const ctx = 3
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- a/%s\n+++ b/%s\n", Safe(name), Safe(name))
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// a hunk: from ctx lines before this change to ctx lines after the
		// last change that is at most 2*ctx unchanged lines from the next
		first := max(i-ctx, 0)
		for first < i && ops[first].kind != ' ' {
			first++
		}
		last := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				last = j
				continue
			}
			if j-last > 2*ctx {
				break
			}
		}
		stop := min(last+ctx+1, len(ops))
		ha, hb := 0, 0
		for _, o := range ops[first:stop] {
			if o.kind != '+' {
				ha++
			}
			if o.kind != '-' {
				hb++
			}
		}
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(ops[first].a, ha), hunkRange(ops[first].b, hb))
		for _, o := range ops[first:stop] {
			sb.WriteString(string(o.kind) + safeLine(o.line))
		}
		i = stop
	}
	return sb.String()
}

// lineOp is one line of a diff: ' ' both sides, '-' only old, '+' only
// new; a and b are how many lines of old and new come before it.
type lineOp struct {
	kind byte
	line string
	a, b int
}

// lineOps aligns a and b on a longest common subsequence of their lines
// (the common head and tail first; what is between is small for memory
// files, and past a bound it is all changed, as a whole block).
func lineOps(a, b []string) []lineOp {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	var ops []lineOp
	add := func(kind byte, line string, i, j int) { ops = append(ops, lineOp{kind, line, i, j}) }
	for i := range head {
		add(' ', a[i], i, i)
	}
	ma, mb := a[head:len(a)-tail], b[head:len(b)-tail]
	if len(ma)*len(mb) > 1<<22 {
		for i, l := range ma {
			add('-', l, head+i, head)
		}
		for j, l := range mb {
			add('+', l, head+len(ma), head+j)
		}
	} else {
		// lcs[i][j]: the longest common subsequence of ma[i:] and mb[j:]
		lcs := make([][]int, len(ma)+1)
		for i := range lcs {
			lcs[i] = make([]int, len(mb)+1)
		}
		for i := len(ma) - 1; i >= 0; i-- {
			for j := len(mb) - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(ma) || j < len(mb) {
			switch {
			case i < len(ma) && j < len(mb) && ma[i] == mb[j]:
				add(' ', ma[i], head+i, head+j)
				i, j = i+1, j+1
			case j < len(mb) && (i == len(ma) || lcs[i][j+1] > lcs[i+1][j]):
				add('+', mb[j], head+i, head+j)
				j++
			default:
				add('-', ma[i], head+i, head+j)
				i++
			}
		}
	}
	for k := range tail {
		i, j := len(a)-tail+k, len(b)-tail+k
		add(' ', a[i], i, j)
	}
	return ops
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
