// Package cite plans changes to the citations of one memory file: add a
// citation (checked now, its snippet, commit and verified stamp filled
// in), remove one, set or recompute the confidence, and adopt the informal
// citations written in a memory's body. Every plan is a set of
// memfile edits already applied and checked with memfile.Rewrite; the
// caller writes Plan.New with memfile.WriteFile(path, Plan.Old, Plan.New).
package cite

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// Plan is a checked rewrite of a memory file.
type Plan struct {
	Old, New []byte
	File     *memfile.File // the file as it will be
	Changed  bool          // New differs from Old
}

// rewrite applies edits through memfile.Rewrite.
func rewrite(f *memfile.File, edits []memfile.Edit) (*Plan, error) {
	out, nf, err := memfile.Rewrite(f, edits)
	if err != nil {
		return nil, err
	}
	return &Plan{Old: f.Src, New: out, File: nf, Changed: string(out) != string(f.Src)}, nil
}

// Env is what planning reads besides the memory: the working tree, and
// the HEAD commit to stamp citations whose file is unchanged since.
type Env struct {
	Src     source.Source // content citations are checked against
	Head    source.Source // HEAD's tree; nil without commits
	HeadRev string        // HEAD's hash
	Now     time.Time
	// Anchor, when set, anchors adopted mentions where their words were
	// written (Adopt).
	Anchor Anchorer
	// Prose, when set, resolves the references of a memory's prose where
	// their words were written (prose.Resolver); without it Adopt judges
	// them against Src, as written now.
	Prose ProseResolver
	// MemoryDirs are the memory directories: a mention of a file below
	// them is a memory link, not a code citation (Adopt).
	MemoryDirs []string
}

// Stamp is the verified timestamp for now (RFC 3339, UTC, seconds).
func (e Env) Stamp() memfile.Timestamp {
	return memfile.Timestamp(e.Now.UTC().Format(time.RFC3339))
}

// commitFor returns HEAD's hash when p has the same content in the working
// tree and at HEAD, else "".
func (e Env) commitFor(p string) string {
	if e.Head == nil {
		return ""
	}
	now, err := e.Src.ReadFile(p)
	if err != nil {
		return ""
	}
	then, err := e.Head.ReadFile(p)
	if err != nil || string(now) != string(then) {
		return ""
	}
	return e.HeadRev
}

// ErrStale is returned by Add when the citation does not verify.
var ErrStale = errors.New("citation does not verify")

// ErrDuplicate is returned by Add when the memory already cites the
// location.
var ErrDuplicate = errors.New("already cited")

// AddOptions tune Add.
type AddOptions struct {
	Snippet    string // the expected text; filled from the cited line when empty
	HasSnippet bool   // Snippet was given (even if empty: no snippet)
	Force      bool   // add a citation that does not verify
}

// Appended describes the citation Add appends.
type Appended struct {
	Citation memfile.Citation
	AsString bool   // written as a shorthand string (Cortex style)
	Reason   string // why it does not verify ("" when it does)
	Note     string // e.g. why no snippet was filled in
}

// Add plans appending the citation loc ("path", "path:17", "path:17-28"
// or a URL) to f. The citation is checked against env.Src; one that does
// not verify is refused (ErrStale) unless opt.Force. The snippet is the
// trimmed cited line (the first line of a range) unless given; commit is
// HEAD when the file is unchanged since HEAD; verified is now. When every
// citation of f is a shorthand string, the new one is a string too, with
// only its location.
//
// The steps: parse and check the location (parseLocation), refuse a
// duplicate, choose the form, fill in the snippet (fillSnippet), verify,
// then write the fields (citationFields).
func Add(ctx context.Context, f *memfile.File, env Env, loc string, opt AddOptions) (*Plan, *Appended, error) {
	c, err := parseLocation(loc)
	if err != nil {
		return nil, nil, err
	}
	for _, old := range f.Citations {
		if sameLocation(old, c) {
			return nil, nil, fmt.Errorf("%s: %w as citation %d", c.Location(), ErrDuplicate, old.Index+1)
		}
	}
	a := &Appended{AsString: len(f.Citations) > 0}
	for _, old := range f.Citations {
		if old.Form != memfile.FormString {
			a.AsString = false
		}
	}
	if c.URL == "" && c.HasLine && !a.AsString {
		a.Note = fillSnippet(&c, env.Src, opt)
	}
	a.Reason, err = verify.One(ctx, env.Src, c)
	if err != nil {
		return nil, nil, err
	}
	if a.Reason != "" && !opt.Force {
		return nil, a, fmt.Errorf("%s: %w: %s (use --force to add it anyway)", c.Location(), ErrStale, a.Reason)
	}
	edits, err := f.AppendCitation(a.AsString, citationFields(&c, env, a)...)
	if err != nil {
		return nil, nil, err
	}
	p, err := rewrite(f, edits)
	if err != nil {
		return nil, nil, err
	}
	a.Citation = c
	return p, a, nil
}

// parseLocation parses a citation's location: a URL, or a clean
// repository path with valid lines.
func parseLocation(loc string) (memfile.Citation, error) {
	c, err := memfile.ParseShorthand(loc)
	if err != nil || c.URL != "" {
		return c, err
	}
	clean, err := source.Clean(c.Path)
	if err != nil {
		return c, fmt.Errorf("%s: %w", c.Path, err)
	}
	c.Path = clean
	if c.HasLine && c.Line < 1 {
		return c, fmt.Errorf("invalid line number: %d (must be >= 1)", c.Line)
	}
	if c.LineEnd != 0 && c.LineEnd < c.Line {
		return c, fmt.Errorf("invalid line range: %d-%d (end before start)", c.Line, c.LineEnd)
	}
	return c, nil
}

