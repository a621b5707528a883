package prose

import (
	"context"
	"crypto/sha256"
	"fmt"
	"path"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/symdef"
	"github.com/git-memcite/git-memcite/internal/trace"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
	"github.com/git-memcite/git-memcite/internal/workers"
)

// Symbols is what the checker asks git about symbols (internal/gitrepo).
type Symbols interface {
	// GrepWordFiles reports, for each of names that occurs as a whole
	// word in the files of a commit that match pathspecs, those files.
	GrepWordFiles(ctx context.Context, commit gitblame.Hash, names, pathspecs []string) (map[string][]string, error)
	// WordChangedIn is the newest first-parent commit in from..head whose
	// diff adds or removes a line with word (a whole word) in the files
	// matching pathspecs; zero when none.
	WordChangedIn(ctx context.Context, from, head gitblame.Hash, word string, pathspecs []string) (gitblame.Hash, error)
	// CommitChanges lists the files a commit changed against its first
	// parent, renames paired.
	CommitChanges(ctx context.Context, commit gitblame.Hash) ([]FileChange, error)
}

// symbolExts are the extensions of the code the symbol floor reads:
// source files of the common languages, not documentation or data.
var symbolExts = strings.Fields(`go py pyi ts tsx js jsx mjs cjs java kt kts cs fs fsx fsi c h cc cpp cxx hpp hh rs rb php swift r R sh bash zsh ps1 psm1 lua pl pm ex exs erl hs ml scala clj dart vue svelte gradle`)

var symbolExt = func() map[string]bool {
	m := map[string]bool{}
	for _, e := range symbolExts {
		m[e] = true
	}
	return m
}()

// maxBlame bounds the commits looked up for gone symbols in one run
// (each is a git log -G over the history of the files that held them).
const maxBlame = 40

// maxGreps bounds the commits whose trees are searched for names that
// are gone now, in one run.
const maxGreps = 16

// symdefVersion names the definition patterns in cache keys: change it
// when symdef would find other definitions in the same text.
const symdefVersion = "3"

// eachWord calls f with every identifier of data (letters, digits, _ and
// $, not starting with a digit).
func eachWord(data []byte, f func([]byte)) {
	eachWordAt(data, func(start, end int) { f(data[start:end]) })
}

// symRef is a symbol reference waiting for the symbol pass.
type symRef struct {
	mem     int
	memPath string
	ref     Ref
	written gitblame.Hash
	name    string
	// files are the paths written on the same line of the memory: a
	// sentence that says where the symbol is defined
	files []string
}

// symbolName is the identifier a symbol reference is checked by: its last
// part (Type.method → method).
func symbolName(t string) string {
	i := strings.LastIndexAny(t, ".:#")
	return t[i+1:]
}

// symbolContainer is the part before the name, its last segment
// (pkg.Type.method → Type); "" for a plain name.
func symbolContainer(t string) string {
	i := strings.LastIndexAny(t, ".:#")
	if i < 0 {
		return ""
	}
	c := strings.TrimRight(t[:i], ".:#")
	if symdef.Language(c) != "" { // a file: build_all.py::check
		c = strings.TrimSuffix(path.Base(c), path.Ext(c))
	}
	if j := strings.LastIndexAny(c, ".:#"); j >= 0 {
		c = c[j+1:]
	}
	return c
}

// filesOnLine lists the paths the references of one memory line name.
func filesOnLine(refs []Ref, line int) []string {
	var out []string
	for _, r := range refs {
		if r.MemLine == line && r.Kind == KindPath {
			out = append(out, r.Target)
		}
	}
	return out
}

// symLoc is where a name is defined.
type symLoc struct {
	path string
	def  symdef.Def
}

func (l symLoc) String() string { return l.path + ":" + strconv.Itoa(l.def.Line) }

