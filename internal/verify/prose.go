package verify

import (
	"context"
	"fmt"
	"time"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
)

// Kinds of stale prose references (docs/prose-references.md): what the
// prose of a memory names that held when its sentence was written and no
// longer does. Line references of the prose are judged with the kinds
// of citations.
const (
	KindPathMoved     Kind = 100 + iota // the file named was moved; Now says where
	KindPathDeleted                     // the file named was deleted
	KindSymbolGone                      // the symbol named is no longer in the code
	KindSymbolMoved                     // the symbol named is defined in another file now
	KindMemoryRenamed                   // the memory linked was renamed; Now is its new path
	KindMemoryDeleted                   // the memory linked was deleted
)

var proseKindNames = map[Kind]string{
	KindPathMoved:     "path-moved",
	KindPathDeleted:   "path-deleted",
	KindSymbolGone:    "symbol-gone",
	KindSymbolMoved:   "symbol-moved",
	KindMemoryRenamed: "memory-renamed",
	KindMemoryDeleted: "memory-deleted",
}

// ProseKinds lists the kinds of stale prose references.
func ProseKinds() []Kind {
	return []Kind{KindPathMoved, KindPathDeleted, KindSymbolGone, KindSymbolMoved, KindMemoryRenamed, KindMemoryDeleted}
}

// ProseRef says where a citation judged from a memory's prose comes from
// (CitationResult.Prose): what was written and where it stands.
type ProseRef struct {
	Kind   string // path, lines, symbol, memory
	Form   string // how it is written (prose.Form…)
	Text   string // the target as written
	Line   int    // line of the memory file
	Start  int    // byte offsets of Text in the memory file (-1: unknown)
	Stop   int
	Target string // what it resolved to where it was written: a path, a memory's path, a symbol's file
	// Written is the commit that wrote the sentence ("" when it is not
	// committed yet: resolved against the content checked).
	Written string
	// Unresolved: it did not resolve where it was written (a path not
	// tracked, a symbol not in the code, a memory that did not exist):
	// information, never stale.
	Unresolved bool
	Now        string // where it is now: the new path or memory (moved, renamed), the symbol's file
	Changed    string // the commit that made it stale ("" for the content checked, or unknown)
}

// ProseCitation is one reference a ProseChecker judged.
type ProseCitation struct {
	Ref ProseRef
	// Citation is the citation the reference amounts to: the path (or
	// the memory's path, or the symbol) and lines, SrcLine its line in
	// the memory, Commit the commit that wrote its sentence.
	Citation memfile.Citation
	// Lines, when set, is the citation Check judges the lines with, as
	// for a frontmatter citation (its snippet is the text of the lines
	// where the sentence was written); Kind and Reason are then Check's.
	Lines *memfile.Citation
	// LinesAt, for a range, is the line of it that held the snippet
	// where the sentence was written: the range holds its text only when
	// that line still does (lines shifted within the range would still
	// hold the snippet somewhere in it). 0: anywhere in the range.
	LinesAt int
	Status  Status // Valid, Stale, or Skipped (unresolved)
	Kind    Kind
	Reason  string
}

// ProseChecker judges the references in the prose of memories: the
// prose package implements it over history. Check asks the one of its
// options (Options.Prose) and reports what it finds with the citations.
type ProseChecker interface {
	CheckProse(ctx context.Context, src source.Source, mems []*store.Memory) ([][]ProseCitation, error)
}

// LaterProseChecker is a ProseChecker that can judge part of the
// references after the others (internal/prose: the symbols), so that
// Start's caller works on the report while they are judged.
type LaterProseChecker interface {
	ProseChecker
	// CheckProseLater returns the references of mems judged now and
	// later, which judges the others and returns them by memory (each
	// memory's after its references judged now). later is called once,
	// and always when err is nil.
	CheckProseLater(ctx context.Context, src source.Source, mems []*store.Memory) (found [][]ProseCitation, later func() ([][]ProseCitation, error), err error)
}

// Pending is what Start left to judge: the prose references judged
// later. Wait adds them to the report.
type Pending struct {
	r     *Report
	start time.Time
	at    []int // memory of the report by memory of the prose check
	done  chan struct{}
	found [][]ProseCitation
	err   error
}

// Judged is closed once the references judged later are judged (at
// once when there are none); Wait still adds them.
func (p *Pending) Judged() <-chan struct{} {
	if p.done == nil {
		return closedChan
	}
	return p.done
}

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// Wait waits for the references judged later, adds them to the report
// after each memory's other citations, and counts the report again.
func (p *Pending) Wait() error {
	if p.done == nil {
		return nil
	}
	<-p.done
	p.done = nil // (a second Wait adds nothing)
	if p.err != nil || p.r == nil {
		return p.err
	}
	for k, pcs := range p.found {
		if len(pcs) == 0 || k >= len(p.at) {
			continue
		}
		res := &p.r.Memories[p.at[k]]
		for j := range pcs {
			pc := &pcs[j]
			blankLines(pc)
			c := pc.Citation
			c.Index = len(res.Citations)
			ref := pc.Ref
			res.Citations = append(res.Citations, CitationResult{Citation: &c, Status: pc.Status, Kind: pc.Kind, Reason: pc.Reason, Prose: &ref})
		}
	}
	p.r.Recount()
	p.r.Elapsed = time.Since(p.start)
	return nil
}

