// Package verify checks citations against a source.Source (the working
// tree, the index or a commit) with the algorithm and reason strings of the
// citation schema (docs/citation-schema.md):
//
//  1. Resolve the path against the repository root.
//  2. Path traversal: it must stay inside the repository (also through
//     symlinks, and never into .git) — "Path traversal blocked: {path}".
//  3. The file must exist — "File not found: {path}".
//  4. No line: valid.
//  5. Read the file — "Cannot read file: {error}".
//  6. line >= 1 — "Invalid line number: {line} (must be >= 1)".
//  7. line <= length — "Line {line} exceeds file length ({length})".
//  8. The snippet must be a case-sensitive substring of the cited line —
//     "Snippet mismatch at line {line}. Expected '{snippet}', got '{actual}'".
//  9. Valid.
//
// Decisions where the schema is silent: an empty path is stale ("Empty
// path"); a directory is stale ("Not a file: {path} is a directory"); a
// FIFO, device or submodule cannot be read; a binary file (a NUL byte in
// its first 8000 bytes), a non-UTF-8 line and a git-lfs pointer cannot be
// read line by line, so a citation with a line is stale with a "Cannot read
// file" reason while a whole-file citation of them is valid (the file
// exists). Ranges (line_end) need every line to exist and the snippet to
// occur inside the range; a multi-line snippet must match consecutive
// lines. URL citations are skipped and do not count. Lines end at LF, CRLF
// or CR and are compared without the line break.
//
// Each stale result carries a Kind next to its reason: programs (rule ids,
// baselines) read the kind; the reason is for people.
package verify

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/vcache"
)

// Status is the outcome for one citation.
type Status uint8

// Citation outcomes.
const (
	Valid   Status = iota // the citation holds
	Stale                 // it does not; Reason says why
	Skipped               // not verifiable (a URL)
)

func (s Status) String() string {
	return [...]string{"valid", "stale", "skipped"}[s]
}

// Kind says why a citation is stale. Rule ids, baselines and other
// machine-readable output key on it, never on the Reason text; the names
// (String) are stable.
type Kind uint8

// Kinds of stale citations, in the order Citation checks them.
const (
	KindNone            Kind = iota // not stale: valid or skipped
	KindEmptyPath                   // "Empty path"
	KindPathTraversal               // "Path traversal blocked: {path}": outside the repository or into .git
	KindNotFound                    // "File not found: {path}"
	KindNotAFile                    // "Not a file: {path} is a directory"
	KindNotRegular                  // "Cannot read file": a FIFO, device, socket or submodule
	KindSymlinkLoop                 // "Cannot read file": symlinks refer to each other without end
	KindIgnored                     // "Cannot read file": untracked and ignored by git, not read
	KindUnreadable                  // "Cannot read file": any other read error
	KindBinary                      // "Cannot read file": a NUL byte in the first 8000 bytes
	KindLFSPointer                  // "Cannot read file": a git-lfs pointer
	KindInvalidLine                 // "Invalid line number: {line} (must be >= 1)"
	KindInvalidRange                // "Invalid line range: {line}-{end} (end before start)"
	KindPastEOF                     // "Line {line} exceeds file length ({length})"
	KindInvalidUTF8                 // "Cannot read file": a cited line is not UTF-8
	KindSnippetMismatch             // "Snippet mismatch at line …"
	// Line identity (docs/citation-schema.md): a citation without a
	// snippet whose base commit is known, judged by where its lines are
	// now (relocate.Judge).
	KindMoved     // "Lines moved to {path}:{line} in {commit}": the same text elsewhere
	KindEdited    // "Line {line} was edited in {commit}"
	KindDeleted   // "Line {line} was deleted in {commit}"
	KindAmbiguous // "Line {line} can no longer be told apart (…)"
)

var kindNames = [...]string{
	KindNone:            "none",
	KindEmptyPath:       "empty-path",
	KindPathTraversal:   "path-traversal",
	KindNotFound:        "not-found",
	KindNotAFile:        "not-a-file",
	KindNotRegular:      "not-regular",
	KindSymlinkLoop:     "symlink-loop",
	KindIgnored:         "ignored",
	KindUnreadable:      "unreadable",
	KindBinary:          "binary",
	KindLFSPointer:      "lfs-pointer",
	KindInvalidLine:     "invalid-line",
	KindInvalidRange:    "invalid-range",
	KindPastEOF:         "past-eof",
	KindInvalidUTF8:     "invalid-utf8",
	KindSnippetMismatch: "snippet-mismatch",
	KindMoved:           "moved",
	KindEdited:          "edited",
	KindDeleted:         "deleted",
	KindAmbiguous:       "ambiguous",
}

