package agenthook

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/git-memcite/git-memcite/internal/cite"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// Written is what the hook found about a memory an agent just wrote or
// edited: the citations and prose references that do not hold in the
// working tree right now.
type Written struct {
	Memory *store.Memory
	Exempt bool // exempt: true, not verified
	Total  int  // verifiable citations, and prose references checked
	Wrong  []Wrong
	// Unpinned counts the citations that hold but name no commit, which
	// git memcite verify --record records.
	Unpinned int
	// Pinned counts the citations the hook pinned to PinCommit itself
	// (agent_hook: pin); PinNote says why it pinned none, when it tried.
	Pinned    int
	PinCommit string
	PinNote   string
}

// Wrong is one citation or prose reference that does not hold.
type Wrong struct {
	Citation memfile.Citation // where it points (for prose: path and lines)
	// Prose: a path:line in the memory's body, on line BodyLine of the
	// memory file, not a citation of its frontmatter.
	Prose    bool
	BodyLine int
	Kind     verify.Kind // why (verify's kinds; KindPastEOF, or blank below, for prose)
	Blank    bool        // prose: the line named is blank
	Reason   string
	// Found is the text on the cited line now ("" when the file has no
	// such line or cannot be read); Lines is the file's length when read.
	Found string
	Lines int
	// Nearest is the line nearest the cited one that holds the cited
	// text (the snippet's first line), 0 when none does.
	Nearest int
}

// CheckWritten verifies memory m, just written, against src (the working
// tree), as git memcite verify does, and checks the path:line references
// in its body (cite.FindMentions) that name a file of src: a line past
// the end or a blank line is wrong. Nothing is followed through the
// history: the agent that wrote the memory has the code in front of it.
// cache is the verification cache (nil: none).
func CheckWritten(ctx context.Context, src source.Source, m *store.Memory, cache *vcache.Cache) (*Written, error) {
	w := &Written{Memory: m}
	if m.Err != nil || m.File == nil {
		return w, nil
	}
	rep, err := verify.Check(ctx, src, []*store.Memory{m}, verify.Options{Cache: cache})
	if err != nil {
		return nil, err
	}
	mr := &rep.Memories[0]
	w.Exempt, w.Total = mr.Exempt, mr.Total
	if w.Exempt {
		return w, nil
	}
	files := fileCache{src: src}
	cited := map[string]bool{}
	for _, c := range mr.Citations {
		cc := *c.Citation
		cited[location(cc)] = true
		switch c.Status {
		case verify.Valid:
			if cc.Form == memfile.FormMapping && cc.Commit == "" {
				w.Unpinned++
			}
		case verify.Stale:
			wr := Wrong{Citation: cc, Kind: c.Kind, Reason: c.Reason}
			if lines, ok := files.lines(cc.Path); ok && cc.HasLine {
				wr.Lines = len(lines)
				if cc.Line >= 1 && cc.Line <= len(lines) {
					wr.Found = strings.TrimSpace(lines[cc.Line-1])
				}
				if cc.HasSnippet {
					wr.Nearest = nearest(lines, cc.Snippet, cc.Line)
				}
			}
			w.Wrong = append(w.Wrong, wr)
		}
	}
	for _, mn := range cite.FindMentions(m.File) {
		c, ok := mentionCitation(mn.Text)
		if !ok || cited[location(c)] {
			continue
		}
		cited[location(c)] = true
		lines, ok := files.lines(c.Path)
		if !ok {
			continue // not a file of the working tree as written: not a reference it can check
		}
		w.Total++
		end := max(c.Line, c.LineEnd)
		wr := Wrong{Citation: c, Prose: true, BodyLine: mn.Line, Lines: len(lines)}
		switch {
		case end > len(lines):
			wr.Kind, wr.Reason = verify.KindPastEOF, fmt.Sprintf("Line %d exceeds file length (%d)", end, len(lines))
		case blank(lines[c.Line-1 : end]):
			wr.Blank, wr.Reason = true, fmt.Sprintf("line %d is blank", c.Line)
			if end > c.Line {
				wr.Reason = fmt.Sprintf("lines %d-%d are blank", c.Line, end)
			}
		default:
			continue
		}
		w.Wrong = append(w.Wrong, wr)
	}
	return w, nil
}

// location is a citation's path:line[-end], the key that keeps a prose
// reference from being checked twice.
func location(c memfile.Citation) string {
	p, err := source.Clean(c.Path)
	if err != nil {
		p = c.Path
	}
	if !c.HasLine {
		return p
	}
	if c.LineEnd > c.Line {
		return fmt.Sprintf("%s:%d-%d", p, c.Line, c.LineEnd)
	}
	return fmt.Sprintf("%s:%d", p, c.Line)
}

// mentionRe reads a path:line reference as cite.FindMentions returns it:
// path:12, path:12-20, path#L12, path#L12-L20.
var mentionRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(.+?)(?::(\d+)(?:-(\d+))?|#L(\d+)(?:-L?(\d+))?)$`)
})

// mentionCitation turns a path:line reference of a memory's body into a
// citation; false for a mention without a line (a path alone) or with a
// line that cannot be one.
func mentionCitation(text string) (memfile.Citation, bool) {
	m := mentionRe().FindStringSubmatch(text)
	if m == nil {
		return memfile.Citation{}, false
	}
	a, b := m[2], m[3]
	if a == "" {
		a, b = m[4], m[5]
	}
	line, err := strconv.Atoi(a)
	if err != nil || line < 1 {
		return memfile.Citation{}, false
	}
	c := memfile.Citation{Path: m[1], Line: line, HasLine: true}
	if b != "" {
		end, err := strconv.Atoi(b)
		if err != nil || end < line {
			return memfile.Citation{}, false
		}
		if end > line {
			c.LineEnd = end
		}
	}
	if _, err := source.Clean(c.Path); err != nil {
		return memfile.Citation{}, false
	}
	return c, true
}

// blank reports whether every line holds only white space.
func blank(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}

// nearest is the line (1-based) nearest to line that holds the snippet's
// first non-blank line, 0 when none does; of two as near, the earlier.
func nearest(lines []string, snippet string, line int) int {
	want := ""
	for _, l := range strings.Split(strings.ReplaceAll(snippet, "\r\n", "\n"), "\n") {
		if want = strings.TrimSpace(l); want != "" {
			break
		}
	}
	if want == "" {
		return 0
	}
	best := 0
	for i, l := range lines {
		if !strings.Contains(l, want) {
			continue
		}
		n := i + 1
		if best == 0 || abs(n-line) < abs(best-line) {
			best = n
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// fileCache reads each cited file of the working tree once, as lines;
// false for a file that is missing, not regular or not text.
type fileCache struct {
	src  source.Source
	seen map[string][]string
	bad  map[string]bool
}

func (fc *fileCache) lines(p string) ([]string, bool) {
	cp, err := source.Clean(p)
	if err != nil {
		return nil, false
	}
	if l, ok := fc.seen[cp]; ok {
		return l, true
	}
	if fc.bad[cp] {
		return nil, false
	}
	if fc.seen == nil {
		fc.seen, fc.bad = map[string][]string{}, map[string]bool{}
	}
	data, err := fc.src.ReadFile(cp)
	if err != nil || strings.IndexByte(string(data[:min(len(data), 8000)]), 0) >= 0 {
		fc.bad[cp] = true
		return nil, false
	}
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	s = strings.TrimSuffix(s, "\n")
	var l []string
	if s != "" || len(data) > 0 {
		l = strings.Split(s, "\n")
	}
	fc.seen[cp] = l
	return l, true
}