// symbols judges the symbol references of a run (docs/prose-references.md):
//
//   - defined now: valid, with where; but a sentence that names the file
//     the symbol was defined in where it was written, when that file no
//     longer defines it and another does: symbol-moved;
//   - not defined now, but its name still occurs as a word in the code:
//     valid (the floor, for code the patterns do not read);
//   - in no code now, but in the tree that wrote the sentence: gone, with
//     the commit that removed its last occurrence and the likely new
//     name when that commit defined a similar one;
//   - absent where it was written too: unresolved.
func (j *judge) symbols(ctx context.Context, syms []symRef, out [][]verify.ProseCitation) error {
	if len(syms) == 0 {
		return nil
	}
	want := map[string]bool{}
	for _, s := range syms {
		want[s.name] = true
	}
	start := time.Now()
	ix := j.symIndex(want)
	// the names defined nowhere: does the word floor know them?
	floor := map[string]bool{}
	for n := range want {
		if len(ix.defs[n]) == 0 {
			floor[n] = true
		}
	}
	trace.Printf("symbols: index of %d names in %v", len(want), time.Since(start).Round(time.Millisecond))
	words := ix.wordsOf(floor)
	trace.Printf("symbols: word floor for %d names at %v", len(floor), time.Since(start).Round(time.Millisecond))
	// the names missing now, by the commit that wrote them
	missing := map[gitblame.Hash][]string{}
	for _, s := range syms {
		if len(ix.defs[s.name]) == 0 && !words[s.name] && !s.written.IsZero() {
			missing[s.written] = append(missing[s.written], s.name)
		}
	}
	then := j.grepThen(ctx, missing, ix.knownBlobs)
	trace.Printf("symbols: %d trees searched at %v", len(then), time.Since(start).Round(time.Millisecond))
	if err := ctx.Err(); err != nil {
		return err
	}
	// which references are judged how, and the commits to look up (the
	// first maxBlame of them, in order), before any is looked up: the
	// lookups of one range are one question to git
	type judged struct {
		s     symRef
		defs  []symLoc
		from  string // symbol-moved: the file the sentence names
		blame int    // index in asks, or -1
	}
	var todo []judged
	var asks []wordAsk
	blamed := 0
	seen := map[string]bool{}
	for _, s := range syms {
		key := fmt.Sprint(s.mem, "\x00", s.ref.Target)
		if seen[key] {
			continue
		}
		seen[key] = true
		jd := judged{s: s, defs: ix.defs[s.name], blame: -1}
		switch {
		case len(jd.defs) > 0:
			from, ok := j.movedFrom(s, jd.defs, ix)
			if !ok {
				break
			}
			jd.from = from
			if blamed < maxBlame && j.c.Sym != nil {
				blamed++
				jd.blame = len(asks)
				asks = append(asks, wordAsk{from: s.written, word: s.name, files: []string{from}})
			}
		case words[s.name]:
		case s.written.IsZero() || len(then[s.written][s.name]) == 0:
		default:
			if blamed < maxBlame && j.c.Sym != nil {
				blamed++
				jd.blame = len(asks)
				// the files that held it where the sentence was written
				asks = append(asks, wordAsk{from: s.written, word: s.name, files: then[s.written][s.name]})
			}
		}
		todo = append(todo, jd)
	}
	changed := j.wordsChanged(ctx, asks)
	goneAsk := make([]bool, len(asks))
	for _, jd := range todo {
		if jd.blame >= 0 && jd.from == "" {
			goneAsk[jd.blame] = true
		}
	}
	j.followGone(ctx, asks, goneAsk, changed)
	// the files the commits that removed gone names changed (for their new
	// names), asked for at once
	var gone []gitblame.Hash
	inGone := map[gitblame.Hash]bool{}
	for _, jd := range todo {
		if jd.blame >= 0 && jd.from == "" && !changed[jd.blame].IsZero() && !inGone[changed[jd.blame]] {
			inGone[changed[jd.blame]] = true
			gone = append(gone, changed[jd.blame])
		}
	}
	changes := make([][]FileChange, len(gone))
	failed := make([]error, len(gone))
	workers.Each(lookups, len(gone), func(k int) { changes[k], failed[k] = j.c.Sym.CommitChanges(ctx, gone[k]) })
	changesOf := map[gitblame.Hash]int{}
	for k, c := range gone {
		changesOf[c] = k
	}
	trace.Printf("symbols: %d changes looked up at %v", len(asks), time.Since(start).Round(time.Millisecond))
	count := map[string]int{}
	for _, jd := range todo {
		s, defs := jd.s, jd.defs
		at := gitblame.ZeroHash
		if jd.blame >= 0 {
			at = changed[jd.blame]
		}
		pc := verify.ProseCitation{Ref: verify.ProseRef{Kind: "symbol", Form: s.ref.Form, Text: s.ref.Target, Line: s.ref.MemLine, Start: s.ref.Start, Stop: s.ref.Stop, Target: s.ref.Target}}
		if !s.written.IsZero() {
			pc.Ref.Written = s.written.String()
		}
		pc.Citation = memfile.Citation{Path: s.ref.Target, SrcLine: s.ref.MemLine, Commit: pc.Ref.Written, Form: memfile.FormString}
		switch {
		case len(defs) > 0:
			pc.Status = verify.Valid
			where, placed := best(defs, symbolContainer(s.ref.Target), "", j.namedNow(s.files))
			if from := jd.from; from != "" {
				// the new place is given even outside the container written
				where, _ = best(defs, symbolContainer(s.ref.Target), from, nil)
				placed = true
				pc.Status, pc.Kind = verify.Stale, verify.KindSymbolMoved
				in := "since " + s.written.Short()
				if !at.IsZero() {
					pc.Ref.Changed = at.String()
					in = "in " + at.Short()
				}
				pc.Reason = fmt.Sprintf("Symbol %s is no longer in %s, where the sentence places it; it is defined in %s now (changed %s)", s.name, from, where, in)
			}
			if placed {
				pc.Ref.Now = where.String()
			}
		case words[s.name]:
			pc.Status = verify.Valid
		case s.written.IsZero() || len(then[s.written][s.name]) == 0:
			pc.Ref.Unresolved = true
			pc.Status, pc.Reason = verify.Skipped, "unresolved: "+s.name+" is not in the code"
			if !s.written.IsZero() {
				pc.Reason += " of " + s.written.Short() + ", where it was written"
			}
		default:
			pc.Status, pc.Kind = verify.Stale, verify.KindSymbolGone
			in, renamed := "since "+s.written.Short(), ""
			if !at.IsZero() {
				pc.Ref.Changed = at.String()
				in = "in " + at.Short()
				if k := changesOf[at]; failed[k] == nil {
					if nn, ok := j.renamedTo(changes[k], s.name); ok {
						renamed = fmt.Sprintf(" (likely renamed to %s, %s)", nn.def.Name, nn)
						pc.Ref.Now = nn.def.Name
					}
				}
			}
			pc.Reason = fmt.Sprintf("Symbol %s is gone from the code %s%s", s.name, in, renamed)
		}
		out[s.mem] = append(out[s.mem], pc)
		verdict := pc.Status.String()
		switch {
		case pc.Ref.Unresolved:
			verdict = "unresolved"
		case pc.Status == verify.Stale:
			verdict = pc.Kind.String()
		case len(defs) > 0 && pc.Ref.Now == "":
			verdict = "valid, defined, no place in the container written"
		case len(defs) == 0:
			verdict = "valid by the word floor"
		}
		count[verdict]++
		trace.Printf("symbol %s (%s:%d): %s %s %s", s.ref.Target, s.memPath, s.ref.MemLine, verdict, pc.Ref.Now, pc.Reason)
	}
	trace.Printf("symbols: %v; %d code files, %d read, %d from the cache; %v", count, ix.files, len(ix.read), len(ix.ids), time.Since(start).Round(time.Millisecond))
	return nil
}

