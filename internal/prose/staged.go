package prose

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/symdef"
	"github.com/git-memcite/git-memcite/internal/trace"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// MemoryRefs is a memory file of the content being committed and the
// references Extract finds in it.
type MemoryRefs struct {
	Path, Dir string
	Refs      []Ref
}

// HeadFiles reads files of HEAD's tree.
type HeadFiles interface {
	// Read returns the content of the regular file p at HEAD; ok is
	// false when HEAD has no regular file there.
	Read(p string) (data []byte, ok bool, err error)
}

// Staged is what a commit changes, as CheckStaged reads it.
type Staged struct {
	Head  HeadFiles
	Index source.Source // the content being committed
	// Changed lists the paths where the index differs from HEAD (added,
	// edited, deleted; both sides of a rename).
	Changed []string
	Dirs    []string // the memory directories
	// Refs returns the memories of the index and their references (from
	// a cache: called only when the commit removes something).
	Refs func() ([]MemoryRefs, error)
	// Names, when not nil, tells what the references name (RefNames of
	// Refs' answer, from a cache): called before Refs, which is then only
	// called when a reference may name what the commit removes.
	Names func() (*RefNames, error)
	// Renames returns the commit's renames, old path → new path (git's
	// rename detection); called only when something is reported.
	Renames func() (map[string]string, error)
	// Grep reports which of names occur as words in the index's files
	// matching pathspecs.
	Grep func(names, pathspecs []string) (map[string]bool, error)
}

// StagedFinding is a reference of a memory's prose that held at HEAD and
// that the commit breaks.
type StagedFinding struct {
	Memory string // the memory file
	verify.ProseCitation
}

// StagedPathspecs are the pathspecs of the code the symbol floor reads.
func StagedPathspecs() []string {
	out := make([]string, 0, len(symbolExts))
	for _, e := range symbolExts {
		out = append(out, "*."+e)
	}
	return out
}