// Kinds lists every kind a stale citation can have (KindNone excluded).
func Kinds() []Kind {
	out := make([]Kind, 0, len(kindNames)-1)
	for k := KindNone + 1; int(k) < len(kindNames); k++ {
		out = append(out, k)
	}
	return out
}

func (k Kind) String() string {
	if n, ok := proseKindName(k); ok {
		return n
	}
	if int(k) >= len(kindNames) {
		return "kind(" + strconv.Itoa(int(k)) + ")"
	}
	return kindNames[k]
}

// CitationResult is the outcome for one citation.
type CitationResult struct {
	Citation *memfile.Citation // the memory file's own citation (shared, not a copy)
	Reason   string            // for Stale and Skipped
	Status   Status
	Kind     Kind // why it is stale; KindNone for Valid and Skipped
	// Known: a stale citation listed in a baseline: known, neither
	// reported nor failing the run (set by findings.MarkKnown).
	Known bool
	// Untracked: the cited file is in the working tree but git does not
	// track it, so its content is not in the repository. SharedReason
	// leaves that content out.
	Untracked bool
	// Prose: the citation is a reference in the memory's prose
	// (prose.go); nil for the frontmatter's citations.
	Prose *ProseRef
	// Line identity (relocate.Judge), for citations of lines: Now is
	// where the cited lines are now when they are no longer where the
	// citation says (moved or edited; nil when in place, deleted or not
	// followed); ChangedIn names the step that moved, edited or deleted
	// them ("1a2b3c4 (Author, 2024-01-02): subject", or the content view,
	// "working tree"), ChangedCommit its full hash ("" for the uncommitted
	// step).
	Now           *Place
	ChangedIn     string
	ChangedCommit string
	// Unanchored: the citation's base commit is not known (the memory
	// was never committed, or its history was cut by a shallow clone), so
	// it was judged as written, not by line identity.
	Unanchored bool
}

// Place is a line range of a file: where a citation's lines are now.
type Place struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	LineEnd int    `json:"line_end,omitempty"`
}

// String renders p as path:17 or path:17-28.
func (p Place) String() string {
	if p.LineEnd > p.Line {
		return fmt.Sprintf("%s:%d-%d", p.Path, p.Line, p.LineEnd)
	}
	return fmt.Sprintf("%s:%d", p.Path, p.Line)
}

// SharedReason is Reason for logs other people read (CI annotations,
// SARIF, reports): the text found in an untracked file is not repeated,
// since it may be anything the workspace holds.
func (cr CitationResult) SharedReason() string {
	if !cr.Untracked || cr.Kind != KindSnippetMismatch {
		return cr.Reason
	}
	return mismatchHead(*cr.Citation, normSnippet(cr.Citation.Snippet)) + " (the file is not tracked by git: its text is not shown)"
}

// MemoryResult is the outcome for one memory.
type MemoryResult struct {
	Memory     *store.Memory
	Citations  []CitationResult
	ValidCount int     // valid citations
	Total      int     // verifiable citations (URLs excluded)
	Skipped    int     // URL citations
	Confidence float64 // ValidCount/Total rounded to 2 decimals, or the stored value
	Exempt     bool    // exempt: true; not verified
}

// Err is the memory's read or parse error, if any.
func (m *MemoryResult) Err() error { return m.Memory.Err }

// Stale reports whether any citation is stale.
func (m *MemoryResult) Stale() bool {
	return m.Memory.Err == nil && m.ValidCount+m.Known() < m.Total
}

// Known counts the stale citations a baseline lists.
func (m *MemoryResult) Known() int {
	n := 0
	for _, c := range m.Citations {
		if c.Known {
			n++
		}
	}
	return n
}

// StaleCitations returns the stale citations, without those a baseline
// lists.
func (m *MemoryResult) StaleCitations() []CitationResult {
	var out []CitationResult
	for _, c := range m.Citations {
		if c.Status == Stale && !c.Known {
			out = append(out, c)
		}
	}
	return out
}

// Report is the outcome of verifying a set of memories.
type Report struct {
	Source   string // the source's name
	Memories []MemoryResult
	Elapsed  time.Duration

	ids map[string]string // content names the run took (ContentID)
}