// wordAsk is a lookup of the commit that changed a word last: in
// from..HEAD, in files.
type wordAsk struct {
	from  gitblame.Hash
	word  string
	files []string
}

// WordsChanger answers WordChangedIn for many words of one range at once
// (one git log for all: gitrepo's WordsChangedIn); a Symbols that has it
// is asked that way.
type WordsChanger interface {
	WordsChangedIn(ctx context.Context, from, head gitblame.Hash, words []string, pathspecs [][]string) ([]gitblame.Hash, error)
}

// lookups bounds the git processes of the symbol pass that run at once.
const lookups = 2

// wordsChanged looks up the commits of asks (zero where none, or git
// failed): one question per range (WordsChanger), the ranges at once.
func (j *judge) wordsChanged(ctx context.Context, asks []wordAsk) []gitblame.Hash {
	out := make([]gitblame.Hash, len(asks))
	if len(asks) == 0 {
		return out
	}
	byFrom := map[gitblame.Hash][]int{}
	var froms []gitblame.Hash
	for i, a := range asks {
		if _, ok := byFrom[a.from]; !ok {
			froms = append(froms, a.from)
		}
		byFrom[a.from] = append(byFrom[a.from], i)
	}
	many, _ := j.c.Sym.(WordsChanger)
	var jobs [][]int
	for _, f := range froms {
		if many != nil {
			jobs = append(jobs, byFrom[f])
			continue
		}
		for _, i := range byFrom[f] {
			jobs = append(jobs, []int{i})
		}
	}
	run := func(idx []int) {
		if many != nil && len(idx) > 1 {
			words := make([]string, len(idx))
			specs := make([][]string, len(idx))
			for k, i := range idx {
				words[k], specs[k] = asks[i].word, asks[i].files
			}
			if got, err := many.WordsChangedIn(ctx, asks[idx[0]].from, j.c.Head, words, specs); err == nil {
				for k, i := range idx {
					out[i] = got[k]
				}
			}
			return
		}
		for _, i := range idx {
			if at, err := j.c.Sym.WordChangedIn(ctx, asks[i].from, j.c.Head, asks[i].word, asks[i].files); err == nil {
				out[i] = at
			}
		}
	}
	workers.Each(lookups, len(jobs), func(k int) { run(jobs[k]) })
	return out
}

// maxFollow bounds the steps followGone takes for one name.
const maxFollow = 4

// followGone makes the commit of each gone name (gone[i], the answer
// changed[i] to asks[i]) the one that took it out of the code. The files
// that held the name where the sentence was written may have lost it to
// other files first (a move, a split), while the code still held it: so
// while the code files the commit found added or changed hold the name
// (a grep of those files only: the whole tree of every such commit would
// cost a cold run more than the rest of the symbol pass), the search goes
// on from that commit through the files that hold it there. A name still
// in them after maxFollow steps, or whose commit git cannot read, gets no
// commit (zero).
func (j *judge) followGone(ctx context.Context, asks []wordAsk, gone []bool, changed []gitblame.Hash) {
	open := map[int]bool{}
	for i := range asks {
		if gone[i] && !changed[i].IsZero() {
			open[i] = true
		}
	}
	for step := 0; step < maxFollow && len(open) > 0; step++ {
		byCommit := map[gitblame.Hash][]int{}
		var commits []gitblame.Hash
		for i := range asks { // in order: the same questions every run
			if !open[i] {
				continue
			}
			if _, ok := byCommit[changed[i]]; !ok {
				commits = append(commits, changed[i])
			}
			byCommit[changed[i]] = append(byCommit[changed[i]], i)
		}
		held := make([]map[string][]string, len(commits))
		failed := make([]error, len(commits))
		workers.Each(lookups, len(commits), func(k int) {
			var names []string
			for _, i := range byCommit[commits[k]] {
				names = append(names, asks[i].word)
			}
			sort.Strings(names)
			ch, err := j.c.Sym.CommitChanges(ctx, commits[k])
			if err != nil {
				failed[k] = err
				return
			}
			var specs []string
			for _, c := range ch {
				if c.To != "" && symbolExt[strings.TrimPrefix(path.Ext(c.To), ".")] {
					specs = append(specs, c.To)
				}
			}
			if len(specs) == 0 {
				held[k] = nil
				return
			}
			held[k], failed[k] = j.c.Sym.GrepWordFiles(ctx, commits[k], compactStrings(names), specs)
		})
		var again []wordAsk
		var at []int
		for k, c := range commits {
			for _, i := range byCommit[c] {
				files := held[k][asks[i].word]
				switch {
				case failed[k] != nil:
					changed[i] = gitblame.ZeroHash
					delete(open, i)
				case len(files) == 0:
					delete(open, i) // the commit that took it out of the code
				default:
					again = append(again, wordAsk{from: c, word: asks[i].word, files: files})
					at = append(at, i)
				}
			}
		}
		got := j.wordsChanged(ctx, again)
		for k, i := range at {
			changed[i] = got[k]
			if got[k].IsZero() {
				delete(open, i)
			}
		}
	}
	for i := range open {
		changed[i] = gitblame.ZeroHash // still in the code where the search ended
	}
}

