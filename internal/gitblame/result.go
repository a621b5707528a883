package gitblame

import "fmt"

// Status classifies where a citation went.
type Status int

// Citation outcomes.
const (
	// Unchanged: same path, same lines, same text.
	Unchanged Status = iota + 1
	// Moved: the same text (up to line endings) at another path or line.
	Moved
	// Changed: the lines were edited (or only part of a range survived);
	// Location is where they are now and Similarity says how much of the
	// original text is left. Reindentation is Changed with Similarity 1.
	Changed
	// Ambiguous: the evidence points to several places; Candidates lists
	// them and Location is empty.
	Ambiguous
	// Gone: the lines were deleted (or the file was, with no rename or move
	// found). GoneIn and LastSeen say when.
	Gone
)

var statusNames = [...]string{"", "unchanged", "moved", "changed", "ambiguous", "gone"}

// String returns the lower-case name of s.
func (s Status) String() string {
	if s < Unchanged || s > Gone {
		return fmt.Sprintf("Status(%d)", int(s))
	}
	return statusNames[s]
}

// MarshalText makes Status render as its name in JSON.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Route says how the tracker got from the base to the target.
type Route int

// Routes.
const (
	// RouteStepwise replays every first-parent commit from base to target.
	RouteStepwise Route = iota + 1
	// RouteOneShot diffs base against target directly: the target does not
	// descend from the base along first parents (rebase, force-push, a side
	// branch), so renames made in intermediate steps may be missed.
	RouteOneShot
	// RouteContentSearch found the base commit missing (shallow clone,
	// unfetched or garbage-collected commit) and searched the target for
	// the cited text instead; there is no history evidence.
	RouteContentSearch
)

var routeNames = [...]string{"", "stepwise", "one-shot", "content-search"}

// String returns the name of r.
func (r Route) String() string {
	if r < RouteStepwise || r > RouteContentSearch {
		return fmt.Sprintf("Route(%d)", int(r))
	}
	return routeNames[r]
}

// MarshalText makes Route render as its name in JSON.
func (r Route) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// Location is a line range in a version of the repository. Lines are
// 1-based and inclusive.
type Location struct {
	Path    string
	Line    int
	LineEnd int
	// Score is the match score of a candidate (1 for exact lineage).
	Score float64 `json:",omitempty"`
}

// EventKind says how a citation stopped matching.
type EventKind int

// Event kinds.
const (
	// EventMoved: the lines moved (other line numbers or another path).
	EventMoved EventKind = iota + 1
	// EventEdited: the text changed so that the snippet (or, without a
	// snippet, the original text) no longer matches.
	EventEdited
	// EventDeleted: the lines, or the whole file, were deleted.
	EventDeleted
	// EventAmbiguous: the lines could no longer be followed with certainty.
	EventAmbiguous
)

var eventNames = [...]string{"", "moved", "edited", "deleted", "ambiguous"}

// String returns the name of k.
func (k EventKind) String() string {
	if k < EventMoved || k > EventAmbiguous {
		return fmt.Sprintf("EventKind(%d)", int(k))
	}
	return eventNames[k]
}

// MarshalText makes EventKind render as its name in JSON.
func (k EventKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Event is a step of history that affected a citation. Commit is nil when
// the step is the final one into a content view (index or working tree);
// View then names it.
type Event struct {
	Kind   EventKind
	Commit *Commit `json:",omitempty"`
	View   string  `json:",omitempty"`
}

// Where describes the step for messages: "1a2b3c4 (Author, 2024-01-02):
// subject" or the view name.
func (e *Event) Where() string {
	if e == nil {
		return ""
	}
	if e.Commit == nil {
		return e.View
	}
	c := e.Commit
	return fmt.Sprintf("%s (%s, %s): %s", c.Hash.Short(), c.Author, c.AuthorDate.UTC().Format("2006-01-02"), c.Subject)
}

// Result is where one Anchor is at the target.
type Result struct {
	Status Status
	// Location is the new place (Unchanged, Moved, Changed).
	Location Location
	// Text holds the raw lines at Location (line endings removed).
	Text []string `json:",omitempty"`
	// Similarity compares the original and the current text after
	// whitespace normalization: 1 means equal up to white space.
	Similarity float64
	// SnippetFound reports whether the anchor's snippet (trimmed, white
	// space collapsed) occurs in the current text.
	SnippetFound bool
	// Candidates lists the possible places of an Ambiguous citation.
	Candidates []Location `json:",omitempty"`
	// Route says how history was used.
	Route Route
	// Base is the commit the anchor was tracked from (zero for
	// RouteContentSearch).
	Base Hash
	// Steps counts the commits whose version of a tracked file differed
	// from the previous one (the diffs actually computed).
	Steps int
	// GoneIn is the first step where a Gone citation no longer existed and
	// LastSeen the last commit where it did (git blame --reverse's answer).
	GoneIn   *Event  `json:",omitempty"`
	LastSeen *Commit `json:",omitempty"`
	// Moves, Edits and Breaks record the first step that moved the lines,
	// the first that edited them past the snippet, and the one that
	// deleted them or made them ambiguous.
	FirstMove *Event `json:",omitempty"`
	FirstEdit *Event `json:",omitempty"`
	// FirstChange is the first step that changed the text at all (even
	// if the snippet still matches); reindentation does not count.
	FirstChange *Event `json:",omitempty"`
	Break       *Event `json:",omitempty"`
	// Note explains anything unusual (partial range, route fallbacks).
	Note string `json:",omitempty"`
}

// Blame returns the step that made a citation stale: for Gone and
// Ambiguous the step that deleted it or lost its trail, for Changed the
// first edit that broke the snippet (else the first edit of the text, else
// the first move), for Moved the first move. It returns nil for Unchanged.
// It answers the question git blame --reverse answers, "when did this stop
// being true", for each kind of staleness.
func (r *Result) Blame() *Event {
	switch r.Status {
	case Gone, Ambiguous:
		return r.Break
	case Changed:
		switch {
		case r.FirstEdit != nil:
			return r.FirstEdit
		case r.FirstChange != nil:
			return r.FirstChange
		}
		return r.FirstMove
	case Moved:
		return r.FirstMove
	}
	return nil
}
