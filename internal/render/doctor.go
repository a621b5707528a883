package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/git-memcite/git-memcite/internal/doctor"
)

// DoctorText writes one line per finding, its detail indented below, and
// a closing verdict.
func DoctorText(w io.Writer, r *doctor.Report, st Style) error {
	var b strings.Builder
	for _, f := range r.Findings {
		tag := "[" + strings.ToUpper(f.Level.String()) + "]"
		switch f.Level {
		case doctor.OK:
			tag = st.Green(tag)
		case doctor.Warn:
			tag = st.Yellow(tag)
		case doctor.Fail:
			tag = st.Red(tag)
		}
		fmt.Fprintf(&b, "%-6s %s: %s\n", tag, f.Check, Safe(f.Msg))
		for _, d := range f.Detail {
			if d == "" {
				b.WriteString("\n")
				continue
			}
			fmt.Fprintf(&b, "         %s\n", Safe(d))
		}
	}
	if n := r.Problems(); n > 0 {
		fmt.Fprintf(&b, "\n%d problem(s) found.\n", n)
	} else {
		b.WriteString("\nNo problems found.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// DoctorReport writes doctor's text report; quiet (-q) shows only
// warnings and failures, and nothing when there is no problem.
func DoctorReport(w io.Writer, r *doctor.Report, st Style, quiet bool) error {
	if !quiet {
		return DoctorText(w, r, st)
	}
	if r.Problems() == 0 {
		return nil
	}
	shown := *r
	shown.Findings = nil
	for _, f := range r.Findings {
		if f.Level >= doctor.Warn {
			shown.Findings = append(shown.Findings, f)
		}
	}
	return DoctorText(w, &shown, st)
}
