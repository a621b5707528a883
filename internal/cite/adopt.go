package cite

import (
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/prose"
	"github.com/git-memcite/git-memcite/internal/source"
)

// Mention outcomes.
const (
	Proposed  = "proposed"  // a structured citation can be added
	Added     = "added"     // it was added (--fix)
	Ambiguous = "ambiguous" // several tracked files match
	NotFound  = "not-found" // no tracked file matches
	Trivial   = "trivial"   // the cited line is blank or only punctuation
	Invalid   = "invalid"   // the line is past the end of the file, or the range is reversed
	Duplicate = "duplicate" // the memory already cites it (or mentions it twice)
	// Unanchored: the mention cannot be placed with confidence where its
	// words were written (the cited line then shares nothing with the
	// sentence, the file did not exist, the sentence says the number is
	// wrong, or the line cannot be followed to today).
	Unanchored = "unanchored"
	// MemoryLink: the mention names another memory, not code: it is a
	// link (verify checks it in the prose), never a code citation.
	MemoryLink = "memory-link"
)

// Anchorer places a mention where its words were written: it finds the
// commit that wrote the memory file's line, reads the cited lines there
// and follows them to today. A line no commit holds yet was written now.
type Anchorer interface {
	AnchorMention(ctx context.Context, memPath, bodyLine, path string, line, end int) (Anchored, error)
}

// Anchored is where a mention's lines were when it was written, and where
// they are now.
type Anchored struct {
	Commit    string   // the commit that wrote the memory line; "" when not committed
	Then      []string // the cited lines at that commit
	File      []string // every line of the cited file at that commit
	Path      string   // where they are now
	Line, End int
	Lost      string // why they cannot be placed; "" when they can
}

// Mention is an informal citation found in a memory's body.
type Mention struct {
	Line       int      `json:"line"`                 // line of the memory file
	Text       string   `json:"text"`                 // as written
	Kind       string   `json:"kind"`                 // cite-markup, path-line, backticked-path, bare-filename
	Status     string   `json:"status"`               // one of the outcomes above
	Location   string   `json:"location"`             // the resolved citation, path[:line[-end]]
	Snippet    string   `json:"snippet"`              // for proposed and added ones
	Commit     string   `json:"commit"`               // HEAD when the file is unchanged since
	Candidates []string `json:"candidates"`           // for ambiguous ones
	Reason     string   `json:"reason"`               // why it is not proposed
	WrittenAt  string   `json:"written_at,omitempty"` // the commit that wrote the words, when anchored there

	col  int    // byte offset in the line, for ordering
	body string // the whole line of the memory body
}

// Tracked is the set of files citations may point to (the index, or HEAD's
// tree), with a lookup by file name.
type Tracked struct {
	paths  map[string]bool
	byBase map[string][]string
	all    []string
}

// NewTracked indexes repo-relative paths.
func NewTracked(paths []string) *Tracked {
	t := &Tracked{paths: make(map[string]bool, len(paths)), byBase: map[string][]string{}, all: paths}
	for _, p := range paths {
		t.paths[p] = true
		b := path.Base(p)
		t.byBase[b] = append(t.byBase[b], p)
	}
	return t
}

// resolve finds the tracked file a written path names: itself, else the
// only tracked path ending in "/"+p (a path written relative to a
// subfolder), else by file name when p has no folder.
func (t *Tracked) resolve(p string) (string, []string) {
	p = strings.TrimPrefix(p, "./")
	if !strings.Contains(p, "/") {
		// a bare name several files have is ambiguous, even when one of
		// them is at the root (README.md, go.mod)
		if hits := t.byBase[p]; len(hits) != 1 {
			return "", hits
		}
		return t.byBase[p][0], nil
	}
	if t.paths[p] {
		return p, nil
	}
	var hits []string
	if strings.Contains(p, "/") {
		for _, q := range t.byBase[path.Base(p)] {
			if strings.HasSuffix(q, "/"+p) {
				hits = append(hits, q)
			}
		}
	} else {
		hits = t.byBase[p]
	}
	if len(hits) == 1 {
		return hits[0], nil
	}
	return "", hits
}