// checkProse judges the prose of the memories of r with p (nil: not at
// all) and adds its references to their citations, after the
// frontmatter's: resolved ones count as citations, unresolved ones are
// skipped.
//
// The references a LaterProseChecker judges later are judged in a
// goroutine of their own: the Pending returned has them.
func checkProse(ctx context.Context, p ProseChecker, src source.Source, r *Report, mems []*store.Memory) (*Pending, error) {
	pend := &Pending{}
	if p == nil {
		return pend, nil
	}
	var todo []*store.Memory
	var at []int
	for i, m := range mems {
		if m.File != nil && !m.File.Exempt {
			todo = append(todo, m)
			at = append(at, i)
		}
	}
	if len(todo) == 0 {
		return pend, nil
	}
	var found [][]ProseCitation
	var err error
	if lp, ok := p.(LaterProseChecker); ok {
		var later func() ([][]ProseCitation, error)
		if found, later, err = lp.CheckProseLater(ctx, src, todo); err != nil {
			return nil, err
		}
		pend.at, pend.done = at, make(chan struct{})
		go func() {
			defer close(pend.done)
			pend.found, pend.err = later()
		}()
	} else if found, err = p.CheckProse(ctx, src, todo); err != nil {
		return nil, err
	}
	need := map[string]*want{}
	type lineCheck struct {
		probe *CitationResult
		at    *CitationResult // the snippet at its line of the range (LinesAt), or nil
		into  *CitationResult
	}
	var checks []lineCheck
	for k, pcs := range found {
		if len(pcs) == 0 {
			continue
		}
		res := &r.Memories[at[k]]
		base := len(res.Memory.File.Citations)
		first := len(res.Citations)
		for j := range pcs {
			pc := &pcs[j]
			blankLines(pc)
			c := pc.Citation
			c.Index = base + j
			ref := pc.Ref
			res.Citations = append(res.Citations, CitationResult{Citation: &c, Status: pc.Status, Kind: pc.Kind, Reason: pc.Reason, Prose: &ref})
		}
		for j := range pcs {
			pc := &pcs[j]
			if pc.Lines == nil || pc.Status == Skipped || pc.Kind != KindNone {
				continue
			}
			probe := &CitationResult{Citation: pc.Lines}
			w := need[pc.Lines.Path]
			if w == nil {
				w = &want{}
				need[pc.Lines.Path] = w
			}
			w.cites = append(w.cites, probe)
			w.add(max(pc.Lines.Line, 1), max(pc.Lines.Line, pc.Lines.LineEnd))
			lc := lineCheck{probe: probe, into: &res.Citations[first+j]}
			if l := pc.Lines; l.HasSnippet && pc.LinesAt >= l.Line && pc.LinesAt <= l.LineEnd {
				lc.at = &CitationResult{Citation: &memfile.Citation{Path: l.Path, HasLine: true, Line: pc.LinesAt, Snippet: l.Snippet, HasSnippet: true}}
				w.cites = append(w.cites, lc.at)
			}
			checks = append(checks, lc)
		}
	}
	if len(need) > 0 {
		if err := readAll(ctx, src, need, nil); err != nil {
			_ = pend.Wait() // nothing outlives the check
			return nil, err
		}
		for _, lc := range checks {
			p := lc.probe
			if p.Kind == KindNone && lc.at != nil {
				p = lc.at // the range holds the snippet: at the line that held it?
			}
			lc.into.Kind, lc.into.Reason, lc.into.Untracked = p.Kind, p.Reason, p.Untracked
		}
	}
	return pend, nil
}

// blankLines makes a line reference unresolved when its lines held
// nothing to check where it was written (blank or punctuation only: no
// snippet): such a number was off from the start, and whatever the lines
// hold later would otherwise pass for them.
func blankLines(pc *ProseCitation) {
	if pc.Lines == nil || pc.Lines.HasSnippet || pc.Status == Skipped || pc.Kind != KindNone {
		return
	}
	lines := fmt.Sprintf("line %d", pc.Lines.Line)
	if pc.Lines.LineEnd > pc.Lines.Line {
		lines = fmt.Sprintf("lines %d-%d", pc.Lines.Line, pc.Lines.LineEnd)
	}
	where := "now"
	if w := pc.Ref.Written; w != "" {
		where = "in " + w[:min(7, len(w))] + ", where it was written"
	}
	pc.Status, pc.Ref.Unresolved, pc.Lines = Skipped, true, nil
	pc.Reason = fmt.Sprintf("unresolved: %s of %s held only blank or punctuation lines %s", lines, pc.Citation.Path, where)
}

// IsProse reports whether a citation result comes from a memory's prose.
func (cr CitationResult) IsProse() bool { return cr.Prose != nil }

// ProseSummary counts the prose references of a report.
type ProseSummary struct {
	References int `json:"references"` // resolved where written: counted as citations
	Stale      int `json:"stale"`
	Unresolved int `json:"unresolved"` // did not resolve where written: information
}

// ProseSummary counts the prose references of the report's memories.
func (r *Report) ProseSummary() ProseSummary {
	var s ProseSummary
	for i := range r.Memories {
		for _, c := range r.Memories[i].Citations {
			switch {
			case c.Prose == nil:
			case c.Prose.Unresolved:
				s.Unresolved++
			case c.Status == Stale && !c.Known:
				s.References++
				s.Stale++
			default:
				s.References++
			}
		}
	}
	return s
}

// proseKindName names the prose kinds (Kind.String).
func proseKindName(k Kind) (string, bool) {
	n, ok := proseKindNames[k]
	return n, ok
}