// CheckStaged finds the references of the memories' prose that a commit
// breaks (docs/hooks.md): a path it deletes or renames, a symbol whose
// definition it removes, leaving the name nowhere in the code, a memory
// it deletes or renames.
// A reference counts only when it resolved at HEAD and its line of the
// memory is in HEAD's version of the memory: a sentence the commit writes
// is anchored in what is committed, so what it names and the commit does
// not have is unresolved, never reported.
//
// It starts from what the commit changes: a commit that deletes no file
// and removes no definition reads no memory.
func CheckStaged(ctx context.Context, s Staged) ([]StagedFinding, error) {
	deleted := map[string]bool{}
	var code []string
	for _, p := range s.Changed {
		// (a symbolic link that leads out of the repository, or another
		// entry that cannot be read, is there all the same)
		if _, err := s.Index.Stat(p); errors.Is(err, source.ErrNotExist) {
			deleted[p] = true
		}
		if ext := path.Ext(p); ext != "" && symbolExt[ext[1:]] {
			code = append(code, p)
		}
	}
	start := time.Now()
	removed, err := removedWords(ctx, s, code)
	if err != nil {
		return nil, err
	}
	trace.Printf("prose: %d paths deleted, %d definitions taken out of %d code files, in %s", len(deleted), len(removed), len(code), time.Since(start).Round(time.Millisecond))
	if len(deleted) == 0 && len(removed) == 0 {
		return nil, nil
	}
	if s.Names != nil {
		names, err := s.Names()
		if err != nil {
			return nil, err
		}
		if !names.mayName(deleted, removed) {
			return nil, nil
		}
	}
	mems, err := s.Refs()
	if err != nil {
		return nil, err
	}
	// the symbols the commit takes out of the code: referenced names
	// whose definition it removes, found nowhere else
	gone := map[string]string{}
	if len(removed) > 0 {
		var names []string
		for _, m := range mems {
			for _, r := range m.Refs {
				if r.Kind != KindSymbol {
					continue
				}
				if n := symbolName(r.Target); len(n) >= 3 && removed[n] != "" && gone[n] == "" {
					gone[n] = removed[n]
					names = append(names, n)
				}
			}
		}
		if len(names) > 0 {
			// the longest names first: the likeliest to be of the code
			sort.Slice(names, func(a, b int) bool {
				if len(names[a]) != len(names[b]) {
					return len(names[a]) > len(names[b])
				}
				return names[a] < names[b]
			})
			if len(names) > maxStagedGreps {
				for _, n := range names[maxStagedGreps:] {
					delete(gone, n)
				}
				names = names[:maxStagedGreps]
			}
			found, err := s.Grep(names, StagedPathspecs())
			if err != nil {
				return nil, err
			}
			for n := range found {
				delete(gone, n)
			}
		}
	}
	bases := map[string]bool{}
	memDeleted := false
	for p := range deleted {
		bases[path.Base(p)] = true
		if strings.HasSuffix(p, ".md") {
			memDeleted = true
		}
	}
	candidate := func(r Ref) bool {
		switch r.Kind {
		case KindSymbol:
			return gone[symbolName(r.Target)] != ""
		case KindMemory:
			return memDeleted
		}
		return bases[path.Base(r.Target)]
	}
	var suspects []int
	for i, m := range mems {
		for _, r := range m.Refs {
			if candidate(r) {
				suspects = append(suspects, i)
				break
			}
		}
	}
	if len(suspects) == 0 {
		return nil, nil
	}
	j, err := newStagedJudge(ctx, s, mems, deleted)
	if err != nil {
		return nil, err
	}
	j.gone = gone
	var out []StagedFinding
	for _, i := range suspects {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fs, err := j.memory(&mems[i], candidate)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	return out, nil
}

// removedWords returns the names whose definitions a commit takes out of
// the code files it changes (symdef.Definitions): defined in HEAD's version of
// one of them and a word of the index's version of none of them (so a
// file renamed, or code moved from one changed file to another, takes
// nothing out), each with the file that defined it.
func removedWords(ctx context.Context, s Staged, code []string) (map[string]string, error) {
	now := map[string]bool{}
	type old struct {
		path string
		data []byte
	}
	var olds []old
	for _, p := range code {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if data, ok, err := s.Head.Read(p); err == nil && ok {
			olds = append(olds, old{p, data})
		}
		// (HEAD's version unreadable, an object missing from a partial
		// clone: its words are not judged)
		if cur, err := s.Index.ReadFile(p); err == nil {
			eachWordAt(cur, func(start, end int) {
				now[string(cur[start:end])] = true
				// PowerShell's Verb-Noun names, as symdef reads them
				for end < len(cur)-1 && cur[end] == '-' && isIdentStart(cur[end+1]) {
					e := end + 1
					for e < len(cur) && isIdent(cur[e]) {
						e++
					}
					now[string(cur[start:e])] = true
					end = e
				}
			})
		}
	}
	out := map[string]string{}
	for _, o := range olds {
		for _, d := range symdef.Definitions(o.path, o.data) {
			if w := d.Name; !now[w] {
				if _, ok := out[w]; !ok {
					out[w] = o.path
				}
			}
		}
	}
	return out, nil
}

// maxStagedGreps bounds the names searched for in the whole code the
// commit records, per commit (one search for all): past it, a name is not
// judged (a reference not reported, never a false alarm).
const maxStagedGreps = 24

// stagedJudge judges the suspect references of one commit.
type stagedJudge struct {
	s       Staged
	deleted map[string]bool
	gone    map[string]string
	changed map[string]bool
	// before and after: the tracked paths and memories at HEAD and in
	// the index
	before, after       *tracked
	memBefore, memAfter *memIndex
	renames             map[string]string
	renErr              error
	renDone             bool
}

func newStagedJudge(ctx context.Context, s Staged, mems []MemoryRefs, deleted map[string]bool) (*stagedJudge, error) {
	paths, err := s.Index.List("")
	if err != nil {
		return nil, fmt.Errorf("prose: listing the %s: %w", s.Index.Name(), err)
	}
	j := &stagedJudge{s: s, deleted: deleted, changed: map[string]bool{}, after: newTracked(paths)}
	added := map[string]bool{}
	for _, p := range s.Changed {
		j.changed[p] = true
		if deleted[p] {
			continue
		}
		if _, ok, err := s.Head.Read(p); err != nil {
			return nil, err
		} else if !ok {
			added[p] = true
		}
	}
	before := make([]string, 0, len(paths)+len(deleted))
	for _, p := range paths {
		if !added[p] {
			before = append(before, p)
		}
	}
	var memsNow, memsThen []*store.Memory
	for _, m := range mems {
		sm := &store.Memory{Path: m.Path, Dir: m.Dir}
		sm.ID = sm.RelID()
		memsNow = append(memsNow, sm)
		if !added[m.Path] {
			memsThen = append(memsThen, sm)
		}
	}
	for p := range deleted {
		before = append(before, p)
		if d, ok := store.DirOf(p, s.Dirs); ok {
			sm := &store.Memory{Path: p, Dir: d}
			sm.ID = sm.RelID()
			memsThen = append(memsThen, sm)
		}
	}
	sort.Strings(before)
	j.before = newTracked(before)
	j.memBefore, j.memAfter = newMemIndex(memsThen), newMemIndex(memsNow)
	return j, nil
}

// renamed is where the commit renamed p to ("" when it deleted it).
func (j *stagedJudge) renamed(p string) (string, error) {
	if !j.renDone {
		j.renDone = true
		j.renames, j.renErr = j.s.Renames()
	}
	return j.renames[p], j.renErr
}

// memory judges the suspect references of one memory of the index.
func (j *stagedJudge) memory(mr *MemoryRefs, candidate func(Ref) bool) ([]StagedFinding, error) {
	src, err := j.s.Index.ReadFile(mr.Path)
	if err != nil {
		return nil, fmt.Errorf("prose: %s: %w", mr.Path, err)
	}
	lines := strings.Split(string(src), "\n")
	// the lines of HEAD's version: a reference on a line the commit
	// writes is anchored in what is committed
	var old map[string]bool
	if j.changed[mr.Path] {
		from := mr.Path
		if _, ok, err := j.s.Head.Read(from); err != nil {
			return nil, err
		} else if !ok {
			from = ""
			ren, err := j.allRenames()
			if err != nil {
				return nil, err
			}
			for o, n := range ren {
				if n == mr.Path {
					from = o
				}
			}
		}
		old = map[string]bool{}
		if from != "" {
			data, _, err := j.s.Head.Read(from)
			if err != nil {
				return nil, err
			}
			for _, l := range strings.Split(string(data), "\n") {
				old[strings.TrimRight(l, "\r")] = true
			}
		}
	}
	// a file the frontmatter cites is judged by its citations
	cited := map[string]bool{}
	if f, err := memfile.Parse(mr.Path, src); err == nil {
		for _, c := range f.Citations {
			cited[c.Path] = true
		}
	}
	m := &store.Memory{Path: mr.Path, Dir: mr.Dir}
	m.ID = m.RelID()
	var out []StagedFinding
	seen := map[string]bool{}
	for _, r := range mr.Refs {
		if !candidate(r) {
			continue
		}
		if old != nil {
			text := ""
			if r.MemLine-1 < len(lines) {
				text = strings.TrimRight(lines[r.MemLine-1], "\r")
			}
			if !old[text] {
				continue // written by this commit
			}
		}
		pc, ok, err := j.ref(m, r)
		if err != nil {
			return nil, err
		}
		if !ok || (pc.Ref.Kind != "symbol" && pc.Ref.Kind != "memory" && cited[pc.Citation.Path]) {
			continue
		}
		key := pc.Ref.Kind + "\x00" + pc.Ref.Text + "\x00" + pc.Ref.Target
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, StagedFinding{Memory: mr.Path, ProseCitation: pc})
	}
	return out, nil
}