var (
	// [cite:code](path:12) and [cite:file](path), the markup of ai-agents' Gen3.
	citeMarkupRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[cite:(\w+)\]\(([^)\s]+)\)`) })
	// a file name: with an extension, or one of the usual names without.
	fileName = `(?:[\w.-]+/)*(?:[\w-][\w.-]*\.[A-Za-z]\w*|Makefile|Dockerfile|Containerfile|Justfile|Rakefile|Gemfile|Jenkinsfile|Procfile|Vagrantfile)`
	// path:12, path:12-20, path#L12-L20.
	pathLineRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[^\w./:-])(` + fileName + `)(?::(\d{1,7})(?:-(\d{1,7}))?|#L(\d{1,7})(?:-L?(\d{1,7}))?)`)
	})
	// `some/path.ext` or `file.ext` in backticks, without a line.
	backtickRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`(" + fileName + ")`") })
	fenceRe    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^\\s*(```|~~~)") })
	trivialRe  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[\s{}()\[\];,.:]*$|^\s*(end|else|fi|done|esac|\*/|/\*|//|#|--)\s*$`)
	})
)

// FindMentions lists the informal citations in the body of f (fenced code
// blocks are skipped): [cite:…](…) markup, path:line and path:a-b (also
// #L12-L20), and backticked file paths. Each is returned with Line, Text
// and Kind set, in order.
func FindMentions(f *memfile.File) []Mention {
	var out []Mention
	lines := strings.Split(string(f.Body()), "\n")
	first := f.BodyLine()
	inFence := false
	for k, l := range lines {
		l = strings.TrimRight(l, "\r")
		if fenceRe().MatchString(l) {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		line := first + k
		taken := make([]bool, len(l)) // bytes already part of a mention
		take := func(a, b int) bool {
			for i := a; i < b; i++ {
				if taken[i] {
					return false
				}
			}
			for i := a; i < b; i++ {
				taken[i] = true
			}
			return true
		}
		for _, m := range citeMarkupRe().FindAllStringSubmatchIndex(l, -1) {
			typ := l[m[2]:m[3]]
			if typ != "code" && typ != "file" {
				continue
			}
			take(m[0], m[1])
			out = append(out, Mention{Line: line, Text: l[m[0]:m[1]], Kind: "cite-markup", col: m[0], body: l})
		}
		for _, m := range pathLineRe().FindAllStringSubmatchIndex(l, -1) {
			if !take(m[2], m[1]) {
				continue
			}
			kind := "path-line"
			if !strings.Contains(l[m[2]:m[3]], "/") {
				kind = "bare-filename"
			}
			out = append(out, Mention{Line: line, Text: l[m[2]:m[1]], Kind: kind, col: m[2], body: l})
		}
		for _, m := range backtickRe().FindAllStringSubmatchIndex(l, -1) {
			if !take(m[0], m[1]) {
				continue
			}
			kind := "backticked-path"
			if !strings.Contains(l[m[2]:m[3]], "/") {
				kind = "bare-filename"
			}
			out = append(out, Mention{Line: line, Text: l[m[2]:m[3]], Kind: kind, col: m[2], body: l})
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].Line != out[b].Line {
			return out[a].Line < out[b].Line
		}
		return out[a].col < out[b].col
	})
	return out
}

// target splits a mention into the written path and lines.
func (m Mention) target() (p string, line, end int) {
	t := m.Text
	if m.Kind == "cite-markup" {
		t = citeMarkupRe().FindStringSubmatch(t)[2]
	}
	if i := strings.Index(t, "#L"); i >= 0 {
		p, t = t[:i], strings.ReplaceAll(t[i+2:], "L", "")
		a, b, _ := strings.Cut(t, "-")
		line, _ = strconv.Atoi(a)
		end, _ = strconv.Atoi(b)
		return p, line, end
	}
	if i := strings.LastIndexByte(t, ':'); i >= 0 {
		if a, b, _ := strings.Cut(t[i+1:], "-"); a != "" {
			if n, err := strconv.Atoi(a); err == nil {
				line = n
				end, _ = strconv.Atoi(b)
				return t[:i], line, end
			}
		}
	}
	return t, 0, 0
}