// ContentID returns the name of a cited file's content (a
// source.Identifier id) that the check took, when it took one (with the
// verification cache on): a later judge of the same report need not name
// the content again.
func (r *Report) ContentID(p string) (string, bool) {
	id, ok := r.ids[p]
	return id, ok
}

// Summary counts a report.
type Summary struct {
	Memories       int `json:"memories"`
	WithCitations  int `json:"with_citations"`
	Valid          int `json:"valid"`
	Stale          int `json:"stale"`
	Errors         int `json:"errors"`
	Exempt         int `json:"exempt"`
	Citations      int `json:"citations"`
	StaleCitations int `json:"stale_citations"`
	Skipped        int `json:"skipped_citations"`
	Baselined      int `json:"baselined,omitempty"` // stale citations a baseline lists, not counted as stale
}

// Summary counts memories and citations.
func (r *Report) Summary() Summary {
	var s Summary
	for i := range r.Memories {
		m := &r.Memories[i]
		s.Memories++
		switch {
		case m.Err() != nil:
			s.Errors++
			continue
		case m.Exempt:
			s.Exempt++
			continue
		case m.Stale():
			s.Stale++
		default:
			s.Valid++
		}
		if m.Total > 0 {
			s.WithCitations++
		}
		s.Citations += m.Total
		s.StaleCitations += m.Total - m.ValidCount - m.Known()
		s.Baselined += m.Known()
		s.Skipped += m.Skipped
	}
	return s
}

// Options are what Check works with besides the content; the zero
// value checks the frontmatter's citations without a cache.
type Options struct {
	// Cache is the verification cache (internal/vcache); nil: none.
	Cache *vcache.Cache
	// Prose, when not nil, also judges the references in the prose of
	// the memories (ProseChecker).
	Prose ProseChecker
}

// Check verifies the citations of mems against src. Each cited file is read
// once, in parallel. With a cache (opt.Cache) and a source that names
// file content without reading it (source.Identifier), a citation checked
// before against the same content is not checked again, and a file all
// of whose citations are known is not read.
func Check(ctx context.Context, src source.Source, mems []*store.Memory, opt Options) (*Report, error) {
	r, p, err := Start(ctx, src, mems, opt)
	if err != nil {
		return nil, err
	}
	if err := p.Wait(); err != nil {
		return nil, err
	}
	return r, nil
}

// Start checks mems as Check does, except the prose references a
// LaterProseChecker judges later (the symbols), which are judged in a
// goroutine of their own while the caller works on the report: Wait adds
// them. Until then the report holds and counts the other citations only;
// those judged later are each memory's last citations, of no lines, so a
// judge of lines (relocate.Judge) may work on the report meanwhile. Wait
// must be called once Start returned no error.
func Start(ctx context.Context, src source.Source, mems []*store.Memory, opt Options) (*Report, *Pending, error) {
	start := time.Now()
	cc := newCitationCache(opt.Cache, src)
	cc.prefetch(mems)
	r := &Report{Source: src.Name(), Memories: make([]MemoryResult, len(mems))}
	total := 0
	for _, m := range mems {
		if m.File != nil && !m.File.Exempt {
			total += len(m.File.Citations)
		}
	}
	all := make([]CitationResult, total) // every memory's results, one allocation
	results := all
	for i, m := range mems {
		res := &r.Memories[i]
		res.Memory = m
		if m.File == nil {
			continue
		}
		res.Confidence = m.File.Confidence
		if m.File.Exempt {
			res.Exempt = true
			continue
		}
		if n := len(m.File.Citations); n > 0 {
			res.Citations, results = results[:n:n], results[n:]
		}
		for j := range m.File.Citations {
			c := &m.File.Citations[j]
			cr := &res.Citations[j]
			cr.Citation = c
			if c.URL != "" {
				cr.Status, cr.Reason = Skipped, "URL citations are not fetched"
			}
		}
	}
	known := cc.lookupAll(all) // the verdicts the cache holds, looked up in parallel
	need := map[string]*want{} // path -> lines needed (none: existence only), citations
	for k := range all {
		cr := &all[k]
		if cr.Status == Skipped || (known != nil && known[k]) {
			continue
		}
		c := cr.Citation
		w := need[c.Path]
		if w == nil {
			w = &want{}
			need[c.Path] = w
		}
		w.cites = append(w.cites, cr)
		if c.HasLine {
			end := max(c.Line, c.LineEnd, c.Line+strings.Count(strings.TrimRight(c.Snippet, "\n"), "\n"))
			w.add(max(c.Line, 1), end)
		}
	}
	if err := readAll(ctx, src, need, cc); err != nil {
		return nil, nil, err
	}
	p, err := checkProse(ctx, opt.Prose, src, r, mems)
	if err != nil {
		return nil, nil, err
	}
	for i := range r.Memories {
		count(&r.Memories[i])
	}
	r.ids = cc.names()
	p.r, p.start = r, start
	r.Elapsed = time.Since(start)
	return r, p, nil
}

