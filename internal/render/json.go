package render

import (
	"io"

	"github.com/git-memcite/git-memcite/internal/findings"
)

// The JSON report (schemaVersion 1): a versioned envelope, so that fields
// can be added without breaking readers. Field names never change within a
// schemaVersion.
type jsonReport struct {
	SchemaVersion int              `json:"schemaVersion"`
	Tool          jsonTool         `json:"tool"`
	Command       string           `json:"command"`
	Source        string           `json:"source"`
	Findings      []jsonFinding    `json:"findings"`
	Summary       findings.Summary `json:"summary"`
}

type jsonTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type jsonFinding struct {
	RuleID      string         `json:"ruleId"`
	Level       findings.Level `json:"level"`
	MemoryID    string         `json:"memoryId,omitempty"`
	File        string         `json:"file"`
	Line        int            `json:"line,omitempty"`
	Citation    *jsonCitation  `json:"citation,omitempty"`
	Message     string         `json:"message"`
	Fingerprint string         `json:"fingerprint"`
}

type jsonCitation struct {
	Path      string `json:"path"`
	StartLine int    `json:"startLine,omitempty"`
	EndLine   int    `json:"endLine,omitempty"`
}

// FindingsJSON writes the JSON report.
func FindingsJSON(w io.Writer, r *findings.Report, t Tool) error {
	doc := jsonReport{
		SchemaVersion: findings.SchemaVersion,
		Tool:          jsonTool{t.Name, t.Version},
		Command:       r.Command,
		Source:        r.Source,
		Findings:      make([]jsonFinding, 0, len(r.Findings)),
		Summary:       r.Summary,
	}
	for _, f := range r.Findings {
		j := jsonFinding{RuleID: f.RuleID, Level: f.Level, MemoryID: f.MemoryID, File: f.MemoryFile,
			Line: f.MemoryLine, Message: f.Message, Fingerprint: f.Fingerprint}
		if f.CitedPath != "" {
			j.Citation = &jsonCitation{f.CitedPath, f.CitedLine, f.CitedEndLine}
		}
		doc.Findings = append(doc.Findings, j)
	}
	return writeJSON(w, doc)
}
