package cite

import (
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/prose"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/verify"
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
	// Missing: an object the mention needs is missing from the
	// repository (a partial clone); the mention is skipped.
	Missing = "missing-object"
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
	Kind       string   `json:"kind"`                 // the form, as prose.Extract reads it: path-line, anchor, prose-line, markdown-link, backticked, bare, wiki-link, memory-name
	Status     string   `json:"status"`               // one of the outcomes above
	Location   string   `json:"location"`             // the resolved citation, path[:line[-end]]; for a link, the memory's name
	LinkType   string   `json:"link_type,omitempty"`  // a link to another memory: its type in links: (related, supersedes)
	Moved      string   `json:"moved,omitempty"`      // the file or memory moved since the words were written: how
	Snippet    string   `json:"snippet"`              // for proposed and added ones
	Commit     string   `json:"commit"`               // HEAD when the file is unchanged since
	Candidates []string `json:"candidates"`           // for ambiguous ones
	Reason     string   `json:"reason"`               // why it is not proposed
	WrittenAt  string   `json:"written_at,omitempty"` // the commit that wrote the words, when anchored there

	body string    // the whole line of the memory body
	ref  prose.Ref // the reference as extracted
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

var trivialRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[\s{}()\[\];,.:]*$|^\s*(end|else|fi|done|esac|\*/|/\*|//|#|--)\s*$`)
})

// FindMentions lists the references of f's body that adopt can pin, as
// the prose extractor reads them (prose.Extract; fenced code blocks and
// lines that are not valid UTF-8 are skipped): paths with or without
// lines in every form it reads, and links to other memories. Symbols and
// the frontmatter's related:-style lists are left out: the first are no
// citation of a file, the second are structured already. Each is returned
// with Line, Text and Kind (the form, prose.Form…) set, in order; Text is
// the target as written, with its lines as path:line[-end].
func FindMentions(f *memfile.File) []Mention {
	var out []Mention
	lines := strings.Split(string(f.Src), "\n")
	for _, r := range prose.Extract(f.Src, prose.Options{}) {
		if r.Kind == prose.KindSymbol || r.Form == prose.FormFrontmatter {
			continue
		}
		body := ""
		if r.MemLine-1 < len(lines) {
			body = strings.TrimRight(lines[r.MemLine-1], "\r")
		}
		text := r.Target
		if r.Line > 0 {
			text = locationOf(r.Target, r.Line, r.End)
		}
		out = append(out, Mention{Line: r.MemLine, Text: text, Kind: r.Form, body: body, ref: r})
	}
	return out
}

// Adopt finds the references in the prose of memory m (FindMentions),
// resolves each where its words were written (env.Prose: the commit that
// wrote its line, the file's fate since) and proposes structured
// citations (snippet, commit and verified filled in) and, for references
// to other memories, links. Blank or trivial lines, lines past the end,
// unknown, deleted and ambiguous files and duplicates are reported, not
// proposed; a name that named no file where it was written is no
// reference and left out. A reference whose objects are missing from the
// repository (a partial clone) is reported Missing; the others are still
// judged.
// With fix the proposals are added (as Add would, one after another) and
// the plan is returned; otherwise the plan is nil.
//
// With env.Anchor, a mention with lines is anchored where its words were
// written (anchor.go): the lines it named then, checked against the words
// of its sentence, followed to today; one that cannot be anchored with
// confidence is reported Unanchored, never proposed.
func Adopt(ctx context.Context, m *store.Memory, env Env, tracked *Tracked, fix bool) ([]Mention, *Plan, error) {
	f := m.File
	res := env.Prose
	if res == nil {
		r, err := (&prose.Checker{Dirs: env.MemoryDirs, All: []*store.Memory{m}}).Resolver(env.Src)
		if err != nil {
			return nil, nil, err
		}
		res = r
	}
	found := FindMentions(f)
	ad := &adoption{m: m, f: f, cur: f, env: env, res: res, tracked: tracked, seen: map[string]bool{}}
	ms := found[:0]
	for i := range found {
		mn := found[i]
		ok, err := ad.propose(ctx, &mn)
		if err != nil {
			return nil, nil, err
		}
		if mn.Status == "" {
			continue // no reference
		}
		if ok && fix {
			if err := ad.add(ctx, &mn); err != nil {
				return nil, nil, err
			}
		}
		ms = append(ms, mn)
	}
	return ms, ad.plan, nil
}

