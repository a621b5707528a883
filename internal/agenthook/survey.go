package agenthook

import (
	"sort"

	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// Survey is what a session starting is told: which memories of the store
// hold stale citations.
type Survey struct {
	Source   string // the content checked ("working tree")
	Memories int    // memories checked
	// Stale are the memories with stale citations, and those that cannot
	// be read, worst first: the most stale citations, then the largest
	// share of its citations, then by path.
	Stale     []StaleMemory
	Citations int // stale citations in all
}

// StaleMemory is one memory a survey found stale.
type StaleMemory struct {
	Memory *store.Memory
	Stale  int // stale citations
	Total  int // verifiable citations
	// First is its first stale citation, and why.
	First  string
	Reason string
	// Err: the memory cannot be read or parsed.
	Err error
}

// SurveyReport lists the stale memories of rep, a verification of the
// whole store as git memcite verify-all makes it (app.Verify: line
// identity and the prose included), so that a session start names the
// memories verify-all calls stale.
func SurveyReport(rep *verify.Report) *Survey {
	s := &Survey{Source: rep.Source, Memories: len(rep.Memories)}
	for i := range rep.Memories {
		mr := &rep.Memories[i]
		if err := mr.Err(); err != nil {
			s.Stale = append(s.Stale, StaleMemory{Memory: mr.Memory, Err: err})
			continue
		}
		stale := mr.StaleCitations()
		if len(stale) == 0 {
			continue
		}
		s.Citations += len(stale)
		s.Stale = append(s.Stale, StaleMemory{Memory: mr.Memory, Stale: len(stale), Total: mr.Total,
			First: stale[0].Citation.Location(), Reason: stale[0].Reason})
	}
	sort.SliceStable(s.Stale, func(i, j int) bool {
		a, b := s.Stale[i], s.Stale[j]
		switch {
		case a.Stale != b.Stale:
			return a.Stale > b.Stale
		case a.Stale*b.Total != b.Stale*a.Total:
			return a.Stale*b.Total > b.Stale*a.Total
		}
		return a.Memory.Path < b.Memory.Path
	})
	return s
}
