package prose

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// Symbols is what the checker asks git about symbols (internal/gitrepo).
type Symbols interface {
	// GrepWords reports which names occur as whole words in the files
	// of a commit that match pathspecs.
	GrepWords(ctx context.Context, commit gitblame.Hash, names, pathspecs []string) (map[string]bool, error)
	// LastChangeOf is the newest first-parent commit in from..head whose
	// diff adds or removes a line with the word; zero when none.
	LastChangeOf(ctx context.Context, from, head gitblame.Hash, word string) (gitblame.Hash, error)
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
// (each is a git log -G over the history since the sentence).
const maxBlame = 10

// maxGreps bounds the commits whose trees are searched for names that
// are gone now, in one run.
const maxGreps = 16

// eachWord calls f with every identifier of data (letters, digits, _ and
// $, not starting with a digit).
func eachWord(data []byte, f func([]byte)) {
	start := -1
	for i := 0; i <= len(data); i++ {
		c := byte(0)
		if i < len(data) {
			c = data[i]
		}
		ident := c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		switch {
		case ident && start == -1:
			if c < '0' || c > '9' {
				start = i
			} else {
				start = -2 // inside a number: skip to its end
			}
		case !ident && start != -1:
			if start >= 0 {
				f(data[start:i])
			}
			start = -1
		}
	}
}

// symRef is a symbol reference waiting for the symbol pass.
type symRef struct {
	mem     int
	ref     Ref
	written gitblame.Hash
	name    string
}

// symbolName is the identifier a symbol reference is checked by: its last
// part (Type.method → method).
func symbolName(t string) string {
	i := strings.LastIndexAny(t, ".:#")
	return t[i+1:]
}

// symbols judges the symbol references of a run with the floor of
// docs/prose-references.md: a symbol is present when its name occurs as
// a word in the tracked code. Present now: valid. Absent now but present
// where the sentence was written: gone (with the commit that last changed
// a line with the name). Absent then too: unresolved.
func (j *judge) symbols(ctx context.Context, syms []symRef, out [][]verify.ProseCitation) error {
	if len(syms) == 0 {
		return nil
	}
	want := map[string]bool{}
	for _, s := range syms {
		want[s.name] = true
	}
	now, err := j.wordsNow(want)
	if err != nil {
		return err
	}
	var pathspecs []string
	for _, e := range symbolExts {
		pathspecs = append(pathspecs, "*."+e)
	}
	// the names missing now, by the commit that wrote them
	missing := map[gitblame.Hash][]string{}
	for _, s := range syms {
		if !now[s.name] && !s.written.IsZero() {
			missing[s.written] = append(missing[s.written], s.name)
		}
	}
	then := map[gitblame.Hash]map[string]bool{}
	if j.c.Sym != nil {
		// the commits that wrote the most missing names first; past
		// maxGreps, names stay unresolved (never stale): the bound keeps
		// a run's cost, and a miss here is a reference not judged, not a
		// false alarm
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
		for _, c := range order {
			names := missing[c]
			sort.Strings(names)
			names = compactStrings(names)
			found, err := j.c.Sym.GrepWords(ctx, c, names, pathspecs)
			if err != nil {
				if ctx.Err() != nil {
					return err
				}
				// a tree git cannot search (objects missing from a partial
				// clone): its names stay unresolved, the run goes on
				found = nil
			}
			then[c] = found
		}
	}
	blamed := 0
	seen := map[string]bool{}
	for _, s := range syms {
		key := fmt.Sprint(s.mem, "\x00", s.ref.Target)
		if seen[key] {
			continue
		}
		seen[key] = true
		pc := verify.ProseCitation{Ref: verify.ProseRef{Kind: "symbol", Form: s.ref.Form, Text: s.ref.Target, Line: s.ref.MemLine, Start: s.ref.Start, Stop: s.ref.Stop, Target: s.ref.Target}}
		if !s.written.IsZero() {
			pc.Ref.Written = s.written.String()
		}
		pc.Citation = memfile.Citation{Path: s.ref.Target, SrcLine: s.ref.MemLine, Commit: pc.Ref.Written, Form: memfile.FormString}
		switch {
		case now[s.name]:
			pc.Status = verify.Valid
		case s.written.IsZero() || !then[s.written][s.name]:
			pc.Ref.Unresolved = true
			pc.Status, pc.Reason = verify.Skipped, "unresolved: "+s.name+" is not in the code"
			if !s.written.IsZero() {
				pc.Reason += " of " + s.written.Short() + ", where it was written"
			}
		default:
			pc.Status, pc.Kind = verify.Stale, verify.KindSymbolGone
			in := "since " + s.written.Short()
			if blamed < maxBlame && j.c.Sym != nil {
				blamed++
				if at, err := j.c.Sym.LastChangeOf(ctx, s.written, j.c.Head, s.name); err == nil && !at.IsZero() {
					pc.Ref.Changed = at.String()
					in = "in " + at.Short()
				}
			}
			pc.Reason = fmt.Sprintf("Symbol %s is gone from the code %s (it was there when the sentence was written)", s.name, in)
		}
		out[s.mem] = append(out[s.mem], pc)
	}
	return nil
}

// wordsNow finds which wanted names occur as words in the code of the
// content checked.
func (j *judge) wordsNow(want map[string]bool) (map[string]bool, error) {
	found := map[string]bool{}
	for p := range j.now.paths {
		ext := path.Ext(p)
		if ext == "" || !symbolExt[ext[1:]] {
			continue
		}
		data, err := j.src.ReadFile(p)
		if err != nil {
			continue // unreadable now: its words do not count
		}
		eachWord(data, func(w []byte) {
			if want[string(w)] { // no allocation: the compiler looks the bytes up
				found[string(w)] = true
			}
		})
		if len(found) == len(want) {
			break
		}
	}
	return found, nil
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