// adoption is one memory's adoption under way: the file as edited so
// far, the plan and the locations already proposed.
type adoption struct {
	m       *store.Memory
	f       *memfile.File
	cur     *memfile.File
	plan    *Plan
	env     Env
	res     ProseResolver
	tracked *Tracked
	seen    map[string]bool
}

// ProseResolver judges one reference of a memory's prose where its words
// were written (prose.Resolver): ok is false for what is no reference.
type ProseResolver interface {
	Resolve(ctx context.Context, m *store.Memory, r prose.Ref) (pc verify.ProseCitation, ok bool, err error)
}

// propose judges one mention: where it was written and what it named
// then (env.Prose), the file's fate since, duplicates, and its lines
// (env.Anchor, checkLines). It reports whether the mention is Proposed;
// otherwise its status says why not (no status: no reference).
func (ad *adoption) propose(ctx context.Context, m *Mention) (bool, error) {
	m.Candidates = []string{}
	pc, ok, err := ad.res.Resolve(ctx, ad.m, m.ref)
	if err != nil {
		return false, ad.missing(m, err, m.ref.Target, pc.Ref.Written)
	}
	if !ok {
		// a name that named nothing is no reference; one that several
		// files have is reported, never pinned (even with one at the root)
		if _, cands := ad.tracked.resolve(m.ref.Target); m.ref.Kind == prose.KindPath && len(cands) > 1 {
			m.Status, m.Candidates = Ambiguous, cands
			m.Reason = fmt.Sprintf("%d tracked files are named %s", len(cands), path.Base(m.ref.Target))
		}
		return false, nil
	}
	m.WrittenAt = pc.Ref.Written
	if pc.Ref.Unresolved {
		ad.unresolved(m, pc)
		return false, nil
	}
	p := pc.Citation.Path // where it was when written
	now := p
	switch pc.Kind {
	case verify.KindPathMoved, verify.KindMemoryRenamed:
		now = pc.Ref.Now
		m.Moved = pc.Reason
	case verify.KindPathDeleted, verify.KindMemoryDeleted:
		m.Status, m.Reason = NotFound, pc.Reason
		return false, nil
	}
	if pc.Ref.Kind == prose.KindMemory.String() || inDirs(now, ad.env.MemoryDirs) {
		return ad.link(m, now), nil
	}
	if m.ref.Form != prose.FormLink && !strings.Contains(m.ref.Target, "/") {
		// a file name several files have is ambiguous, even when one of
		// them is at the root
		if _, cands := ad.tracked.resolve(m.ref.Target); len(cands) > 1 {
			m.Status, m.Candidates = Ambiguous, cands
			m.Reason = fmt.Sprintf("%d tracked files are named %s", len(cands), m.ref.Target)
			return false, nil
		}
	}
	line, end := m.ref.Line, m.ref.End
	if line > 0 && ad.env.Anchor != nil {
		a, err := ad.env.Anchor.AnchorMention(ctx, ad.f.Name, m.body, p, line, end)
		if err != nil {
			return false, ad.missing(m, err, p, firstOf(a.Commit, m.WrittenAt))
		}
		if a.Lost != "" {
			// where the lines went cannot be told: not what today's file
			// has at that number
			m.Location = locationOf(now, line, end)
			m.Status, m.Reason = Unanchored, a.Lost
			return false, nil
		}
		m.WrittenAt = firstOf(a.Commit, m.WrittenAt)
		now, line, end = a.Path, a.Line, a.End
		m.Location = locationOf(now, line, end)
		if !ad.checkLines(m, now, line, end) {
			return false, nil
		}
		if why := unanchored(m, a); why != "" {
			m.Status, m.Reason = Unanchored, why
			return false, nil
		}
	} else {
		m.Location = locationOf(now, line, end)
		if !ad.checkLines(m, now, line, end) {
			return false, nil
		}
	}
	m.Status = Proposed
	m.Commit = ad.env.commitFor(now)
	return true, nil
}

