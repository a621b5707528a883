// Package findings is the output model shared by the commands that report
// problems (verify, verify-all; later relocate and health): a flat list of
// findings, each with a stable rule id, a level, the memory-file line it
// concerns and a fingerprint that stays the same across runs.
//
// Findings point at the line of the memory file where a citation is
// written, so that CI annotations land on the memory in a pull request's
// diff; the cited location is named in the message and kept in CitedPath
// and CitedLine.
package findings

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Level is how serious a finding is.
type Level int

// Levels, from most to least serious. Off drops a finding.
const (
	Off Level = iota
	Note
	Warning
	Error
)

var levelNames = [...]string{"off", "note", "warning", "error"}

func (l Level) String() string {
	if l < Off || l > Error {
		return "level(" + strconv.Itoa(int(l)) + ")"
	}
	return levelNames[l]
}

// ParseLevel reads error, warning, note or off (also none).
func ParseLevel(s string) (Level, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "error":
		return Error, nil
	case "warning", "warn":
		return Warning, nil
	case "note", "info":
		return Note, nil
	case "off", "none":
		return Off, nil
	}
	return Off, fmt.Errorf("unknown level %q (want error, warning, note or off)", s)
}

// MarshalText writes the level's name.
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// UnmarshalText reads a level's name.
func (l *Level) UnmarshalText(b []byte) error {
	v, err := ParseLevel(string(b))
	*l = v
	return err
}

// Finding is one problem.
type Finding struct {
	RuleID       string // stable, e.g. memcite/snippet-mismatch
	Level        Level
	MemoryID     string
	MemoryFile   string // repo-relative path of the memory file
	MemoryLine   int    // line of the memory file (the citation's line); 0 when unknown
	CitedPath    string // the cited file, as written; empty when not about a citation
	CitedLine    int    // first cited line; 0 for a whole-file citation
	CitedEndLine int    // last cited line of a range; 0 otherwise
	Message      string // one line: what is wrong, naming the cited location
	Fingerprint  string // stable across runs: see Fingerprint
}

// CitedLocation renders the cited location as path, path:17 or path:17-28.
func (f *Finding) CitedLocation() string {
	switch {
	case f.CitedPath == "" || f.CitedLine == 0:
		return f.CitedPath
	case f.CitedEndLine > f.CitedLine:
		return fmt.Sprintf("%s:%d-%d", f.CitedPath, f.CitedLine, f.CitedEndLine)
	}
	return fmt.Sprintf("%s:%d", f.CitedPath, f.CitedLine)
}

// Fingerprint hashes what identifies a finding without the memory-file
// line numbers, which move whenever the memory is edited above it: the
// rule, the memory file and a key naming the citation (its path, cited
// lines and snippet), or the message for findings not about a citation.
func Fingerprint(ruleID, memoryFile, key string) string {
	h := sha256.New()
	for _, s := range []string{"memcite/v1", ruleID, memoryFile, key} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// Summary counts what was checked and found.
type Summary struct {
	Memories   int     `json:"memories"`
	Citations  int     `json:"citations"`
	Errors     int     `json:"errors"`
	Warnings   int     `json:"warnings"`
	Notes      int     `json:"notes"`
	Baselined  int     `json:"baselined"`
	DurationMS float64 `json:"durationMs"`
}

// Report is the findings of one run.
type Report struct {
	Command  string // the command that ran, e.g. verify-all
	Source   string // what was checked: working tree, index, commit …
	Findings []Finding
	Summary  Summary
}

// Count recomputes the level counts of the summary from the findings.
func (r *Report) Count() {
	r.Summary.Errors, r.Summary.Warnings, r.Summary.Notes = 0, 0, 0
	for _, f := range r.Findings {
		switch f.Level {
		case Error:
			r.Summary.Errors++
		case Warning:
			r.Summary.Warnings++
		case Note:
			r.Summary.Notes++
		}
	}
}

// Sort orders findings most relevant first: by level (errors first), then
// by memory file and line, then by rule.
func Sort(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(b.Level, a.Level),
			cmp.Compare(a.MemoryFile, b.MemoryFile),
			cmp.Compare(a.MemoryLine, b.MemoryLine),
			cmp.Compare(a.RuleID, b.RuleID),
			cmp.Compare(a.Fingerprint, b.Fingerprint),
		)
	})
}

// SortChangedFirst orders findings like Sort, except that within a level
// those about a changed file (the memory or the cited file, e.g. files in
// the pull request's diff) come first.
func SortChangedFirst(fs []Finding, changed map[string]bool) {
	Sort(fs)
	if len(changed) == 0 {
		return
	}
	rank := func(f Finding) int {
		if changed[f.MemoryFile] || (f.CitedPath != "" && changed[f.CitedPath]) {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(b.Level, a.Level), cmp.Compare(rank(a), rank(b)))
	})
}

// Severities overrides the level of rules: keys are rule ids with or
// without the "memcite/" prefix. A rule set to Off is dropped. The result
// reuses fs's array.
func Severities(fs []Finding, levels map[string]Level) []Finding {
	if len(levels) == 0 {
		return fs
	}
	out := fs[:0]
	for _, f := range fs {
		l, ok := levels[f.RuleID]
		if !ok {
			l, ok = levels[strings.TrimPrefix(f.RuleID, RulePrefix)]
		}
		if ok {
			f.Level = l
		}
		if f.Level != Off {
			out = append(out, f)
		}
	}
	return out
}

// AtLeast reports whether any finding has at least level min (Off: never).
func AtLeast(fs []Finding, min Level) bool {
	if min == Off {
		return false
	}
	for _, f := range fs {
		if f.Level >= min {
			return true
		}
	}
	return false
}