// Recount sets the status, counts and confidence of every memory of r
// again from its citations' kinds, after a later judge (relocate.Judge)
// changed some.
func (r *Report) Recount() {
	for i := range r.Memories {
		res := &r.Memories[i]
		if res.Memory.File == nil || res.Exempt {
			continue
		}
		res.ValidCount, res.Total, res.Skipped = 0, 0, 0
		count(res)
	}
}

// count sets the status of res's citations from their kinds, and its
// counts and confidence.
func count(res *MemoryResult) {
	for j := range res.Citations {
		cr := &res.Citations[j]
		if cr.Status == Skipped {
			if cr.Prose == nil { // an unresolved prose reference is no URL
				res.Skipped++
			}
			continue
		}
		if cr.Kind != KindNone {
			cr.Status = Stale
		} else {
			res.ValidCount++
		}
		res.Total++
	}
	if res.Total > 0 {
		res.Confidence = Round2(float64(res.ValidCount) / float64(res.Total))
	}
}

// Round2 rounds to two decimals, halves away from zero.
func Round2(x float64) float64 { return math.Round(x*100) / 100 }

// Citation checks one citation against the file data read for its path and
// returns why it is stale and the reason text, or KindNone and "" when it
// holds.
func Citation(c memfile.Citation, fd *fileData) (Kind, string) {
	if c.Path == "" {
		return KindEmptyPath, "Empty path"
	}
	if fd == nil {
		return KindNotFound, fmt.Sprintf("File not found: %s", c.Path)
	}
	switch {
	case errors.Is(fd.statErr, source.ErrOutside):
		return KindPathTraversal, fmt.Sprintf("Path traversal blocked: %s", c.Path)
	case errors.Is(fd.statErr, source.ErrNotExist):
		return KindNotFound, fmt.Sprintf("File not found: %s", c.Path)
	case fd.statErr != nil:
		return unreadable(fd.statErr), fmt.Sprintf("Cannot read file: %s: %v", c.Path, unwrapPath(fd.statErr))
	case fd.kind == source.KindDir:
		return KindNotAFile, fmt.Sprintf("Not a file: %s is a directory", c.Path)
	case fd.kind == source.KindOther:
		return KindNotRegular, fmt.Sprintf("Cannot read file: %s: not a regular file", c.Path)
	}
	if !c.HasLine {
		return KindNone, ""
	}
	switch {
	case fd.readErr != nil:
		return unreadable(fd.readErr), fmt.Sprintf("Cannot read file: %s: %v", c.Path, unwrapPath(fd.readErr))
	case fd.binary:
		return KindBinary, fmt.Sprintf("Cannot read file: %s: binary file", c.Path)
	case fd.lfs:
		return KindLFSPointer, fmt.Sprintf("Cannot read file: %s: git-lfs pointer (the content is not in the repository)", c.Path)
	}
	if c.Line < 1 {
		return KindInvalidLine, fmt.Sprintf("Invalid line number: %d (must be >= 1)", c.Line)
	}
	end := c.Line
	if c.LineEnd != 0 {
		if c.LineEnd < c.Line {
			return KindInvalidRange, fmt.Sprintf("Invalid line range: %d-%d (end before start)", c.Line, c.LineEnd)
		}
		end = c.LineEnd
	}
	if fd.complete && end > len(fd.lines) {
		return KindPastEOF, fmt.Sprintf("Line %d exceeds file length (%d)", end, len(fd.lines))
	}
	for _, bad := range fd.invalidUTF8 {
		// only the cited lines count: the verdict must not depend on
		// which other citations of the file were read with it
		if bad >= c.Line && bad <= end {
			return KindInvalidUTF8, fmt.Sprintf("Cannot read file: %s: line %d is not valid UTF-8", c.Path, bad)
		}
	}
	if !c.HasSnippet {
		return KindNone, ""
	}
	snippet := normSnippet(c.Snippet)
	nSnip := strings.Count(snippet, "\n") + 1
	if c.LineEnd == 0 && nSnip > 1 {
		end = c.Line + nSnip - 1 // a multi-line snippet spans lines from the cited one
		if end <= len(fd.lines) && matchAt(fd.lines[c.Line-1:end], snippet) {
			return KindNone, ""
		}
		return KindSnippetMismatch, snippetMismatch(c, snippet, fd.lines[c.Line-1])
	}
	if strings.Contains(strings.Join(fd.lines[c.Line-1:end], "\n"), snippet) {
		return KindNone, ""
	}
	return KindSnippetMismatch, snippetMismatch(c, snippet, fd.lines[c.Line-1])
}