// missing reports a mention whose objects are missing from the
// repository (a partial clone, a snapshot without its large files) as
// Missing, and returns nil; any other error is returned.
func (ad *adoption) missing(m *Mention, err error, p, commit string) error {
	if !errors.Is(err, gitblame.ErrNotFound) {
		return err
	}
	where := ""
	if commit != "" {
		where = " in " + shortHash(commit)
	}
	m.Status = Missing
	m.Reason = fmt.Sprintf("%s%s cannot be read: an object is missing from the repository (%v); skipped", p, where, err)
	return nil
}

// unresolved reports a reference that named nothing where it was
// written: ambiguous, a line past the end, or not found.
func (ad *adoption) unresolved(m *Mention, pc verify.ProseCitation) {
	why := strings.TrimPrefix(pc.Reason, "unresolved: ")
	switch {
	case strings.Contains(why, "tracked files are named"):
		_, cands := ad.tracked.resolve(m.ref.Target)
		if len(cands) > 1 {
			m.Candidates = cands
		}
		m.Status, m.Reason = Ambiguous, why
	case strings.Contains(why, " had no line "):
		m.Status, m.Reason = Invalid, why
	default:
		m.Status, m.Reason = NotFound, why
	}
}

// link proposes a links: entry for a mention of memory p: typed as the
// frontmatter list says (supersedes), related otherwise, and named by
// its path below its memory directory without .md.
func (ad *adoption) link(m *Mention, p string) bool {
	if p == ad.m.Path {
		m.Status, m.Reason = Duplicate, "a link to the memory itself"
		return false
	}
	target := memoryName(p, ad.env.MemoryDirs)
	m.LinkType, m.Location = "related", target
	if m.ref.Key == "supersedes" {
		m.LinkType = "supersedes"
	}
	stem := strings.TrimSuffix(path.Base(p), ".md")
	dup := ad.seen["link\x00"+target]
	for _, l := range ad.cur.Links {
		t := strings.TrimSuffix(strings.TrimPrefix(l.Target, "./"), ".md")
		dup = dup || t == target || t == strings.TrimSuffix(p, ".md") || t == stem
	}
	if dup {
		m.Status, m.Reason = Duplicate, "already linked"
		return false
	}
	ad.seen["link\x00"+target] = true
	m.Status = Proposed
	return true
}

// memoryName is a memory's name in links: its path below its memory
// directory without .md, or its path when it is below none.
func memoryName(p string, dirs []string) string {
	for _, d := range dirs {
		if d = strings.TrimSuffix(d, "/"); d != "" && d != "." && strings.HasPrefix(p, d+"/") {
			return strings.TrimSuffix(strings.TrimPrefix(p, d+"/"), ".md")
		}
	}
	return p
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
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
	if m.LinkType != "" {
		return ad.addLink(m)
	}
	pl, _, err := Add(ctx, ad.cur, ad.env, m.Location, AddOptions{Snippet: m.Snippet, HasSnippet: m.Snippet != ""})
	if errors.Is(err, ErrStale) || errors.Is(err, ErrDuplicate) {
		m.Status, m.Reason = Invalid, err.Error()
		return nil
	}
	if err != nil {
		return err
	}
	ad.added(m, pl)
	return nil
}

// addLink adds a proposed link to the file as edited so far.
func (ad *adoption) addLink(m *Mention) error {
	edits, err := ad.cur.AppendLink(m.LinkType, m.Location)
	if err != nil {
		m.Status, m.Reason = Invalid, err.Error()
		return nil
	}
	pl, err := rewrite(ad.cur, edits)
	if err != nil {
		return err
	}
	ad.added(m, pl)
	return nil
}

// added records m as added, pl being the file with it.
func (ad *adoption) added(m *Mention, pl *Plan) {
	m.Status = Added
	if ad.plan == nil {
		ad.plan = &Plan{Old: ad.f.Src}
	}
	ad.plan.New, ad.plan.File, ad.plan.Changed = pl.New, pl.File, true
	ad.cur = pl.File
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
