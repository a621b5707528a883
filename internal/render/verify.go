// Package render turns domain results into text and JSON. It writes to the
// writer it is given and decides nothing about exit status.
package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// Style colours text for a terminal. The zero value adds no colour.
type Style struct{ Color bool }

func (s Style) paint(code, text string) string {
	if !s.Color {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

// Green, Red, Yellow and Bold colour text when Color is set.
func (s Style) Green(t string) string  { return s.paint("32", t) }
func (s Style) Red(t string) string    { return s.paint("31", t) }
func (s Style) Yellow(t string) string { return s.paint("33", t) }
func (s Style) Bold(t string) string   { return s.paint("1", t) }

// MemoryText writes the human block for one memory:
//
//	[FAIL] pr-review-003: STALE
//	  Citations: 1/3 valid
//	  Confidence: 0.33
//	  [STALE] scripts/pr/Review-PR.ps1:102
//	    Reason: Line 102 exceeds file length (98)
func MemoryText(w io.Writer, m *verify.MemoryResult, st Style) error {
	// strings appended, not formatted: verify-all on a large store writes
	// tens of thousands of these blocks
	id := Safe(m.Memory.ID)
	b := make([]byte, 0, 256)
	line := func(parts ...string) {
		for _, p := range parts {
			b = append(b, p...)
		}
		b = append(b, '\n')
	}
	switch {
	case m.Err() != nil:
		line(st.Red("[ERROR]"), " ", id, ": ", Safe(m.Err().Error()))
	case m.Exempt:
		line(st.Yellow("[SKIP]"), " ", id, ": exempt, not verified")
	case m.Total == 0:
		line(st.Green("[PASS]"), " ", id, ": No citations to verify")
		line("  Confidence: ", fixed2(m.Confidence), " (stored)")
		if m.Skipped > 0 {
			line("  Skipped: ", strconv.Itoa(m.Skipped), " URL citation(s)")
		}
	default:
		switch known := m.Known(); {
		case m.Stale():
			line(st.Red("[FAIL]"), " ", id, ": STALE")
		case known > 0:
			line(st.Green("[PASS]"), " ", id, ": KNOWN (stale citations all in the baseline)")
		default:
			line(st.Green("[PASS]"), " ", id, ": VALID")
		}
		line("  Citations: ", strconv.Itoa(m.ValidCount), "/", strconv.Itoa(m.Total), " valid")
		if known := m.Known(); known > 0 {
			line("  Known: ", plural(known, "stale citation"), " in the baseline, not listed")
		}
		line("  Confidence: ", fixed2(m.Confidence))
		if m.Skipped > 0 {
			line("  Skipped: ", strconv.Itoa(m.Skipped), " URL citation(s)")
		}
		for _, c := range m.StaleCitations() {
			line("  ", st.Yellow("[STALE]"), " ", Safe(c.Citation.Location()), proseWhere(c))
			line("    Reason: ", Safe(c.Reason))
			if c.Now != nil && c.Kind != verify.KindMoved && c.Kind != verify.KindEdited {
				// a snippet's verdict, and line identity knows where the lines went
				line("    Now at: ", Safe(c.Now.String()))
			}
		}
	}
	_, err := w.Write(b)
	return err
}

// fixed2 formats x as %.2f does.
func fixed2(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

// staleJSON is a stale citation in the per-memory JSON
// (docs/citation-schema.md).
type staleJSON struct {
	Path           string  `json:"path"`
	Line           *int    `json:"line"`
	LineEnd        *int    `json:"line_end,omitempty"`
	Snippet        *string `json:"snippet"`
	MismatchReason string  `json:"mismatch_reason"`
	// Kind is why it is stale (docs/citation-schema.md): not-found,
	// snippet-mismatch, moved, edited, deleted, …
	// (set for the kinds of line identity only: the other kinds keep the
	// object of the citation schema as it was).
	Kind string `json:"kind,omitempty"`
	// Now is where the cited lines are now (moved, edited), by line
	// identity; ChangedIn and ChangedCommit name the step that moved,
	// edited or deleted them.
	Now           *verify.Place `json:"now,omitempty"`
	ChangedIn     string        `json:"changed_in,omitempty"`
	ChangedCommit string        `json:"changed_commit,omitempty"`
	// Unanchored: no base commit is known; judged as written.
	Unanchored bool       `json:"unanchored,omitempty"`
	Why        *Why       `json:"why,omitempty"`
	Prose      *ProseJSON `json:"prose,omitempty"`
}

// Why is the history behind a stale citation (verify --why --json): what
// became of its lines and the step of history that made it stale.
type Why struct {
	// Status is where the lines went: unchanged, moved, changed, ambiguous
	// or gone.
	Status string `json:"status"`
	// Event is how the blamed step broke the citation: moved, edited,
	// deleted or ambiguous. Empty when no step of history is to blame.
	Event string `json:"event,omitempty"`
	// Commit, Author, Date and Subject name the blamed commit; View names
	// the blamed content view (the index or the working tree) instead.
	Commit  string `json:"commit,omitempty"`
	Author  string `json:"author,omitempty"`
	Date    string `json:"date,omitempty"`
	Subject string `json:"subject,omitempty"`
	View    string `json:"view,omitempty"`
	// Now is where the lines are now (moved, changed).
	Now *WhyLocation `json:"now,omitempty"`
	// LastSeen is the last commit that still had the lines (gone).
	LastSeen string `json:"last_seen,omitempty"`
	// Base is the commit the lines were tracked from.
	Base string `json:"base,omitempty"`
	// Message is the sentence the text output prints.
	Message string `json:"message"`
}

// WhyLocation is a line range in Why.
type WhyLocation struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	LineEnd int    `json:"line_end,omitempty"`
}

// WhyIndex holds the explanations of stale citations by memory file path
// and citation index.
type WhyIndex map[string]map[int]*Why

// memoryJSON is the per-memory JSON object (docs/citation-schema.md); Error, File and Exempt
// are additions for memories that could not be verified.
type memoryJSON struct {
	MemoryID       string       `json:"memory_id"`
	Valid          bool         `json:"valid"`
	TotalCitations int          `json:"total_citations"`
	ValidCount     *int         `json:"valid_count,omitempty"`
	Confidence     *float64     `json:"confidence,omitempty"`
	StaleCitations *[]staleJSON `json:"stale_citations,omitempty"`
	// Unanchored counts the citations of lines judged as written, their
	// base commit unknown (the memory was never committed).
	Unanchored int    `json:"unanchored,omitempty"`
	Exempt     bool   `json:"exempt,omitempty"`
	Error      string `json:"error,omitempty"`
}

func toJSON(m *verify.MemoryResult, why WhyIndex) memoryJSON {
	j := memoryJSON{MemoryID: m.Memory.ID, Valid: !m.Stale() && m.Err() == nil, TotalCitations: m.Total}
	switch {
	case m.Err() != nil:
		j.Error = m.Err().Error()
		return j
	case m.Exempt:
		j.Exempt = true
		return j
	case m.Total == 0:
		conf := m.Confidence // no citations: the stored confidence stands
		j.Confidence = &conf
		return j
	}
	vc, conf := m.ValidCount, m.Confidence
	j.ValidCount, j.Confidence = &vc, &conf
	stale := []staleJSON{}
	for _, c := range m.StaleCitations() {
		s := staleOf(*c.Citation, c.Reason)
		switch c.Kind {
		case verify.KindMoved, verify.KindEdited, verify.KindDeleted, verify.KindAmbiguous:
			s.Kind = c.Kind.String()
		}
		s.Now, s.ChangedIn, s.ChangedCommit, s.Unanchored = c.Now, c.ChangedIn, c.ChangedCommit, c.Unanchored
		s.Why = why[m.Memory.Path][c.Citation.Index]
		s.Prose = proseJSONOf(c)
		stale = append(stale, s)
	}
	for _, c := range m.Citations {
		if c.Unanchored {
			j.Unanchored++
		}
	}
	j.StaleCitations = &stale
	return j
}

func staleOf(c memfile.Citation, reason string) staleJSON {
	s := staleJSON{Path: c.Path, MismatchReason: reason}
	if c.HasLine {
		l := c.Line
		s.Line = &l
	}
	if c.LineEnd != 0 {
		e := c.LineEnd
		s.LineEnd = &e
	}
	if c.HasSnippet {
		sn := c.Snippet
		s.Snippet = &sn
	}
	return s
}

// MemoryJSON writes the per-memory JSON object for one memory. Stale citations
// with an entry in why (nil: none) get a "why" object.
func MemoryJSON(w io.Writer, m *verify.MemoryResult, why WhyIndex) error {
	return writeJSON(w, toJSON(m, why))
}

// Listed reports whether verify-all shows a memory: those with verifiable
// citations, errors or exemptions (only files with citations).
func Listed(m *verify.MemoryResult) bool {
	return m.Err() != nil || m.Total > 0 || (m.Exempt && m.Memory.File != nil && len(m.Memory.File.Citations) > 0)
}

// AllOptions tune the verify-all output.
type AllOptions struct {
	Quiet bool // only stale and failing memories
	Style Style
}

// AllText writes the blocks of every listed memory and a summary line.
func AllText(w io.Writer, r *verify.Report, o AllOptions) error {
	for i := range r.Memories {
		m := &r.Memories[i]
		if !Listed(m) || (o.Quiet && !m.Stale() && m.Err() == nil) {
			continue
		}
		if err := MemoryText(w, m, o.Style); err != nil {
			return err
		}
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, SummaryLine(r)+"\n")
	return err
}

// SummaryLine is the one-line summary of verify-all.
func SummaryLine(r *verify.Report) string {
	s := r.Summary()
	line := fmt.Sprintf("Summary: %s (%d with citations): %d valid, %d stale, %s; %s, %d stale",
		count(s.Memories, "memory", "memories"), s.WithCitations, s.Valid, s.Stale, count(s.Errors, "error", "errors"),
		count(s.Citations, "citation", "citations"), s.StaleCitations)
	if s.Citations == 0 && s.Baselined == 0 {
		// nothing was checked: "N valid" would claim what was not verified
		line = fmt.Sprintf("Summary: %s (0 with citations): no citations checked, %s",
			count(s.Memories, "memory", "memories"), count(s.Errors, "error", "errors"))
	}
	if s.Exempt > 0 {
		line += fmt.Sprintf("; %d exempt", s.Exempt)
	}
	if s.Skipped > 0 {
		line += fmt.Sprintf("; %d URL citations skipped", s.Skipped)
	}
	if s.Baselined > 0 {
		line += fmt.Sprintf("; %d known stale in the baseline", s.Baselined)
	}
	line += proseSummary(r)
	return line + fmt.Sprintf(" (%s, %.1fms)", r.Source, float64(r.Elapsed.Microseconds())/1000)
}

type allJSON struct {
	Source   string       `json:"source"`
	Summary  summaryJSON  `json:"summary"`
	Memories []memoryJSON `json:"memories"`
	Warnings []string     `json:"warnings"`
}

type summaryJSON struct {
	verify.Summary
	Prose     *verify.ProseSummary `json:"prose,omitempty"`
	ElapsedMS float64              `json:"elapsed_ms"`
}

// AllJSON writes one document: the source, the summary and the listed
// memories' objects, plus parse warnings.
func AllJSON(w io.Writer, r *verify.Report) error {
	doc := allJSON{Source: r.Source, Memories: []memoryJSON{}, Warnings: []string{}}
	doc.Summary = summaryJSON{Summary: r.Summary(), ElapsedMS: float64(r.Elapsed.Microseconds()) / 1000}
	if ps := r.ProseSummary(); ps != (verify.ProseSummary{}) {
		doc.Summary.Prose = &ps
	}
	for i := range r.Memories {
		m := &r.Memories[i]
		if Listed(m) {
			doc.Memories = append(doc.Memories, toJSON(m, nil))
		}
		if m.Memory.File != nil {
			for _, d := range m.Memory.File.Warnings {
				doc.Warnings = append(doc.Warnings, d.String())
			}
		}
	}
	return writeJSON(w, doc)
}

// writeJSON writes v as indented JSON. Beyond what encoding/json escapes
// (C0 controls, U+2028, U+2029), the characters Safe escapes in text (C1
// controls such as U+009B CSI, bidi overrides, U+FEFF) are written as
// \uXXXX too: they only occur inside strings, where the escape means the
// same character, and a terminal or log viewer never acts on them.
func writeJSON(w io.Writer, v any) error {
	out, err := encodeJSON(v, "")
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// encodeJSON encodes v as writeJSON writes it, every line after the first
// starting with prefix.
func encodeJSON(v any, prefix string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	out := buf.Bytes()
	if bytes.ContainsFunc(out, func(r rune) bool { return r >= 0x80 && isControl(r) }) {
		var b bytes.Buffer
		for _, r := range string(out) {
			if r >= 0x80 && isControl(r) {
				fmt.Fprintf(&b, "\\u%04x", r)
				continue
			}
			b.WriteRune(r)
		}
		out = b.Bytes()
	}
	return out, nil
}

// JSONArray writes a JSON array as writeJSON writes a slice, an element
// at a time: a long one is never held whole (twice: encoding/json's
// buffer and ours).
type JSONArray struct {
	w     io.Writer
	depth int // the objects and arrays around it
	n     int
	err   error
}

// NewJSONArray starts a top-level array on w.
func NewJSONArray(w io.Writer) *JSONArray { return &JSONArray{w: w} }

// Add writes an element.
func (a *JSONArray) Add(v any) error {
	if a.err != nil {
		return a.err
	}
	pad := strings.Repeat("  ", a.depth+1)
	e, err := encodeJSON(v, pad)
	if err != nil {
		a.err = err
		return err
	}
	sep := ",\n"
	if a.n == 0 {
		sep = "[\n"
	}
	a.n++
	if _, a.err = io.WriteString(a.w, sep+pad); a.err == nil {
		_, a.err = a.w.Write(bytes.TrimSuffix(e, []byte("\n")))
	}
	return a.err
}

// end closes the array.
func (a *JSONArray) end() error {
	if a.err != nil {
		return a.err
	}
	end := "\n" + strings.Repeat("  ", a.depth) + "]"
	if a.n == 0 {
		end = "[]"
	}
	_, a.err = io.WriteString(a.w, end)
	return a.err
}

// Close ends a top-level array and its line.
func (a *JSONArray) Close() error {
	if err := a.end(); err != nil {
		return err
	}
	_, a.err = io.WriteString(a.w, "\n")
	return a.err
}

// writeJSONList writes v as writeJSON does, with the array of n elements
// (elem(i) each) in place of the field key, which v's encoding holds as
// `"key": null`, at the given depth (the number of objects and arrays
// around it), written as a JSONArray.
func writeJSONList(w io.Writer, v any, key string, depth, n int, elem func(int) any) error {
	doc, err := encodeJSON(v, "")
	if err != nil {
		return err
	}
	marker := []byte("\n" + strings.Repeat("  ", depth) + `"` + key + `": null`)
	i := bytes.Index(doc, marker)
	if i < 0 || bytes.Contains(doc[i+len(marker):], marker) {
		return fmt.Errorf("render: %q is not a field of the document", key)
	}
	head, tail := doc[:i+len(marker)-len("null")], doc[i+len(marker):]
	if _, err := w.Write(head); err != nil {
		return err
	}
	a := &JSONArray{w: w, depth: depth}
	for j := 0; j < n; j++ {
		if err := a.Add(elem(j)); err != nil {
			return err
		}
	}
	if err := a.end(); err != nil {
		return err
	}
	_, err = w.Write(tail)
	return err
}

// Safe escapes control characters (ANSI escapes, OSC sequences, carriage
// returns) so that text from memory files and repositories cannot drive
// the terminal.
func Safe(s string) string {
	clean := true
	for _, r := range s {
		if isControl(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			q := fmt.Sprintf("%q", string(r))
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool {
	return (r < 0x20 && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029 || r == 0xfeff || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// MemoriesJSON writes a JSON array of per-memory objects, with "why"
// objects as in MemoryJSON.
func MemoriesJSON(w io.Writer, r *verify.Report, why WhyIndex) error {
	out := make([]memoryJSON, 0, len(r.Memories))
	for i := range r.Memories {
		out = append(out, toJSON(&r.Memories[i], why))
	}
	return writeJSON(w, out)
}
