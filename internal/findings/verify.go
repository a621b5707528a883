package findings

import (
	"errors"
	"strconv"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// FromVerify turns a verification report into findings: one per stale
// citation, one per memory that could not be read, one per parse warning.
func FromVerify(command string, rep *verify.Report) *Report {
	s := rep.Summary()
	out := &Report{Command: command, Source: rep.Source, Findings: []Finding{}}
	out.Summary.Memories = s.Memories
	out.Summary.Citations = s.Citations
	out.Summary.DurationMS = float64(rep.Elapsed.Microseconds()) / 1000
	for i := range rep.Memories {
		m := &rep.Memories[i]
		if err := m.Err(); err != nil {
			f := Finding{RuleID: RuleMalformedMemory, Level: Error, MemoryID: m.Memory.ID, MemoryFile: m.Memory.Path}
			var pe *memfile.ParseError
			if errors.As(err, &pe) {
				f.MemoryLine, f.Message = pe.Line, "memory cannot be parsed: "+pe.Msg
			} else {
				f.Message = "memory cannot be read: " + err.Error()
			}
			f.Fingerprint = Fingerprint(f.RuleID, f.MemoryFile, f.Message)
			out.Findings = append(out.Findings, f)
			continue
		}
		if m.Memory.File != nil {
			for _, d := range m.Memory.File.Warnings {
				f := Finding{RuleID: RuleMemoryWarning, Level: Warning, MemoryID: m.Memory.ID,
					MemoryFile: m.Memory.Path, MemoryLine: d.Line, Message: d.Msg}
				f.Fingerprint = Fingerprint(f.RuleID, f.MemoryFile, d.Msg)
				out.Findings = append(out.Findings, f)
			}
		}
		prints := fingerprints(m)
		for i, c := range m.Citations {
			if c.Status != verify.Stale {
				continue
			}
			rule := RuleFor(c.Kind)
			if c.Prose != nil {
				rule = ProseRuleFor(c.Kind, c.Prose)
			}
			f := Finding{
				RuleID: rule, Level: Error, MemoryID: m.Memory.ID, MemoryFile: m.Memory.Path,
				MemoryLine: c.Citation.SrcLine, CitedPath: c.Citation.Path,
				Message: "stale citation of " + c.Citation.Location() + ": " + c.SharedReason(),
			}
			if c.Citation.HasLine && c.Citation.Line > 0 {
				f.CitedLine = c.Citation.Line
				if c.Citation.LineEnd > c.Citation.Line {
					f.CitedEndLine = c.Citation.LineEnd
				}
			}
			f.Fingerprint = prints[i]
			out.Findings = append(out.Findings, f)
		}
	}
	Sort(out.Findings)
	out.Count()
	return out
}

// fingerprints returns the fingerprint of each stale citation of m, by
// index in m.Citations ("" for the others).
func fingerprints(m *verify.MemoryResult) []string {
	out := make([]string, len(m.Citations))
	var seen map[string]int // made for the first stale citation
	for i, c := range m.Citations {
		if c.Status != verify.Stale {
			continue
		}
		if seen == nil {
			seen = map[string]int{}
		}
		key := citationKey(c.Citation)
		seen[key]++
		if n := seen[key]; n > 1 { // the same citation twice in one memory
			key += "\x00" + strconv.Itoa(n)
		}
		rule := RuleFor(c.Kind)
		if c.Prose != nil {
			rule = ProseRuleFor(c.Kind, c.Prose)
		}
		out[i] = Fingerprint(rule, m.Memory.Path, key)
	}
	return out
}

// MarkKnown marks the stale citations of rep that the baseline lists
// (verify.CitationResult.Known), so that text output leaves them out as
// the findings formats do.
func MarkKnown(rep *verify.Report, b Baseline) {
	if len(b) == 0 {
		return
	}
	for i := range rep.Memories {
		m := &rep.Memories[i]
		for j, fp := range fingerprints(m) {
			if fp != "" && b[fp] {
				m.Citations[j].Known = true
			}
		}
	}
}

// citationKey identifies a citation within its memory, without the line of
// the memory where it is written.
func citationKey(c *memfile.Citation) string {
	k := c.Location()
	if c.HasSnippet {
		k += "\x00" + c.Snippet
	}
	return k
}

// RuleFor returns the rule id of a stale citation's kind. Rule ids never
// change: kinds added later map to an existing rule or to a new one.
func RuleFor(kind verify.Kind) string {
	switch kind {
	case verify.KindNotFound, verify.KindEmptyPath, verify.KindNotAFile:
		return RuleFileNotFound
	case verify.KindPathTraversal:
		return RulePathTraversal
	case verify.KindPastEOF, verify.KindInvalidLine, verify.KindInvalidRange:
		return RuleLineOutOfRange
	case verify.KindSnippetMismatch:
		return RuleSnippetMismatch
	case verify.KindMoved:
		return RuleLinesMoved
	case verify.KindEdited:
		return RuleLinesEdited
	case verify.KindDeleted:
		return RuleLinesDeleted
	case verify.KindNotRegular, verify.KindSymlinkLoop, verify.KindIgnored, verify.KindUnreadable,
		verify.KindBinary, verify.KindLFSPointer, verify.KindInvalidUTF8:
		return RuleUnreadable
	}
	return RuleStaleUnspecified
}
