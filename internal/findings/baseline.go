package findings

import (
	"encoding/json"
	"fmt"
	"io"
)

// Baseline is a set of known findings, read from a JSON report written
// with --format json (gitleaks' --baseline-path): findings whose
// fingerprint it holds do not fail a run.
type Baseline map[string]bool

// ReadBaseline reads the fingerprints of a JSON report.
func ReadBaseline(r io.Reader) (Baseline, error) {
	var doc struct {
		SchemaVersion int `json:"schemaVersion"`
		Findings      []struct {
			Fingerprint string `json:"fingerprint"`
		} `json:"findings"`
	}
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return nil, fmt.Errorf("read baseline: %w", err)
	}
	if doc.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("read baseline: schemaVersion %d, want %d (write it with --format json)", doc.SchemaVersion, SchemaVersion)
	}
	b := Baseline{}
	for _, f := range doc.Findings {
		if f.Fingerprint != "" {
			b[f.Fingerprint] = true
		}
	}
	return b, nil
}

// Filter removes the findings the baseline knows and counts them in the
// summary.
func (b Baseline) Filter(r *Report) {
	if len(b) == 0 {
		return
	}
	out := r.Findings[:0]
	for _, f := range r.Findings {
		if b[f.Fingerprint] {
			r.Summary.Baselined++
			continue
		}
		out = append(out, f)
	}
	r.Findings = out
	r.Count()
}

// SchemaVersion is the version of the JSON report's shape.
const SchemaVersion = 1
