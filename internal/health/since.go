package health

import "sort"

// Comparison is what changed since an earlier commit.
type Comparison struct {
	Rev     string   `json:"rev"`    // the revision as given
	Commit  string   `json:"commit"` // its full hash
	Before  Totals   `json:"before"`
	Worse   []Change `json:"worse"`   // memories whose health dropped, worst first
	Better  []Change `json:"better"`  // memories whose health improved
	Added   []string `json:"added"`   // memories that did not exist then (ids)
	Removed []string `json:"removed"` // memories that no longer exist (ids)
}

// Change is one memory's health then and now.
type Change struct {
	ID         string   `json:"memory_id"`
	Path       string   `json:"path"`
	Before     string   `json:"before"` // status then
	After      string   `json:"after"`  // status now
	ValidThen  int      `json:"valid_then"`
	TotalThen  int      `json:"total_then"`
	ValidNow   int      `json:"valid_now"`
	TotalNow   int      `json:"total_now"`
	NewReasons []string `json:"new_reasons"` // reasons of citations that were not stale then
}

// Compare sets r.Since to the changes from before (the report of the same
// store at an earlier commit) to r. Memories are matched by path. A
// memory is worse when its status moved towards error, or when it has
// more stale citations than before; better in the opposite case.
func Compare(r, before *Report, rev, commit string) {
	c := &Comparison{Rev: rev, Commit: commit, Before: before.Totals, Worse: []Change{}, Better: []Change{}, Added: []string{}, Removed: []string{}}
	then := make(map[string]Memory, len(before.Memories))
	for _, m := range before.Memories {
		then[m.Path] = m
	}
	now := make(map[string]bool, len(r.Memories))
	for _, m := range r.Memories {
		now[m.Path] = true
		b, ok := then[m.Path]
		if !ok {
			c.Added = append(c.Added, m.ID)
			continue
		}
		ch := Change{ID: m.ID, Path: m.Path, Before: b.Status, After: m.Status, ValidThen: b.Valid, TotalThen: b.Total, ValidNow: m.Valid, TotalNow: m.Total, NewReasons: []string{}}
		old := map[string]bool{}
		for _, loc := range b.StaleAt {
			old[loc] = true
		}
		for k, loc := range m.StaleAt {
			if !old[loc] {
				ch.NewReasons = append(ch.NewReasons, m.Reasons[k])
			}
		}
		rb, ra := statusRank[b.Status], statusRank[m.Status]
		staleThen, staleNow := b.Total-b.Valid, m.Total-m.Valid
		switch {
		case worse(b.Status, m.Status, rb, ra) || (m.Status == StatusStale && staleNow > staleThen) || (b.Status == m.Status && len(ch.NewReasons) > 0):
			c.Worse = append(c.Worse, ch)
		case worse(m.Status, b.Status, ra, rb) || staleNow < staleThen:
			c.Better = append(c.Better, ch)
		}
	}
	for _, m := range before.Memories {
		if !now[m.Path] {
			c.Removed = append(c.Removed, m.ID)
		}
	}
	sort.Strings(c.Added)
	sort.Strings(c.Removed)
	r.Since = c
}

// worse reports whether going from status a to b is a drop in health.
// Only moves into error or stale count: a memory that lost its citations
// (healthy → uncited) is not worse by this measure.
func worse(a, b string, ra, rb int) bool {
	return a != b && (b == StatusError || b == StatusStale) && rb < ra
}
