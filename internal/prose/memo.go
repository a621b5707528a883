package prose

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// The references of one memory, judged up to the symbol pass (judge.memory),
// are kept in the verification cache, keyed by everything the judgment
// reads (docs/cache.md, "Prose references"):
//
//   - the run: the name of the content checked, the options, the memory
//     directories, every path the content checked lists, and the path,
//     folder, stem, id and file name of every memory of the store;
//   - the memory: its path, its folder, its content, the paths its
//     frontmatter cites, and its anchor in history: the newest commit of
//     HEAD's first-parent history that changed the memory's file (through
//     its renames) or renamed or deleted any file. The commits after it
//     change nothing the judgment reads (the versions of the memory, the
//     renames and deletions), so a commit that touches neither keeps
//     every judgment. Without a history that lists both, HEAD itself.
//
// What the judgment asked the content checked beyond its list of paths
// (whether a file exists, a file's text for a line not committed yet) is
// kept with the answer and asked again when it is found: an answer that
// differs judges the memory afresh. A judgment that met an object missing
// from the repository (a partial clone) is not kept.

// memoVersion names the rules of judge.memory in cache keys: change it
// when the same inputs would be judged otherwise.
const memoVersion = "7"

// memoEntry is what the cache holds for one memory.
type memoEntry struct {
	Cites  []verify.ProseCitation `json:"c,omitempty"`
	Syms   []memoSym              `json:"s,omitempty"`
	Probes []probe                `json:"p,omitempty"`
}

// memoSym is a symRef without its memory.
type memoSym struct {
	Ref     Ref
	Written string
	Name    string
	Files   []string
}

// probe is one question judge.memory asked the content checked and its
// answer: Stat (whether the path exists) or ReadFile (the content's
// SHA-256 in hex, "" when it cannot be read).
type probe struct {
	Read bool   `json:"r,omitempty"`
	Path string `json:"p"`
	OK   bool   `json:"o,omitempty"`
	Sum  string `json:"s,omitempty"`
}

// recorder is the content checked, recording the probes of judge.memory.
// It records Stat and ReadFile, the only questions judge.memory asks
// beyond List and Name (which are in the run's key).
type recorder struct {
	source.Source
	probes []probe
}

func (r *recorder) Stat(p string) (source.Entry, error) {
	e, err := r.Source.Stat(p)
	r.probes = append(r.probes, probe{Path: p, OK: err == nil})
	return e, err
}

func (r *recorder) ReadFile(p string) ([]byte, error) {
	data, err := r.Source.ReadFile(p)
	r.probes = append(r.probes, probeRead(p, data, err))
	return data, err
}

func probeRead(p string, data []byte, err error) probe {
	pr := probe{Read: true, Path: p, OK: err == nil}
	if err == nil {
		sum := sha256.Sum256(data)
		pr.Sum = hex.EncodeToString(sum[:])
	}
	return pr
}

// holds reports whether every probe gets the same answer from src now.
func holds(src source.Source, probes []probe) bool {
	for _, pr := range probes {
		var now probe
		if pr.Read {
			data, err := src.ReadFile(pr.Path)
			now = probeRead(pr.Path, data, err)
		} else {
			_, err := src.Stat(pr.Path)
			now = probe{Path: pr.Path, OK: err == nil}
		}
		if now != pr {
			return false
		}
	}
	return true
}

