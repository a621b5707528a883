package render

import (
	"io"

	"github.com/git-memcite/git-memcite/internal/findings"
)

// gitlabIssue is one entry of GitLab's code quality report (a subset of
// the Code Climate format): description, check_name, fingerprint,
// severity and location.path/lines.begin are what GitLab reads.
type gitlabIssue struct {
	Description string         `json:"description"`
	CheckName   string         `json:"check_name"`
	Fingerprint string         `json:"fingerprint"`
	Severity    string         `json:"severity"`
	Location    gitlabLocation `json:"location"`
}

type gitlabLocation struct {
	Path  string      `json:"path"`
	Lines gitlabLines `json:"lines"`
}

type gitlabLines struct {
	Begin int `json:"begin"`
}

// GitLab writes a GitLab code quality report (artifacts:reports:codequality).
func GitLab(w io.Writer, r *findings.Report) error {
	out := make([]gitlabIssue, 0, len(r.Findings))
	for _, f := range r.Findings {
		sev := map[findings.Level]string{findings.Error: "major", findings.Warning: "minor"}[f.Level]
		if sev == "" {
			sev = "info"
		}
		out = append(out, gitlabIssue{
			Description: f.Message, CheckName: f.RuleID, Fingerprint: f.Fingerprint, Severity: sev,
			Location: gitlabLocation{Path: f.MemoryFile, Lines: gitlabLines{Begin: max(f.MemoryLine, 1)}},
		})
	}
	return writeJSON(w, out)
}
