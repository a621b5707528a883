// Package health summarises the state of a memory store for people who
// curate it: per memory the last verification date, confidence, valid and
// total citations and why it is stale; ranked worst first; totals, coverage
// and a per-folder breakdown; dangling links and orphans from the link
// graph; and, against an earlier commit, what got worse.
//
// It computes values only; internal/render turns a Report into markdown,
// JSON or HTML.
package health

import (
	"cmp"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/git-memcite/git-memcite/internal/graph"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// Status classes, worst first.
const (
	StatusError   = "error"   // the memory file cannot be read or parsed
	StatusStale   = "stale"   // at least one citation does not hold
	StatusUncited = "uncited" // no verifiable citations
	StatusExempt  = "exempt"  // exempt: true
	StatusHealthy = "healthy" // every citation holds
)

var statusRank = map[string]int{StatusError: 0, StatusStale: 1, StatusUncited: 2, StatusExempt: 3, StatusHealthy: 4}

// Memory is the health of one memory.
type Memory struct {
	ID            string   `json:"memory_id"`
	Path          string   `json:"path"`
	Folder        string   `json:"folder"`
	Status        string   `json:"status"`
	LastVerified  string   `json:"last_verified"` // last_verified, else the newest citation stamp; "" if never
	Confidence    float64  `json:"confidence"`    // valid/total, or the stored value without citations
	Valid         int      `json:"valid_citations"`
	Total         int      `json:"total_citations"`
	Reasons       []string `json:"stale_reasons"`   // one per stale citation: "path:line: reason"
	StaleAt       []string `json:"stale_citations"` // the stale citations' locations, as Reasons
	AllDeleted    bool     `json:"all_deleted"`     // every citation points into a file that no longer exists
	NeverVerified bool     `json:"never_verified"`
	// LineOnly counts citations of a line without a snippet: verify checks
	// only that the line exists, so they can drift onto other code
	// unnoticed (relocate and the hooks follow them).
	LineOnly int    `json:"line_only_citations"`
	Error    string `json:"error,omitempty"`
}

// Staleness is the first reason, for one-line displays.
func (m Memory) Staleness() string {
	switch {
	case m.Error != "":
		return m.Error
	case len(m.Reasons) > 0:
		if len(m.Reasons) > 1 {
			return m.Reasons[0] + " (+" + strconv.Itoa(len(m.Reasons)-1) + " more)"
		}
		return m.Reasons[0]
	}
	return ""
}

// Folder is the breakdown for one folder below the memory directory.
type Folder struct {
	Folder         string  `json:"folder"`
	Memories       int     `json:"memories"`
	WithCitations  int     `json:"with_citations"`
	Stale          int     `json:"stale"`
	Citations      int     `json:"citations"`
	StaleCitations int     `json:"stale_citations"`
	StaleShare     float64 `json:"stale_share"` // stale / with citations
}

// Totals are the store-wide counts and coverage metrics.
type Totals struct {
	Memories           int     `json:"memories"`
	WithCitations      int     `json:"with_citations"` // memories with ≥ 1 verifiable citation
	Coverage           float64 `json:"coverage"`       // WithCitations / Memories
	Citations          int     `json:"citations"`
	ValidCitations     int     `json:"valid_citations"`
	StaleCitations     int     `json:"stale_citations"`
	CitationsPerMemory float64 `json:"citations_per_memory"` // over memories with citations
	Healthy            int     `json:"healthy"`
	Stale              int     `json:"stale"`
	StaleShare         float64 `json:"stale_share"` // Stale / WithCitations
	NeverVerified      int     `json:"never_verified"`
	AllDeleted         int     `json:"all_citations_deleted"`
	Errors             int     `json:"errors"`
	Exempt             int     `json:"exempt"`
	Uncited            int     `json:"uncited"`
	LineOnly           int     `json:"line_only_citations"` // citations of a line without a snippet
	DanglingLinks      int     `json:"dangling_links"`
	Orphans            int     `json:"orphans"`
}

// Report is the health of a store.
type Report struct {
	Source   string       `json:"source"`
	Totals   Totals       `json:"totals"`
	Memories []Memory     `json:"memories"` // worst first
	Folders  []Folder     `json:"folders"`  // by name
	Dangling []graph.Link `json:"dangling_links"`
	Orphans  []string     `json:"orphans"`
	Since    *Comparison  `json:"since,omitempty"`
}

// Build computes the report from a verification report and the whole link
// graph of the same store (nil to leave links out).
func Build(rep *verify.Report, g *graph.Whole) *Report {
	r := &Report{Source: rep.Source, Memories: []Memory{}, Folders: []Folder{}, Dangling: []graph.Link{}, Orphans: []string{}}
	folders := map[string]*Folder{}
	for i := range rep.Memories {
		m := memoryOf(&rep.Memories[i])
		r.Memories = append(r.Memories, m)
		f := folders[m.Folder]
		if f == nil {
			f = &Folder{Folder: m.Folder}
			folders[m.Folder] = f
		}
		t := &r.Totals
		t.Memories++
		f.Memories++
		if m.NeverVerified {
			t.NeverVerified++
		}
		switch m.Status {
		case StatusError:
			t.Errors++
			continue
		case StatusExempt:
			t.Exempt++
			continue
		case StatusUncited:
			t.Uncited++
			continue
		case StatusStale:
			t.Stale++
			f.Stale++
		case StatusHealthy:
			t.Healthy++
		}
		t.WithCitations++
		f.WithCitations++
		t.Citations += m.Total
		t.ValidCitations += m.Valid
		t.StaleCitations += m.Total - m.Valid
		t.LineOnly += m.LineOnly
		f.Citations += m.Total
		f.StaleCitations += m.Total - m.Valid
		if m.AllDeleted {
			t.AllDeleted++
		}
	}
	t := &r.Totals
	t.Coverage = ratio(t.WithCitations, t.Memories)
	t.CitationsPerMemory = ratio(t.Citations, t.WithCitations)
	t.StaleShare = ratio(t.Stale, t.WithCitations)
	for _, f := range folders {
		f.StaleShare = ratio(f.Stale, f.WithCitations)
		r.Folders = append(r.Folders, *f)
	}
	sort.Slice(r.Folders, func(a, b int) bool { return r.Folders[a].Folder < r.Folders[b].Folder })
	Rank(r.Memories)
	if g != nil {
		r.Dangling = append(r.Dangling, g.Dangling...)
		r.Orphans = append(r.Orphans, g.Orphans...)
		t.DanglingLinks, t.Orphans = len(g.Dangling), len(g.Orphans)
	}
	return r
}

// Rank orders memories worst first: errors, then stale memories by the
// share of valid citations (lowest first) and the number of stale ones,
// then uncited, exempt and healthy memories; ties by id.
func Rank(ms []Memory) {
	slices.SortStableFunc(ms, func(x, y Memory) int {
		if c := cmp.Compare(statusRank[x.Status], statusRank[y.Status]); c != 0 {
			return c
		}
		if x.Status == StatusStale {
			if c := cmp.Compare(ratio(x.Valid, x.Total), ratio(y.Valid, y.Total)); c != 0 {
				return c
			}
			if c := cmp.Compare(y.Total-y.Valid, x.Total-x.Valid); c != 0 {
				return c // more stale citations first
			}
		}
		if c := strings.Compare(x.ID, y.ID); c != 0 {
			return c
		}
		return strings.Compare(x.Path, y.Path)
	})
}

func memoryOf(mr *verify.MemoryResult) Memory {
	mem := mr.Memory
	m := Memory{ID: mem.ID, Path: mem.Path, Folder: path.Dir(mem.RelID()), Reasons: []string{}, StaleAt: []string{}}
	if mr.Err() != nil {
		m.Status, m.Error, m.NeverVerified = StatusError, mr.Err().Error(), true
		return m
	}
	f := mem.File
	m.Confidence = mr.Confidence
	m.LastVerified = f.LastVerified
	for _, c := range f.Citations {
		if c.Verified > m.LastVerified && f.LastVerified == "" {
			m.LastVerified = c.Verified
		}
	}
	m.NeverVerified = m.LastVerified == ""
	m.Valid, m.Total = mr.ValidCount, mr.Total
	for _, c := range mr.Citations {
		if c.Citation.HasLine && !c.Citation.HasSnippet && c.Citation.URL == "" {
			m.LineOnly++
		}
	}
	switch {
	case mr.Exempt:
		m.Status = StatusExempt
	case mr.Total == 0:
		m.Status = StatusUncited
	case mr.Stale():
		m.Status = StatusStale
	default:
		m.Status = StatusHealthy
	}
	deleted := 0
	for _, c := range mr.StaleCitations() {
		m.Reasons = append(m.Reasons, c.Citation.Location()+": "+c.Reason)
		m.StaleAt = append(m.StaleAt, c.Citation.Location())
		if c.Kind == verify.KindNotFound {
			deleted++
		}
	}
	m.AllDeleted = mr.Total > 0 && deleted == mr.Total
	return m
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return verify.Round2(float64(a) / float64(b))
}