// Adopt finds the informal citations of f, resolves them against the
// tracked files and proposes structured citations (snippet, commit and
// verified filled in). Blank or trivial lines, lines past the end,
// unknown and ambiguous files and duplicates are reported, not proposed;
// a backticked bare name that matches no tracked file (`graph.New`) is
// taken for code and left out.
// With fix the proposals are added (as Add would, one after another) and
// the plan is returned; otherwise the plan is nil.
//
// With env.Anchor, a mention with lines is anchored where its words were
// written (anchor.go): the lines it named then, checked against the words
// of its sentence, followed to today; one that cannot be anchored with
// confidence is reported Unanchored, never proposed.
func Adopt(ctx context.Context, f *memfile.File, env Env, tracked *Tracked, fix bool) ([]Mention, *Plan, error) {
	ms := withoutCode(FindMentions(f), tracked)
	ad := &adoption{f: f, cur: f, env: env, tracked: tracked, seen: map[string]bool{}}
	for i := range ms {
		m := &ms[i]
		ok, err := ad.propose(ctx, m)
		if err != nil {
			return nil, nil, err
		}
		if !ok || !fix {
			continue
		}
		if err := ad.add(ctx, m); err != nil {
			return nil, nil, err
		}
	}
	return ms, ad.plan, nil
}

// withoutCode leaves out the backticked names without a folder or a line
// that name no tracked file: code (`graph.New`, `os.Exit`), not citations.
func withoutCode(found []Mention, tracked *Tracked) []Mention {
	ms := found[:0]
	for _, m := range found {
		if p, cands := tracked.resolve(m.Text); m.Kind == "bare-filename" && !strings.Contains(m.Text, ":") &&
			!strings.Contains(m.Text, "#L") && p == "" && len(cands) == 0 {
			continue
		}
		ms = append(ms, m)
	}
	return ms
}

// adoption is one memory's adoption under way: the file as edited so
// far, the plan and the locations already proposed.
type adoption struct {
	f       *memfile.File
	cur     *memfile.File
	plan    *Plan
	env     Env
	tracked *Tracked
	seen    map[string]bool
}

// propose judges one mention: its file (resolveFile), where its words
// were written (env.Anchor), duplicates and its lines (checkLines). It
// reports whether the mention is Proposed; otherwise its status says why
// not.
func (ad *adoption) propose(ctx context.Context, m *Mention) (bool, error) {
	m.Candidates = []string{}
	written, line, end := m.target()
	p, gone, ok := ad.resolveFile(m, written, line)
	if !ok {
		return false, nil
	}
	if inDirs(p, ad.env.MemoryDirs) {
		m.Status, m.Reason = MemoryLink, "a memory, not code: verify checks it as a link of the prose"
		return false, nil
	}
	var anchored *Anchored
	if line > 0 && ad.env.Anchor != nil {
		a, err := ad.env.Anchor.AnchorMention(ctx, ad.f.Name, m.body, p, line, end)
		if err != nil {
			return false, err
		}
		if a.Lost != "" && gone {
			m.Status, m.Reason = NotFound, "no tracked file "+written+" ("+a.Lost+")"
			return false, nil
		}
		if a.Lost == "" {
			m.WrittenAt = a.Commit
			p, line, end = a.Path, a.Line, a.End
		}
		anchored = &a
	}
	m.Location = locationOf(p, line, end)
	if !ad.checkLines(m, p, line, end) {
		return false, nil
	}
	if anchored != nil {
		if why := unanchored(m, *anchored); why != "" {
			m.Status, m.Reason = Unanchored, why
			return false, nil
		}
	}
	m.Status = Proposed
	m.Commit = ad.env.commitFor(p)
	return true, nil
}

