package relocbench

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"path"
	"regexp"
	"strings"

	"github.com/git-memcite/git-memcite/internal/cite"
	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/prose"
	"github.com/git-memcite/git-memcite/internal/relocate"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
)

// Sentence styles of the adopt benchmark's memories.
var AdoptStyles = []string{"identifier", "quoted-code", "no-context", "wrong-number"}

// AdoptReport scores adopt on memories written in prose at a commit, read
// after the code changed: precision is the share of proposals at the true
// location of the lines the sentence meant, recall the share of mentions
// whose lines still exist that were proposed there.
type AdoptReport struct {
	Scenarios int
	Rows      map[string]*AdoptTally // by sentence style, and "all"
}

// AdoptTally counts outcomes for one style.
type AdoptTally struct {
	Mentions, Proposed, Correct, Alive int
}

// Precision is correct proposals over proposals.
func (t *AdoptTally) Precision() float64 {
	if t.Proposed == 0 {
		return 100
	}
	return 100 * float64(t.Correct) / float64(t.Proposed)
}

// Recall is correct proposals over mentions whose lines exist.
func (t *AdoptTally) Recall() float64 {
	if t.Alive == 0 {
		return 0
	}
	return 100 * float64(t.Correct) / float64(t.Alive)
}

// Adopt runs the adopt benchmark on cfg.Chains mixed chains: a memory is
// written at the first commit, mentioning each cited line as path:line in
// a sentence of one of AdoptStyles, and committed; the chain's commits
// follow; adopt then runs on the last commit.
func Adopt(ctx context.Context, cfg Config) (*AdoptReport, error) {
	rep := &AdoptReport{Rows: map[string]*AdoptTally{}}
	err := eachChain(cfg, 0x61646f70, "adopt", func(r *rand.Rand, sc *scenario, dir string, i int) error {
		rep.Scenarios++
		return runAdopt(ctx, cfg, rep, r, sc, dir, i)
	})
	return rep, err
}

var identWordRe = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]{3,}`)

var keywords = map[string]bool{"func": true, "return": true, "string": true, "error": true, "true": true,
	"false": true, "const": true, "type": true, "struct": true, "interface": true, "package": true,
	"else": true, "range": true, "bool": true, "byte": true, "make": true, "append": true, "import": true,
	"switch": true, "case": true, "break": true, "continue": true, "default": true, "defer": true, "chan": true}

// sentence writes the prose mention of c in a style; wrong-number
// mentions a line a few lines off, with a word of the true line.
func sentence(r *rand.Rand, c citeSpec, style string) (string, bool) {
	line := strings.TrimSpace(c.text[0])
	var ids []string // the identifiers a person would name: no keywords
	for _, id := range identWordRe.FindAllString(line, -1) {
		if !keywords[id] {
			ids = append(ids, id)
		}
	}
	mention := fmt.Sprintf("%s:%d", c.path, c.line)
	if c.end > c.line {
		mention = fmt.Sprintf("%s:%d-%d", c.path, c.line, c.end)
	}
	switch style {
	case "identifier":
		if len(ids) == 0 {
			return "", false
		}
		return fmt.Sprintf("The logic around `%s` lives at %s.", ids[r.IntN(len(ids))], mention), true
	case "quoted-code":
		if strings.Contains(line, "`") {
			return "", false
		}
		return fmt.Sprintf("It does `%s` (%s).", line, mention), true
	case "no-context":
		return fmt.Sprintf("See %s.", mention), true
	default: // wrong-number
		if len(ids) == 0 {
			return "", false
		}
		return fmt.Sprintf("The `%s` step is at %s:%d.", ids[r.IntN(len(ids))], c.path, c.line+3+r.IntN(20)), true
	}
}