// grepThen searches the trees that wrote names missing now for them. The
// commits that wrote the most missing names come first; past maxGreps,
// names stay unresolved (never stale): the bound keeps a run's cost, and
// a miss here is a reference not judged, not a false alarm.
//
// The names are missing from every code file of the content checked, so
// a file of an old tree with the same content as one of those (known, by
// blob id) holds none of them: only the other contents are read, each
// once however many of the trees hold it, and searched for the words as
// the symbol index reads them (eachWord). Nearby trees share most of
// their files, so this reads a fraction of what a search of each tree
// would. The answer for a commit and its names is kept in the
// verification cache (a tree never changes).
func (j *judge) grepThen(ctx context.Context, missing map[gitblame.Hash][]string, knownBlobs func() map[gitblame.Hash]bool) map[gitblame.Hash]map[string][]string {
	then := map[gitblame.Hash]map[string][]string{}
	if j.c.Sym == nil || j.c.H == nil {
		return then
	}
	order := make([]gitblame.Hash, 0, len(missing))
	for c := range missing {
		order = append(order, c)
	}
	sort.Slice(order, func(a, b int) bool {
		if len(missing[order[a]]) != len(missing[order[b]]) {
			return len(missing[order[a]]) > len(missing[order[b]])
		}
		return order[a].String() < order[b].String()
	})
	if len(order) > maxGreps {
		order = order[:maxGreps]
	}
	// the answers kept, and the trees of the others
	type ask struct {
		commit gitblame.Hash
		names  []string
		key    vcache.Key
		tree   gitblame.Hash
		files  map[string]gitblame.Hash // its code files
		failed bool
	}
	var asks []*ask
	for _, c := range order {
		names := missing[c]
		sort.Strings(names)
		names = compactStrings(names)
		a := &ask{commit: c, names: names, key: vcache.KeyOf("symthen", symdefVersion, c.String(), strings.Join(names, " "))}
		if v, ok := j.cache.Verdict(a.key); ok {
			then[c] = decodeWordFiles(v.Reason)
			continue
		}
		asks = append(asks, a)
	}
	if len(asks) == 0 {
		return then
	}
	isCode := func(p string) bool {
		ext := path.Ext(p)
		return ext != "" && symbolExt[ext[1:]]
	}
	codeOf := func(files map[string]gitblame.Hash) map[string]gitblame.Hash {
		code := map[string]gitblame.Hash{}
		for p, b := range files {
			if isCode(p) {
				code[p] = b
			}
		}
		return code
	}
	// the files of each tree: from the history's log of the whole chain
	// when it has it (no tree listed but the head's), else listed
	var list []*ask
	var at []map[string]gitblame.Hash
	if fa, ok := j.c.H.(filesAter); ok {
		commits := make([]gitblame.Hash, len(asks))
		for i, a := range asks {
			commits[i] = a.commit
		}
		at, _ = fa.FilesAtEach(commits, isCode) // (an error: the trees are listed)
	}
	for i, a := range asks {
		if at != nil && at[i] != nil {
			a.files = at[i]
			continue
		}
		t, err := j.c.tree(a.commit)
		if err != nil {
			a.failed = true // a commit git cannot read: its names stay unresolved
			continue
		}
		a.tree = t
		list = append(list, a)
	}
	workers.Each(lookups, len(list), func(k int) {
		files, err := j.c.H.Files(list[k].tree)
		if err != nil {
			list[k].failed = true
			return
		}
		list[k].files = codeOf(files)
	})
	// every content not known to lack the names, read once
	known := knownBlobs()
	want := map[string]bool{}
	var blobs []gitblame.Hash
	idx := map[gitblame.Hash]int{}
	type pathBlob struct {
		path string
		blob gitblame.Hash
	}
	var unknown []pathBlob
	for _, a := range asks {
		for _, n := range a.names {
			want[n] = true
		}
		for p, b := range a.files {
			if _, ok := idx[b]; !ok && !known[b] {
				idx[b] = -1
				unknown = append(unknown, pathBlob{p, b})
			}
		}
	}
	// read by path: the versions of one file follow each other, as git
	// packs them (each a delta of another), so cat-file finds the base of
	// the next in its cache instead of unpacking it again
	sort.Slice(unknown, func(a, b int) bool {
		if unknown[a].path != unknown[b].path {
			return unknown[a].path < unknown[b].path
		}
		return unknown[a].blob.String() < unknown[b].blob.String()
	})
	for _, u := range unknown {
		idx[u.blob] = len(blobs)
		blobs = append(blobs, u.blob)
	}
	ns := newNameTable(want)
	held := make([][]string, len(blobs)) // the wanted names each holds
	unread := make([]bool, len(blobs))
	files := 0
	for _, a := range asks {
		files += len(a.files)
	}
	trace.Printf("symbols: %d trees' %d code files hold %d contents not known to lack the names, read now", len(asks), files, len(blobs))
	// each content is searched as it is read, in batches read through
	// one git process each (one round trip a batch, one buffer: tens of
	// megabytes read would otherwise be as many for the collector)
	const batch = 64
	workers.Each(runtime.GOMAXPROCS(0), (len(blobs)+batch-1)/batch, func(k int) {
		lo, hi := k*batch, min((k+1)*batch, len(blobs))
		if ctx.Err() != nil {
			for i := lo; i < hi; i++ {
				unread[i] = true
			}
			return
		}
		gitblame.ReadBlobs(j.c.H, blobs[lo:hi], func(i int, data []byte, err error) {
			if err != nil {
				unread[lo+i] = true // a missing object (a partial clone)
				return
			}
			held[lo+i] = ns.holds(data)
		})
	})
	if ctx.Err() != nil {
		return then
	}
	for _, a := range asks {
		if a.failed {
			continue
		}
		names := map[string]bool{}
		for _, n := range a.names {
			names[n] = true
		}
		found := map[string][]string{}
		complete := true
		paths := make([]string, 0, len(a.files))
		for p := range a.files {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, p := range paths {
			k, ok := idx[a.files[p]]
			if !ok {
				continue // known: none of the names
			}
			if unread[k] {
				complete = false
				continue
			}
			for _, n := range held[k] {
				if names[n] {
					found[n] = append(found[n], p)
				}
			}
		}
		then[a.commit] = found
		if complete {
			j.cache.PutVerdict(a.key, vcache.Verdict{Reason: encodeWordFiles(found)})
		}
	}
	return then
}

// encodeWordFiles writes grepThen's answer for one tree: a line a name
// and file, sorted.
func encodeWordFiles(found map[string][]string) string {
	var lines []string
	for n, ps := range found {
		for _, p := range ps {
			lines = append(lines, n+"\t"+p)
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// decodeWordFiles reads what encodeWordFiles wrote.
func decodeWordFiles(s string) map[string][]string {
	found := map[string][]string{}
	for s != "" {
		var l string
		l, s, _ = strings.Cut(s, "\n")
		if n, p, ok := strings.Cut(l, "\t"); ok {
			found[n] = append(found[n], p)
		}
	}
	return found
}

// movedFrom reports the file a sentence names as the symbol's place when
// that file defined the symbol where the sentence was written and holds
// no word of that name now, while another file defines it (defs): the
// sentence's statement is false now. A file that still uses the name (an
// import, a call) may be what the sentence says of it, so it gives no
// move; nor does a sentence that names no file, or a file that is gone
// now (the path's own verdict says so).
func (j *judge) movedFrom(s symRef, defs []symLoc, ix *symbolIndex) (string, bool) {
	if s.written.IsZero() || len(s.files) == 0 || j.c.H == nil {
		return "", false
	}
	container := symbolContainer(s.ref.Target)
	for _, f := range s.files {
		p, _ := j.now.resolve(strings.TrimPrefix(f, "./"), !strings.Contains(f, "/"))
		if p == "" || symdef.Language(p) == "" {
			continue
		}
		definesNow := false
		for _, d := range defs {
			if d.path == p {
				definesNow = true
			}
		}
		if definesNow || ix.fileHas(p, s.name) {
			return "", false // the file named defines it still, or uses it
		}
		blob, ok, err := j.c.entryAt(s.written, p)
		if err != nil || !ok {
			continue
		}
		for _, d := range j.blobDefs(blob, p) {
			if d.Name == s.name && (container == "" || d.Container == "" || d.Container == container) {
				return p, true
			}
		}
	}
	return "", false
}

// namedNow resolves the files a sentence names to tracked paths.
func (j *judge) namedNow(files []string) map[string]bool {
	out := map[string]bool{}
	for _, f := range files {
		if p, _ := j.now.resolve(strings.TrimPrefix(f, "./"), !strings.Contains(f, "/")); p != "" {
			out[p] = true
		}
	}
	return out
}

// best picks the definition a reference most likely means: of the
// container written (Type.method, or module.function by its file), in a
// file the sentence names, not in the file it moved from, else the
// first. placed is false when a container was written and no definition
// is in it (subprocess.run names no function of ours): the name is
// defined, its place is not known.
func best(defs []symLoc, container, notIn string, named map[string]bool) (pick symLoc, placed bool) {
	pick = defs[0]
	score := -1
	for _, d := range defs {
		sc := 0
		if container != "" && (d.def.Container == container || strings.TrimSuffix(path.Base(d.path), path.Ext(d.path)) == container) {
			sc += 2
		}
		if named[d.path] {
			sc++
		}
		if notIn != "" && d.path == notIn {
			sc -= 4
		}
		if sc > score {
			pick, score = d, sc
		}
	}
	return pick, container == "" || score >= 2
}

// renamedTo finds the likely new name of a symbol that a commit removed
// (changes: the files it changed):
// a name of the same kind that the commit newly defined in the file that
// defined the symbol before, and that is like it (likeName). Several:
// the one sharing most word parts.
func (j *judge) renamedTo(changes []FileChange, name string) (symLoc, bool) {
	for _, ch := range changes {
		if ch.FromBlob.IsZero() || ch.ToBlob.IsZero() || symdef.Language(ch.From) == "" {
			continue
		}
		kind := ""
		before := map[string]bool{}
		for _, d := range j.blobDefs(ch.FromBlob, ch.From) {
			before[d.Name] = true
			if d.Name == name {
				kind = d.Kind
			}
		}
		if kind == "" {
			continue // not its home
		}
		var pick symLoc
		best := -1.0
		for _, d := range j.blobDefs(ch.ToBlob, ch.To) {
			if before[d.Name] || d.Kind != kind || !likeName(name, d.Name) {
				continue
			}
			if sc := similarity(name, d.Name); sc > best {
				pick, best = symLoc{path: ch.To, def: d}, sc
			}
		}
		return pick, best >= 0
	}
	return symLoc{}, false
}

// likeName reports whether b is likely a new name of a: the same but for
// case and separators (loadConfig, load_config), a small edit of a name
// of 6 letters or more (a typo, a plural), or the word parts of one all
// in the other (load_orders, load_all_orders; parse, parse_v2).
func likeName(a, b string) bool {
	na := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(a))
	nb := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(b))
	if na == nb || min(len(na), len(nb)) >= 6 && editDistance(na, nb) <= 2 {
		return true
	}
	pa, pb := nameParts(a), nameParts(b)
	if len(pa) > len(pb) {
		pa, pb = pb, pa
	}
	if len(pa) == 0 {
		return false
	}
	in := map[string]bool{}
	for _, p := range pb {
		in[p] = true
	}
	for _, p := range pa {
		if !in[p] {
			return false
		}
	}
	return true
}

// similarity of two names in [0, 1]: the share of their word parts in
// common (snake_case, camelCase, kebab-case).
func similarity(a, b string) float64 {
	ta, tb := nameParts(a), nameParts(b)
	common := 0
	inB := map[string]bool{}
	for _, t := range tb {
		inB[t] = true
	}
	for _, t := range ta {
		if inB[t] {
			common++
		}
	}
	union := len(ta) + len(tb) - common
	if union == 0 {
		return 0
	}
	return float64(common) / float64(union)
}

// nameParts splits a name into lower-case word parts.
func nameParts(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, strings.ToLower(cur.String()))
			cur.Reset()
		}
	}
	for i, c := range s {
		switch {
		case c == '_' || c == '-' || c == '.':
			flush()
		case c >= 'A' && c <= 'Z' && i > 0 && s[i-1] >= 'a' && s[i-1] <= 'z':
			flush()
			cur.WriteRune(c)
		default:
			cur.WriteRune(c)
		}
	}
	flush()
	return out
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func compactStrings(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// symbolIndex is what the code of the content checked defines, for the
// names a run asks about.
type symbolIndex struct {
	j     *judge
	defs  map[string][]symLoc // wanted name → its definitions
	found map[string]bool     // wanted names seen as words in the files read
	ids   map[string]string   // path → content id, for the files whose words are cached
	read  map[string]bool     // the files read this run
	files int                 // the code files of the content checked
	code  *codeParse          // the code files, as read (knownBlobs)
}

// knownBlobs returns the contents (blob ids) of the code files of the
// content checked whose words were read, this run or before: a name no
// file holds now is in none of them. A file that holds its blob's words
// but not all its bytes (git changed its line endings: source.BlobNamer)
// names that blob too.
func (ix *symbolIndex) knownBlobs() map[gitblame.Hash]bool {
	known := map[gitblame.Hash]bool{}
	bn, _ := ix.code.src.(source.BlobNamer)
	for i, p := range ix.code.paths {
		f := &ix.code.files[i]
		if !f.cached && !f.read {
			continue
		}
		id := f.id
		if !strings.HasPrefix(id, "blob:") && bn != nil {
			id, _ = bn.BlobID(p)
		}
		if b, ok := strings.CutPrefix(id, "blob:"); ok {
			if h, err := gitblame.ParseHash(b); err == nil {
				known[h] = true
			}
		}
	}
	return known
}

// codeFile is one code file of the content checked, as the symbol index
// reads it: what it holds does not depend on the names looked for.
type codeFile struct {
	id     string
	cached bool         // its definitions are in the cache: defs
	defs   string       // cached: its definitions, encoded
	parsed []symdef.Def // read: every definition of the file
	words  string       // read: its words, each once, space-separated
	read   bool
}

// codeParse reads and parses the code files of the content checked that
// the cache does not know: begun while the memories are judged (the
// first symbol reference found), by one worker, and ended by the symbol
// index with all the workers it has (work), so the second core parses
// while the first judges.
type codeParse struct {
	src    source.Source
	paths  []string // the code files, sorted
	files  []codeFile
	toRead []int // indices of files to read
	next   atomic.Int64
	wg     sync.WaitGroup
	readMu sync.Mutex // (reads one at a time)
}

// newCodeParse lists the code files of the content checked and looks
// them up in the cache; nothing is read yet.
func (j *judge) newCodeParse(src source.Source) *codeParse {
	vc := j.cache
	cp := &codeParse{src: src}
	cp.paths = make([]string, 0, len(j.now.paths))
	for p := range j.now.paths {
		ext := path.Ext(p)
		if ext != "" && symbolExt[ext[1:]] {
			cp.paths = append(cp.paths, p)
		}
	}
	sort.Strings(cp.paths)
	cp.files = make([]codeFile, len(cp.paths))
	for i, p := range cp.paths {
		if vc != nil {
			// (gitrepo's working tree names a file git may convert by its
			// stat data: a warm run still finds its definitions cached)
			if t, ok := src.(source.Identifier); ok {
				if id, ok := t.ContentID(p); ok {
					cp.files[i].id = id
				}
			}
		}
		if id := cp.files[i].id; id != "" {
			if v, ok := vc.Verdict(vcache.KeyOf("symdef", symdefVersion, symdef.Language(p), id)); ok {
				cp.files[i].cached, cp.files[i].defs = true, v.Reason
				continue
			}
		}
		cp.toRead = append(cp.toRead, i)
	}
	return cp
}

// start parses files in n goroutines until none is left.
func (cp *codeParse) start(n int) {
	for range n {
		cp.wg.Add(1)
		go func() {
			defer cp.wg.Done()
			cp.work()
		}()
	}
}

// work parses files until none is left.
func (cp *codeParse) work() {
	var ws wordDedup // the words of a file, each once (reused for the next)
	for {
		k := int(cp.next.Add(1)) - 1
		if k >= len(cp.toRead) {
			return
		}
		f := &cp.files[cp.toRead[k]]
		p := cp.paths[cp.toRead[k]]
		cp.readMu.Lock()
		data, err := cp.src.ReadFile(p)
		cp.readMu.Unlock()
		if err != nil {
			continue // unreadable now: it defines nothing
		}
		f.read = true
		f.parsed = symdef.Definitions(p, data)
		f.words = ws.words(data) // in the order first seen
	}
}

// finish parses what is left with workers goroutines and waits for all.
func (cp *codeParse) finish(workers int) {
	cp.start(workers)
	cp.wg.Wait()
}

// stop parses nothing more and waits for the files being parsed.
func (cp *codeParse) stop() {
	cp.next.Store(int64(len(cp.toRead)))
	cp.wg.Wait()
}

// startCode begins reading the code files for the symbol index, in one
// goroutine beside the judging of memories, once a memory names a symbol
// (none is read for memories that name none). src is the content
// checked (not a recorder of a memory's reads).
func (j *judge) startCode(src source.Source) {
	if j.code != nil || j.now == nil || len(j.syms) == 0 {
		return
	}
	j.code = j.newCodeParse(src)
	j.code.start(max(1, runtime.GOMAXPROCS(0)-1))
}

// symIndex finds the definitions of the wanted names in the code of the
// content checked. Each file's definitions and words are kept in the
// verification cache under its content id, so a warm run reads no file
// it knows; a file without an id (modified, untracked) is read.
func (j *judge) symIndex(want map[string]bool) *symbolIndex {
	vc := j.cache
	cp := j.code
	if cp == nil {
		cp = j.newCodeParse(j.src)
	}
	ix := &symbolIndex{j: j, defs: map[string][]symLoc{}, found: map[string]bool{}, ids: map[string]string{}, read: map[string]bool{}, code: cp}
	cp.finish(runtime.GOMAXPROCS(0))
	ix.files = len(cp.paths)
	for i, p := range cp.paths {
		f := &cp.files[i]
		if f.cached {
			ix.ids[p] = f.id
			eachDef(f.defs, func(d symdef.Def) {
				if want[d.Name] {
					ix.defs[d.Name] = append(ix.defs[d.Name], symLoc{path: p, def: d})
				}
			})
			continue
		}
		for _, d := range f.parsed {
			if want[d.Name] {
				ix.defs[d.Name] = append(ix.defs[d.Name], symLoc{path: p, def: d})
			}
		}
		if !f.read {
			continue
		}
		ix.read[p] = true
		for ws := f.words; ws != ""; {
			var w string
			w, ws, _ = strings.Cut(ws, " ")
			if want[w] {
				ix.found[w] = true
			}
		}
		if f.id != "" {
			lang := symdef.Language(p)
			vc.PutVerdict(vcache.KeyOf("symdef", symdefVersion, lang, f.id), vcache.Verdict{Reason: encodeDefs(f.parsed)})
			vc.PutVerdict(vcache.KeyOf("symwords", symdefVersion, f.id), vcache.Verdict{Reason: f.words})
		}
	}
	return ix
}

// wordsOf reports which of names occur as words in the code: from the
// files read this run, then the cached words of the others (read again
// when their words are not cached).
func (ix *symbolIndex) wordsOf(names map[string]bool) map[string]bool {
	out := map[string]bool{}
	left := 0
	for n := range names {
		if ix.found[n] {
			out[n] = true
		} else {
			left++
		}
	}
	if left == 0 {
		return out
	}
	paths := make([]string, 0, len(ix.ids))
	for p := range ix.ids {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	vc := ix.j.cache
	// every file named by its content: the answer for this code and these
	// names may be cached whole
	var whole vcache.Key
	if len(ix.read) == 0 && len(paths) == ix.files {
		sum := sha256.New()
		for _, p := range paths {
			sum.Write([]byte(p + "\x00" + ix.ids[p] + "\x00"))
		}
		asked := make([]string, 0, len(names))
		for n := range names {
			if !out[n] {
				asked = append(asked, n)
			}
		}
		sort.Strings(asked)
		whole = vcache.KeyOf("symfloor", symdefVersion, string(sum.Sum(nil)), strings.Join(asked, " "))
		if v, ok := vc.Verdict(whole); ok {
			for _, w := range strings.Fields(v.Reason) {
				out[w] = true
			}
			return out
		}
		defer func() {
			found := make([]string, 0, len(out))
			for _, n := range asked {
				if out[n] {
					found = append(found, n)
				}
			}
			vc.PutVerdict(whole, vcache.Verdict{Reason: strings.Join(found, " ")})
		}()
	}
	for _, p := range paths {
		if ix.read[p] {
			continue
		}
		v, ok := vc.Verdict(vcache.KeyOf("symwords", symdefVersion, ix.ids[p]))
		if ok {
			for _, w := range strings.Fields(v.Reason) {
				if names[w] && !out[w] {
					out[w] = true
					left--
				}
			}
		} else if data, err := ix.j.src.ReadFile(p); err == nil {
			eachWord(data, func(w []byte) {
				if names[string(w)] && !out[string(w)] {
					out[string(w)] = true
					left--
				}
			})
		}
		if left == 0 {
			break
		}
	}
	return out
}

// fileHas reports whether file p of the content checked holds name as a
// word (from its cached words, else by reading it).
func (ix *symbolIndex) fileHas(p, name string) bool {
	if id, ok := ix.ids[p]; ok && !ix.read[p] {
		if v, ok := ix.j.cache.Verdict(vcache.KeyOf("symwords", symdefVersion, id)); ok {
			for _, w := range strings.Fields(v.Reason) {
				if w == name {
					return true
				}
			}
			return false
		}
	}
	data, err := ix.j.src.ReadFile(p)
	if err != nil {
		return false
	}
	has := false
	eachWord(data, func(w []byte) {
		if string(w) == name {
			has = true
		}
	})
	return has
}

// blobDefs returns the definitions of a blob read as file p (its
// language), remembered in the run and in the verification cache.
func (j *judge) blobDefs(blob gitblame.Hash, p string) []symdef.Def {
	lang := symdef.Language(p)
	if lang == "" {
		return nil
	}
	key := vcache.KeyOf("symdef", symdefVersion, lang, "blob:"+blob.String())
	if d, ok := j.blobs[key]; ok {
		return d
	}
	if j.blobs == nil {
		j.blobs = map[vcache.Key][]symdef.Def{}
	}
	if j.cache != nil {
		if v, ok := j.cache.Verdict(key); ok {
			var defs []symdef.Def
			eachDef(v.Reason, func(d symdef.Def) { defs = append(defs, d) })
			j.blobs[key] = defs
			return defs
		}
	}
	data, err := j.c.H.Blob(blob)
	if err != nil {
		j.blobs[key] = nil // a missing object: nothing known of it
		return nil
	}
	defs := symdef.Definitions(p, data)
	j.blobs[key] = defs
	if j.cache != nil {
		j.cache.PutVerdict(key, vcache.Verdict{Reason: encodeDefs(defs)})
	}
	return defs
}

// encodeDefs writes definitions one a line: name, line, container, kind.
func encodeDefs(defs []symdef.Def) string {
	var b strings.Builder
	for _, d := range defs {
		b.WriteString(d.Name)
		b.WriteByte('\t')
		b.WriteString(strconv.Itoa(d.Line))
		b.WriteByte('\t')
		b.WriteString(d.Container)
		b.WriteByte('\t')
		b.WriteString(d.Kind)
		b.WriteByte('\n')
	}
	return b.String()
}

// eachDef reads what encodeDefs wrote.
func eachDef(s string, f func(symdef.Def)) {
	for s != "" {
		var l string
		l, s, _ = strings.Cut(s, "\n")
		parts := strings.Split(l, "\t")
		if len(parts) != 4 {
			continue
		}
		n, _ := strconv.Atoi(parts[1])
		f(symdef.Def{Name: parts[0], Line: n, Container: parts[2], Kind: parts[3]})
	}
}