// resolveFile finds the tracked file a mention names as written. gone: not
// tracked now, but with lines and an anchor to follow it from where it
// was when the words were written (a file renamed or moved since).
func (ad *adoption) resolveFile(m *Mention, written string, line int) (p string, gone, ok bool) {
	p, cands := ad.tracked.resolve(written)
	switch {
	case p == "" && len(cands) > 1:
		m.Status, m.Candidates = Ambiguous, cands
		m.Reason = fmt.Sprintf("%d tracked files are named %s", len(cands), path.Base(written))
		return "", false, false
	case p == "" && line > 0 && ad.env.Anchor != nil && strings.Contains(written, "/"):
		return strings.TrimPrefix(written, "./"), true, true
	case p == "":
		m.Status, m.Reason = NotFound, "no tracked file "+written
		return "", false, false
	}
	return p, false, true
}

// locationOf is a citation's location: path, path:line or path:line-end.
func locationOf(p string, line, end int) string {
	switch {
	case line <= 0:
		return p
	case end > 0 && end != line:
		return fmt.Sprintf("%s:%d-%d", p, line, end)
	}
	return fmt.Sprintf("%s:%d", p, line)
}

// checkLines refuses a mention already cited (or proposed) and one whose
// lines are past the end, backwards, blank or trivial; it fills in the
// snippet of the others.
func (ad *adoption) checkLines(m *Mention, p string, line, end int) bool {
	want, _ := memfile.ParseShorthand(m.Location)
	dup := ad.seen[m.Location]
	for _, c := range ad.cur.Citations {
		dup = dup || sameLocation(c, want)
	}
	if dup {
		m.Status, m.Reason = Duplicate, "already cited"
		return false
	}
	ad.seen[m.Location] = true
	if line <= 0 {
		return true
	}
	text, ok := lineText(ad.env.Src, p, line)
	switch {
	case !ok:
		m.Status, m.Reason = Invalid, fmt.Sprintf("line %d is past the end of %s", line, p)
		return false
	case end > 0 && end < line:
		m.Status, m.Reason = Invalid, fmt.Sprintf("range %d-%d ends before it starts", line, end)
		return false
	case end > line:
		// a range's snippet is its most distinctive line, not its first
		// (which may be blank, or an if that recurs in the file)
		if s := rangeSnippet(ad.env.Src, p, line, end); s != "" {
			m.Snippet = s
			return true
		}
		m.Status, m.Reason = Trivial, fmt.Sprintf("lines %d-%d are blank or trivial", line, end)
		return false
	case trivialRe().MatchString(text):
		m.Status, m.Reason = Trivial, fmt.Sprintf("line %d is blank or trivial (%q)", line, strings.TrimSpace(text))
		return false
	}
	m.Snippet = strings.TrimSpace(text)
	return true
}

// rangeSnippet is the most distinctive line of lines line-end of p
// (prose.Distinctive), "" when they are all trivial or cannot be read.
func rangeSnippet(src source.Source, p string, line, end int) string {
	data, err := src.ReadFile(p)
	if err != nil {
		return ""
	}
	all := splitLines(string(data))
	if line < 1 || end > len(all) {
		return ""
	}
	return prose.Distinctive(all[line-1:end], all)
}

// add adds a proposed mention's citation to the file as edited so far
// (as Add would); one that does not verify after all is Invalid.
func (ad *adoption) add(ctx context.Context, m *Mention) error {
	pl, _, err := Add(ctx, ad.cur, ad.env, m.Location, AddOptions{Snippet: m.Snippet, HasSnippet: m.Snippet != ""})
	if errors.Is(err, ErrStale) || errors.Is(err, ErrDuplicate) {
		m.Status, m.Reason = Invalid, err.Error()
		return nil
	}
	if err != nil {
		return err
	}
	m.Status = Added
	if ad.plan == nil {
		ad.plan = &Plan{Old: ad.f.Src}
	}
	ad.plan.New, ad.plan.File, ad.plan.Changed = pl.New, pl.File, true
	ad.cur = pl.File
	return nil
}

// inDirs reports whether p is below one of dirs.
func inDirs(p string, dirs []string) bool {
	for _, d := range dirs {
		if d = strings.TrimSuffix(d, "/"); d != "" && d != "." && strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}