func (j *stagedJudge) allRenames() (map[string]string, error) {
	_, err := j.renamed("")
	return j.renames, err
}

// ref judges one suspect reference; ok is false when the commit does not
// break it.
func (j *stagedJudge) ref(m *store.Memory, r Ref) (verify.ProseCitation, bool, error) {
	pc := verify.ProseCitation{Ref: verify.ProseRef{Kind: r.Kind.String(), Form: r.Form, Text: r.Target, Line: r.MemLine, Start: r.Start, Stop: r.Stop}}
	pc.Citation = memfile.Citation{Path: r.Target, SrcLine: r.MemLine, Form: memfile.FormString}
	pc.Status = verify.Stale
	if r.Line > 0 {
		pc.Ref.Kind = "lines"
		pc.Citation.HasLine, pc.Citation.Line, pc.Citation.LineEnd = true, r.Line, r.End
	}
	switch r.Kind {
	case KindSymbol:
		name := symbolName(r.Target)
		pc.Ref.Target, pc.Kind = r.Target, verify.KindSymbolGone
		pc.Reason = fmt.Sprintf("Symbol %s removed in this commit (its definition was in %s)", name, j.gone[name])
		return pc, true, nil
	case KindMemory:
		weak := r.Form == FormName
		if mm := j.memBefore.find(m, r); mm != "" {
			if (mm == m.Path && weak) || !j.deleted[mm] || j.memAfter.find(m, r) != "" {
				return pc, false, nil
			}
			return j.broken(pc, mm, verify.KindMemoryRenamed, verify.KindMemoryDeleted, "Memory")
		}
		if r.Form == FormName || !(strings.Contains(r.Target, "/") || strings.HasSuffix(strings.ToLower(r.Target), ".md")) {
			return pc, false, nil
		}
		pc.Ref.Kind = KindPath.String() // a link to a document that is not a memory
		for _, cand := range candidates(m, r) {
			if p, _ := j.before.resolve(cand, false); p != "" {
				if !j.deleted[p] {
					return pc, false, nil
				}
				if q, _ := j.after.resolve(cand, false); q != "" {
					return pc, false, nil
				}
				return j.broken(pc, p, verify.KindPathMoved, verify.KindPathDeleted, "File")
			}
		}
		return pc, false, nil
	}
	bare := !strings.Contains(r.Target, "/")
	for _, cand := range candidates(m, r) {
		p, cands := j.before.resolve(cand, bare)
		if p == "" {
			if len(cands) > 1 {
				return pc, false, nil // ambiguous at HEAD: no reference
			}
			continue
		}
		if !j.deleted[p] {
			return pc, false, nil
		}
		if q, _ := j.after.resolve(cand, bare); q != "" {
			return pc, false, nil // names another file now
		}
		return j.broken(pc, p, verify.KindPathMoved, verify.KindPathDeleted, "File")
	}
	return pc, false, nil
}