// fillSnippet sets c's snippet: the one given, else the cited line
// trimmed. It returns a note when the line is blank (no snippet).
func fillSnippet(c *memfile.Citation, src source.Source, opt AddOptions) (note string) {
	if opt.HasSnippet {
		c.Snippet, c.HasSnippet = opt.Snippet, opt.Snippet != ""
		return ""
	}
	text, ok := lineText(src, c.Path, c.Line)
	switch {
	case !ok:
	case strings.TrimSpace(text) == "":
		return fmt.Sprintf("line %d is blank; no snippet recorded", c.Line)
	default:
		c.Snippet, c.HasSnippet = strings.TrimSpace(text), true
	}
	return ""
}

// citationFields returns the fields written for c: its location, and
// unless written as a string, its snippet and, when it verifies, the
// commit (recorded in c too) and verified time.
func citationFields(c *memfile.Citation, env Env, a *Appended) []memfile.Field {
	var fields []memfile.Field
	if c.URL != "" {
		fields = append(fields, memfile.Field{Key: "path", Value: c.URL})
	} else {
		fields = append(fields, memfile.Field{Key: "path", Value: c.Path})
	}
	if c.HasLine {
		fields = append(fields, memfile.Field{Key: "line", Value: c.Line})
		if c.LineEnd != 0 && c.LineEnd != c.Line {
			fields = append(fields, memfile.Field{Key: "line_end", Value: c.LineEnd})
		}
	}
	if a.AsString {
		return fields
	}
	if c.HasSnippet {
		fields = append(fields, memfile.Field{Key: "snippet", Value: c.Snippet})
	}
	if c.URL == "" && a.Reason == "" {
		if rev := env.commitFor(c.Path); rev != "" {
			fields = append(fields, memfile.Field{Key: "commit", Value: rev})
			c.Commit = rev
		}
		fields = append(fields, memfile.Field{Key: "verified", Value: env.Stamp()})
		c.Verified = string(env.Stamp())
	}
	return fields
}

// sameLocation reports whether two citations point at the same place.
func sameLocation(a, b memfile.Citation) bool {
	if a.URL != "" || b.URL != "" {
		return a.URL == b.URL
	}
	endA, endB := a.LineEnd, b.LineEnd
	if endA == a.Line {
		endA = 0
	}
	if endB == b.Line {
		endB = 0
	}
	return cleanOr(a.Path) == cleanOr(b.Path) && a.HasLine == b.HasLine && a.Line == b.Line && endA == endB
}

func cleanOr(p string) string {
	if c, err := source.Clean(p); err == nil {
		return c
	}
	return p
}

// lineText returns line n (1-based) of p without its line break.
func lineText(src source.Source, p string, n int) (string, bool) {
	data, err := src.ReadFile(p)
	if err != nil {
		return "", false
	}
	lines := splitLines(string(data))
	if n < 1 || n > len(lines) {
		return "", false
	}
	return lines[n-1], true
}

// splitLines splits at LF, CRLF or CR, without the breaks; a final break
// does not start another line.
func splitLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// Remove plans removing one citation, named by its 1-based index or by its
// location ("path", "path:17", "path:17-28"). A location that matches
// several citations is an error naming them.
func Remove(f *memfile.File, which string) (*Plan, memfile.Citation, error) {
	idx := -1
	if n, err := strconv.Atoi(which); err == nil {
		if n < 1 || n > len(f.Citations) {
			return nil, memfile.Citation{}, fmt.Errorf("%s has %d citation(s); no citation %d", f.Name, len(f.Citations), n)
		}
		idx = n - 1
	} else {
		want, err := memfile.ParseShorthand(which)
		if err != nil {
			return nil, memfile.Citation{}, err
		}
		var hits []int
		for _, c := range f.Citations {
			if sameLocation(c, want) {
				hits = append(hits, c.Index)
			}
		}
		switch len(hits) {
		case 0:
			return nil, memfile.Citation{}, fmt.Errorf("%s has no citation %s", f.Name, which)
		case 1:
			idx = hits[0]
		default:
			return nil, memfile.Citation{}, fmt.Errorf("%s cites %s %d times (citations %v); give the index", f.Name, which, len(hits), plusOne(hits))
		}
	}
	edits, err := f.RemoveCitation(idx)
	if err != nil {
		return nil, memfile.Citation{}, err
	}
	p, err := rewrite(f, edits)
	if err != nil {
		return nil, memfile.Citation{}, err
	}
	return p, f.Citations[idx], nil
}

func plusOne(idx []int) []int {
	out := make([]int, len(idx))
	for i, x := range idx {
		out[i] = x + 1
	}
	return out
}

// SetConfidence plans writing confidence = value (0 to 1) and, when stamp
// is not empty, last_verified = stamp. A file that already holds the values is
// left unchanged (Plan.Changed false).
func SetConfidence(f *memfile.File, value float64, stamp memfile.Timestamp) (*Plan, error) {
	if value < 0 || value > 1 {
		return nil, fmt.Errorf("confidence %v is outside 0 to 1", value)
	}
	var fields []memfile.Field
	if !f.HasConfidence || f.Confidence != value {
		fields = append(fields, memfile.Field{Key: "confidence", Value: value})
	}
	if stamp != "" {
		fields = append(fields, memfile.Field{Key: "last_verified", Value: stamp})
	}
	if len(fields) == 0 {
		return &Plan{Old: f.Src, New: f.Src, File: f}, nil
	}
	edits, err := f.SetTop(fields...)
	if err != nil {
		return nil, err
	}
	return rewrite(f, edits)
}