// runKey hashes what every memory's judgment of a run depends on besides
// the memory itself.
func (c *Checker) runKey(src source.Source, list string) string {
	h := sha256.New()
	put := func(s string) {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	put(memoVersion)
	put(extractVersion)
	if c.H == nil || c.Log == nil {
		put("no history")
	}
	if c.Sym == nil {
		put("no symbol history")
	}
	put(src.Name())
	put(strconv.FormatBool(c.Opt.Fences))
	put(strconv.Itoa(len(c.Dirs)))
	for _, d := range c.Dirs {
		put(d)
	}
	put(list) // listDigest of every path src lists
	put(strconv.Itoa(len(c.All)))
	for _, m := range c.All {
		put(m.Path)
		put(m.Dir)
		put(m.Stem())
		put(m.RelID())
		put(m.ID)
	}
	return string(h.Sum(nil))
}

// memoKey is the cache key of one memory's judgment in a run.
func memoKey(run, anchor string, m *store.Memory) vcache.Key {
	// the content by its name when the store has one (a blob id, or a
	// "stat:" name: either longer than a SHA-256, so never equal to one),
	// else by a SHA-256 of it
	content := m.ContentID
	if content == "" {
		sum := sha256.Sum256(m.File.Src)
		content = string(sum[:])
	}
	n := 0
	for _, c := range m.File.Citations {
		n += len(c.Path) + 1
	}
	cited := make([]byte, 0, n)
	for i, c := range m.File.Citations {
		if i > 0 {
			cited = append(cited, 0)
		}
		cited = append(cited, c.Path...)
	}
	return vcache.KeyOf("prose-memory", run, anchor, m.Path, m.Dir, content, string(cited))
}

// anchors returns the anchor of every memory of the store (by path), as
// the cache keys name it: from the verification cache by HEAD, the memory
// directories and the memories' paths, else from the history.
func (c *Checker) anchors(ctx context.Context, vc *vcache.Cache) (map[string]string, error) {
	if c.H == nil || c.Log == nil {
		return nil, nil
	}
	k := c.anchorsKey()
	if out := c.cachedAnchors(vc, k); out != nil {
		return out, nil
	}
	c.prefetch(ctx) // (when CheckProse has not)
	if err := c.loadLog(ctx); err != nil {
		return nil, err
	}
	if err := c.waitMoves(ctx); err != nil {
		return nil, err
	}
	missing := c.missing
	out := make(map[string]string, len(c.All))
	var t anchorTable
	index := map[string]int{}
	for _, m := range c.All {
		a := c.anchor(m.Path)
		out[m.Path] = a
		i, ok := index[a]
		if !ok {
			i = len(t.Anchors)
			index[a] = i
			t.Anchors = append(t.Anchors, a)
		}
		t.Of = append(t.Of, i)
	}
	if c.missing == missing {
		if b, err := json.Marshal(t); err == nil {
			vc.PutVerdict(k, vcache.Verdict{Reason: string(b)})
		}
	}
	return out, nil
}

// anchorsKey is the cache key of the store's anchors.
func (c *Checker) anchorsKey() vcache.Key {
	parts := []string{memoVersion, c.Head.String(), strings.Join(c.Dirs, "\x00")}
	for _, m := range c.All {
		parts = append(parts, m.Path)
	}
	return vcache.KeyOf("prose-anchors", parts...)
}

// cachedAnchors returns the anchors the verification cache holds under
// k, or nil.
func (c *Checker) cachedAnchors(vc *vcache.Cache, k vcache.Key) map[string]string {
	v, ok := vc.Verdict(k)
	if !ok {
		return nil
	}
	var t anchorTable
	if json.Unmarshal([]byte(v.Reason), &t) != nil || len(t.Of) != len(c.All) {
		return nil
	}
	out := make(map[string]string, len(c.All))
	for i, m := range c.All {
		if t.Of[i] < 0 || t.Of[i] >= len(t.Anchors) {
			return nil
		}
		out[m.Path] = t.Anchors[t.Of[i]]
	}
	return out
}

// seen reports whether the verification cache may hold judgments of the
// memories of these directories: whether a run kept them before (marked
// by markSeen, which every run with the cache does).
func (c *Checker) seen(vc *vcache.Cache) bool {
	_, ok := vc.Verdict(c.seenKey())
	return ok
}

func (c *Checker) markSeen(vc *vcache.Cache) {
	vc.PutVerdict(c.seenKey(), vcache.Verdict{})
}

func (c *Checker) seenKey() vcache.Key {
	return vcache.KeyOf("prose-judged", memoVersion, strings.Join(c.Dirs, "\x00"))
}

// anchorTable is how the anchors of a store are kept: the distinct
// anchors, and the index of each memory's (in the store's order).
type anchorTable struct {
	Anchors []string `json:"a"`
	Of      []int    `json:"i"`
}

// anchor is the anchor of the memory at p (loadLog and fate have run).
func (c *Checker) anchor(p string) string {
	vs := c.versions[p]
	if !c.logRead || len(c.moves) == 0 {
		return "head " + c.Head.String()
	}
	newest := c.moves[0].Hash // (newest first)
	if len(vs) > 0 {
		pos, ok := c.order[vs[0].commit]
		if !ok {
			return "head " + c.Head.String()
		}
		if pos < c.order[newest] {
			newest = vs[0].commit
		}
	}
	return newest.String()
}

// recall returns the cached judgment of m, when the cache has one whose
// probes still hold.
func (j *judge) recall(vc *vcache.Cache, k vcache.Key, m *store.Memory, mem int) ([]verify.ProseCitation, []symRef, bool) {
	v, ok := vc.Verdict(k)
	if !ok {
		return nil, nil, false
	}
	e, err := decodeMemo(unsafe.Slice(unsafe.StringData(v.Reason), len(v.Reason))) // read, never written nor kept
	if err != nil || !holds(j.src, e.Probes) {
		return nil, nil, false
	}
	syms := make([]symRef, len(e.Syms))
	for i, s := range e.Syms {
		syms[i] = symRef{mem: mem, memPath: m.Path, ref: s.Ref, written: gitblame.HashOrZero(s.Written), name: s.Name, files: s.Files}
	}
	return e.Cites, syms, true
}

// remember keeps a judgment of judge.memory, when it reads back as it
// is (memocodec.go).
func remember(vc *vcache.Cache, k vcache.Key, cites []verify.ProseCitation, syms []symRef, probes []probe) {
	var e memoEntry
	if len(cites) > 0 {
		e.Cites = cites
	}
	if len(probes) > 0 {
		e.Probes = probes
	}
	for _, s := range syms {
		ms := memoSym{Ref: s.ref, Name: s.name, Files: s.files}
		if !s.written.IsZero() {
			ms.Written = s.written.String()
		}
		e.Syms = append(e.Syms, ms)
	}
	b := encodeMemo(&e)
	if back, err := decodeMemo(b); err != nil || !reflect.DeepEqual(back, e) {
		return
	}
	vc.PutVerdict(k, vcache.Verdict{Reason: string(b)})
}