// broken finishes the verdict of a reference to p, which the commit
// renamed or deleted.
func (j *stagedJudge) broken(pc verify.ProseCitation, p string, moved, deleted verify.Kind, what string) (verify.ProseCitation, bool, error) {
	pc.Citation.Path, pc.Ref.Target = p, p
	to, err := j.renamed(p)
	if err != nil {
		return pc, false, err
	}
	if to != "" {
		pc.Kind, pc.Ref.Now = moved, to
		pc.Reason = fmt.Sprintf("%s %s renamed to %s in this commit", what, p, to)
		return pc, true, nil
	}
	pc.Kind = deleted
	pc.Reason = fmt.Sprintf("%s %s deleted in this commit", what, p)
	return pc, true, nil
}

// ExtractVersion names the extractor's rules: references cached under
// another version are extracted again.
func ExtractVersion() string { return extractVersion }

// eachWordAt calls f with the offsets of every identifier of data
// (letters, digits, _ and $, not starting with a digit).
func eachWordAt(data []byte, f func(start, end int)) {
	n := len(data)
	for i := 0; i < n; {
		for i < n && !identByte[data[i]] {
			i++
		}
		start := i
		for i < n && identByte[data[i]] {
			i++
		}
		if start < i && (data[start] < '0' || data[start] > '9') { // a number is no word
			f(start, i)
		}
	}
}

// identByte tells the bytes of identifiers: letters, digits, _ and $.
var identByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	return t
}()

func isIdent(c byte) bool { return identByte[c] }

func isIdentStart(c byte) bool { return isIdent(c) && (c < '0' || c > '9') }

// RefNames is what the references of a store name, for the pre-commit
// check to tell at a glance whether a commit can break one: the names of
// symbols (symbolName), the file names of paths and whether any reference
// is to a memory.
type RefNames struct {
	Symbols, Bases []string // sorted
	Memory         bool
}

// NamesOf summarises the references of mems.
func NamesOf(mems []MemoryRefs) *RefNames {
	syms, bases := map[string]bool{}, map[string]bool{}
	n := &RefNames{}
	for _, m := range mems {
		for _, r := range m.Refs {
			switch r.Kind {
			case KindSymbol:
				syms[symbolName(r.Target)] = true
			case KindMemory:
				n.Memory = true
				bases[path.Base(r.Target)] = true // (a link to a document that is not a memory is a path)
			default:
				bases[path.Base(r.Target)] = true
			}
		}
	}
	for k := range syms {
		n.Symbols = append(n.Symbols, k)
	}
	for k := range bases {
		n.Bases = append(n.Bases, k)
	}
	sort.Strings(n.Symbols)
	sort.Strings(n.Bases)
	return n
}

// mayName reports whether a reference may name a deleted path or a
// removed name.
func (n *RefNames) mayName(deleted map[string]bool, removed map[string]string) bool {
	has := func(list []string, x string) bool {
		i := sort.SearchStrings(list, x)
		return i < len(list) && list[i] == x
	}
	for p := range deleted {
		if has(n.Bases, path.Base(p)) || (n.Memory && strings.HasSuffix(p, ".md")) {
			return true
		}
	}
	for w := range removed {
		if has(n.Symbols, w) {
			return true
		}
	}
	return false
}
