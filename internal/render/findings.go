package render

import (
	"io"

	"github.com/git-memcite/git-memcite/internal/findings"
)

// Tool names the program in machine-readable reports.
type Tool struct {
	Name    string
	Version string
	URI     string
}

// Findings writes a findings report in a format: json, github, sarif or
// gitlab. Text stays with the command's own human output.
func Findings(w io.Writer, format string, r *findings.Report, t Tool) error {
	switch format {
	case "json":
		return FindingsJSON(w, r, t)
	case "github":
		return GitHub(w, r)
	case "sarif":
		return SARIF(w, r, t)
	case "gitlab":
		return GitLab(w, r)
	}
	return &FormatError{Format: format}
}

// FormatError is an unknown output format.
type FormatError struct{ Format string }

func (e *FormatError) Error() string { return "unknown output format " + e.Format }