func runAdopt(ctx context.Context, cfg Config, rep *AdoptReport, r *rand.Rand, sc *scenario, dir string, idx int) error {
	_, work, hashes, err := replayRepos(sc, dir)
	if err != nil {
		return err
	}
	var body strings.Builder
	var styles []string
	var cites []citeSpec
	var truths []truth
	for i, c := range sc.cites {
		style := AdoptStyles[r.IntN(len(AdoptStyles))]
		s, ok := sentence(r, c, style)
		if !ok || sc.truths[i].partial {
			continue
		}
		body.WriteString(s + "\n")
		styles, cites, truths = append(styles, style), append(cites, c), append(truths, sc.truths[i])
	}
	memory := []byte("---\nid: notes\n---\n" + body.String())
	for k, c := range sc.commits {
		if c.branch != "main" {
			continue
		}
		if err := commitWithMemory(work, hashes[k], c.subject, memory); err != nil {
			return err
		}
	}
	ms, err := adoptIn(ctx, work, memory)
	if err != nil {
		return err
	}
	// mentions come back in body order: one per sentence
	if len(ms) != len(cites) {
		return fmt.Errorf("%d mentions found for %d sentences", len(ms), len(cites))
	}
	for i, m := range ms {
		t := truths[i]
		for _, key := range []string{styles[i], "all"} {
			row := rep.Rows[key]
			if row == nil {
				row = &AdoptTally{}
				rep.Rows[key] = row
			}
			row.Mentions++
			if !t.gone && styles[i] != "wrong-number" {
				row.Alive++
			}
			if m.Status != cite.Proposed {
				if cfg.Trace != nil && key == "all" && !t.gone && styles[i] != "wrong-number" && styles[i] != "no-context" {
					fmt.Fprintf(cfg.Trace, "#%d adopt %s: %q %s: %s\n", idx, styles[i], m.Text, m.Status, m.Reason)
				}
				continue
			}
			row.Proposed++
			want := fmt.Sprintf("%s:%d", t.path, t.line)
			if t.end > t.line {
				want = fmt.Sprintf("%s:%d-%d", t.path, t.line, t.end)
			}
			if !t.gone && m.Location == want {
				row.Correct++
			} else if cfg.Trace != nil && key == "all" {
				fmt.Fprintf(cfg.Trace, "#%d adopt %s: %q proposed %s, truth %+v\n", idx, styles[i], m.Text, m.Location, t)
			}
		}
	}
	return nil
}

// adoptIn runs adopt (without --fix) on the memory of dir, anchoring
// mentions in history as the command does.
func adoptIn(ctx context.Context, dir string, memory []byte) ([]cite.Mention, error) {
	repo, err := gitrepo.Discover(dir)
	if err != nil {
		return nil, err
	}
	defer repo.Close()
	h, err := repo.History()
	if err != nil {
		return nil, err
	}
	defer h.Close()
	head, err := h.Resolve("HEAD")
	if err != nil {
		return nil, err
	}
	wt, err := source.NewWorktree(dir)
	if err != nil {
		return nil, err
	}
	idx, err := repo.Index(ctx)
	if err != nil {
		return nil, err
	}
	paths, err := idx.List(".")
	if err != nil {
		return nil, err
	}
	f, err := memfile.Parse(cycleMemory, memory)
	if err != nil {
		return nil, err
	}
	mem := &store.Memory{Path: cycleMemory, Dir: path.Dir(cycleMemory), File: f}
	res, err := (&prose.Checker{H: h, Log: proseLog{h}, Head: head, Dirs: []string{mem.Dir}, All: []*store.Memory{mem}}).Resolver(wt)
	if err != nil {
		return nil, err
	}
	env := cite.Env{Src: wt, Prose: res, MemoryDirs: []string{mem.Dir}, Anchor: &relocate.MentionAnchorer{H: h, T: gitblame.New(h), Head: head,
		Target: gitblame.Target{Commit: head, View: wt, CrossFiles: func(p string) bool { _, err := idx.Stat(p); return err == nil }}}}
	ms, _, err := cite.Adopt(ctx, mem, env, cite.NewTracked(paths), false)
	return ms, err
}

// proseLog adapts gitrepo's history to prose.Log, as the command does.
type proseLog struct{ h *gitrepo.History }

func (l proseLog) PathLog(ctx context.Context, head gitblame.Hash, dirs []string) ([]prose.LogCommit, error) {
	log, err := l.h.PathLog(ctx, head, dirs)
	return convertLog(log), err
}

func (l proseLog) Moves(ctx context.Context, head gitblame.Hash) ([]gitblame.Hash, []prose.LogCommit, error) {
	order, log, err := l.h.Moves(ctx, head)
	return order, convertLog(log), err
}

func convertLog(log []gitrepo.LogCommit) []prose.LogCommit {
	out := make([]prose.LogCommit, len(log))
	for i, c := range log {
		out[i].Hash = c.Hash
		for _, ch := range c.Changes {
			out[i].Changes = append(out[i].Changes, prose.FileChange(ch))
		}
	}
	return out
}

// FormatAdopt prints an adopt report.
func FormatAdopt(w io.Writer, rep *AdoptReport) {
	fmt.Fprintf(w, "%d chains\n%-14s %9s %9s %9s %11s %9s\n", rep.Scenarios, "sentence", "mentions", "proposed", "correct", "precision", "recall")
	for _, k := range append(append([]string{}, AdoptStyles...), "all") {
		t := rep.Rows[k]
		if t == nil {
			continue
		}
		fmt.Fprintf(w, "%-14s %9d %9d %9d %10.1f%% %8.1f%%\n", k, t.Mentions, t.Proposed, t.Correct, t.Precision(), t.Recall())
	}
}
