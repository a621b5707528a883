package render

import (
	"fmt"
	"io"

	"github.com/git-memcite/git-memcite/internal/cite"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// The notes, warnings and confirmations commands print on standard
// error beside their reports.

// ParseWarnings writes the parse warnings of the memories mems.
func ParseWarnings(w io.Writer, mems []*store.Memory) {
	for _, m := range mems {
		if m.File != nil {
			for _, d := range m.File.Warnings {
				fmt.Fprintf(w, "warning: %s\n", Safe(d.String()))
			}
		}
	}
}

// ReportWarnings writes the parse warnings of the memories of a report.
func ReportWarnings(w io.Writer, rep *verify.Report) {
	mems := make([]*store.Memory, 0, len(rep.Memories))
	for i := range rep.Memories {
		mems = append(mems, rep.Memories[i].Memory)
	}
	ParseWarnings(w, mems)
}

// Errors writes errors that did not stop a command (a memory name that
// resolves to nothing, a memory that cannot be parsed), one a line.
func Errors(w io.Writer, errs []error) {
	for _, err := range errs {
		fmt.Fprintf(w, "git-memcite: %s\n", Safe(err.Error()))
	}
}

// Recorded confirms verify --record: the commit recorded, in how many
// files, and the valid citations left out.
func Recorded(w io.Writer, commit string, files, skipped int) {
	fmt.Fprintf(w, "recorded commit %s in %d memory file(s)\n", commit[:min(7, len(commit))], files)
	if skipped > 0 {
		fmt.Fprintf(w, "%d valid citation(s) not recorded: their files have uncommitted changes\n", skipped)
	}
}

// AppendedNotes writes what add-citation has to say on the citation it
// adds: why no snippet was recorded, that it does not verify.
func AppendedNotes(w io.Writer, a *cite.Appended) {
	if a.Note != "" {
		fmt.Fprintf(w, "note: %s\n", Safe(a.Note))
	}
	if a.Reason != "" {
		fmt.Fprintf(w, "warning: added although it does not verify: %s\n", Safe(a.Reason))
	}
}

// Confidence describes update-confidence's recomputed value (r), and
// writes the stale citations that lowered it to errw.
func Confidence(errw io.Writer, r *verify.MemoryResult) string {
	if r.Total-r.ValidCount > 0 {
		for _, sc := range r.StaleCitations() {
			fmt.Fprintf(errw, "stale: %s: %s\n", Safe(sc.Citation.Location()), Safe(sc.Reason))
		}
	}
	if r.Total == 0 {
		return fmt.Sprintf("Confidence %.2f kept (no citations to verify)", r.Confidence)
	}
	return fmt.Sprintf("Confidence %.2f (%d/%d citations valid)", r.Confidence, r.ValidCount, r.Total)
}