// unreadable classifies an error reading a cited file.
func unreadable(err error) Kind {
	switch {
	case errors.Is(err, source.ErrIgnored):
		return KindIgnored
	case errors.Is(err, source.ErrSymlinkLoop):
		return KindSymlinkLoop
	}
	return KindUnreadable
}

// normSnippet turns a snippet's line breaks into LFs and, when it spans
// lines, drops trailing ones.
func normSnippet(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	if strings.Contains(strings.TrimRight(s, "\n"), "\n") {
		s = strings.TrimRight(s, "\n")
	}
	return s
}

// matchAt reports whether the multi-line snippet matches lines: the first
// snippet line ends the first line, the middle ones are whole lines, the
// last starts the last line.
func matchAt(lines []string, snippet string) bool {
	parts := strings.Split(snippet, "\n")
	if len(parts) != len(lines) {
		return false
	}
	for i, p := range parts {
		switch {
		case i == 0 && !strings.HasSuffix(lines[i], p):
			return false
		case i == len(parts)-1 && !strings.HasPrefix(lines[i], p):
			return false
		case i > 0 && i < len(parts)-1 && lines[i] != p:
			return false
		}
	}
	return true
}

func snippetMismatch(c memfile.Citation, snippet, line string) string {
	return mismatchHead(c, snippet) + fmt.Sprintf(", got '%s'", strings.TrimSpace(line))
}

// mismatchHead is a snippet mismatch reason without the text found.
func mismatchHead(c memfile.Citation, snippet string) string {
	if c.LineEnd != 0 && c.LineEnd != c.Line {
		return fmt.Sprintf("Snippet mismatch at lines %d-%d. Expected '%s'", c.Line, c.LineEnd, snippet)
	}
	return fmt.Sprintf("Snippet mismatch at line %d. Expected '%s'", c.Line, snippet)
}

// unwrapPath drops the absolute path that *fs.PathError adds, so messages
// name only the repo-relative path.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// readAll reads the needed lines of every cited path, in parallel, and
// checks the citations that need each (want.cites) as soon as it is read:
// what was read of a file is dropped then, so that a run holds the text
// of a few files at a time, not of every cited file. cc (which may be nil)
// stores the verdicts it can vouch for.
func readAll(ctx context.Context, src source.Source, need map[string]*want, cc *citationCache) error {
	type job struct {
		path string
		w    *want
	}
	var mu sync.Mutex
	var unavailable []string
	causes := map[string]error{}
	jobs := make(chan job)
	var wg sync.WaitGroup
	workers := min(4*runtime.GOMAXPROCS(0), max(len(need), 1)) // reads block: more workers than cores
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				fd := readFile(src, j.path, j.w)
				if cause := cmp.Or(fd.readErr, fd.statErr); errors.Is(cause, source.ErrUnavailable) {
					// content the repository cannot give fails the
					// run: it is no finding about a citation
					mu.Lock()
					unavailable = append(unavailable, j.path)
					causes[j.path] = cause
					mu.Unlock()
					continue
				}
				id := cc.named(j.path, fd)
				for _, cr := range j.w.cites {
					cr.Kind, cr.Reason = Citation(*cr.Citation, fd)
					cr.Untracked = fd.untracked
					cc.store(id, cr.Citation, fd, cr.Kind, cr.Reason)
				}
			}
		}()
	}
	var err error
	for p, w := range need {
		if err = ctx.Err(); err != nil {
			break
		}
		jobs <- job{p, w}
	}
	close(jobs)
	wg.Wait()
	if err != nil {
		return err
	}
	if len(unavailable) > 0 {
		sort.Strings(unavailable)
		return fmt.Errorf("%s: cannot read %s: %w", src.Name(), strings.Join(unavailable, ", "), causes[unavailable[0]])
	}
	return nil
}
