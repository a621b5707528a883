package app

import (
	"bytes"
	"context"
	"encoding/gob"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/prose"
)

// proseCacheFile holds, in the git directory, what git answered the
// prose checker for one HEAD: the logs, the trees searched for names and
// the commits that removed them. A run at another HEAD starts afresh.
const proseCacheFile = "memcite-prose-cache"

// proseCacheVersion changes when the cached answers change meaning.
const proseCacheVersion = 3

// cachedLog is a log of commits as hash strings (gitblame.Hash has no
// exported fields to encode).
type cachedLog struct {
	Hashes  []string
	Changes [][]cachedChange
}

type cachedChange struct {
	Status           byte
	From, To         string
	FromBlob, ToBlob string
}

// proseAnswers are the cached answers.
type proseAnswers struct {
	Version  int
	Head     string
	PathLogs map[string]cachedLog
	Order    []string
	Moves    *cachedLog
	Greps    map[string][]string  // commit + NUL + names → names found
	Changes  map[string]string    // from + NUL + word + NUL + pathspecs → commit ("" none)
	Commits  map[string]cachedLog // commit → the files it changed (one commit)
}

// cachingGit answers prose.Log and prose.Symbols from the cache, asking
// git (next) for what it does not hold.
type cachingGit struct {
	next interface {
		prose.Log
		prose.Symbols
	}
	path  string
	mu    sync.Mutex
	a     proseAnswers
	dirty bool
}

func newCachingGit(gitDir string, head gitblame.Hash, next interface {
	prose.Log
	prose.Symbols
}) *cachingGit {
	c := &cachingGit{next: next, path: filepath.Join(gitDir, proseCacheFile)}
	if data, err := os.ReadFile(c.path); err == nil {
		var a proseAnswers
		if gob.NewDecoder(bytes.NewReader(data)).Decode(&a) == nil && a.Version == proseCacheVersion && a.Head == head.String() {
			c.a = a
		}
	}
	if c.a.Head == "" {
		c.a = proseAnswers{Version: proseCacheVersion, Head: head.String()}
	}
	if c.a.PathLogs == nil {
		c.a.PathLogs = map[string]cachedLog{}
	}
	if c.a.Greps == nil {
		c.a.Greps = map[string][]string{}
	}
	if c.a.Changes == nil {
		c.a.Changes = map[string]string{}
	}
	if c.a.Commits == nil {
		c.a.Commits = map[string]cachedLog{}
	}
	return c
}

// save writes the cache when it learnt something; a cache that cannot be
// written costs the next run time, nothing else.
func (c *cachingGit) save() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.dirty {
		return
	}
	var buf bytes.Buffer
	if gob.NewEncoder(&buf).Encode(&c.a) == nil {
		_ = WriteReport(c.path, buf.Bytes())
	}
}

func toCached(log []prose.LogCommit) cachedLog {
	var out cachedLog
	for _, lc := range log {
		out.Hashes = append(out.Hashes, lc.Hash.String())
		var chs []cachedChange
		for _, ch := range lc.Changes {
			chs = append(chs, cachedChange{ch.Status, ch.From, ch.To, ch.FromBlob.String(), ch.ToBlob.String()})
		}
		out.Changes = append(out.Changes, chs)
	}
	return out
}

func hashOf(s string) gitblame.Hash {
	if s == "" {
		return gitblame.ZeroHash
	}
	h, err := gitblame.ParseHash(s)
	if err != nil {
		return gitblame.ZeroHash
	}
	return h
}

func fromCached(cl cachedLog) []prose.LogCommit {
	out := make([]prose.LogCommit, len(cl.Hashes))
	for i, h := range cl.Hashes {
		out[i].Hash = hashOf(h)
		for _, ch := range cl.Changes[i] {
			out[i].Changes = append(out[i].Changes, prose.FileChange{Status: ch.Status, From: ch.From, To: ch.To,
				FromBlob: hashOf(ch.FromBlob), ToBlob: hashOf(ch.ToBlob)})
		}
	}
	return out
}

func (c *cachingGit) PathLog(ctx context.Context, head gitblame.Hash, dirs []string) ([]prose.LogCommit, error) {
	key := strings.Join(dirs, "\x00")
	c.mu.Lock()
	cl, ok := c.a.PathLogs[key]
	c.mu.Unlock()
	if ok {
		return fromCached(cl), nil
	}
	log, err := c.next.PathLog(ctx, head, dirs)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.a.PathLogs[key], c.dirty = toCached(log), true
	c.mu.Unlock()
	return log, nil
}

func (c *cachingGit) Moves(ctx context.Context, head gitblame.Hash) ([]gitblame.Hash, []prose.LogCommit, error) {
	c.mu.Lock()
	moves, order := c.a.Moves, c.a.Order
	c.mu.Unlock()
	if moves != nil {
		hs := make([]gitblame.Hash, len(order))
		for i, s := range order {
			hs[i] = hashOf(s)
		}
		return hs, fromCached(*moves), nil
	}
	hs, log, err := c.next.Moves(ctx, head)
	if err != nil {
		return nil, nil, err
	}
	cl := toCached(log)
	strs := make([]string, len(hs))
	for i, h := range hs {
		strs[i] = h.String()
	}
	c.mu.Lock()
	c.a.Moves, c.a.Order, c.dirty = &cl, strs, true
	c.mu.Unlock()
	return hs, log, nil
}

func (c *cachingGit) GrepWordFiles(ctx context.Context, commit gitblame.Hash, names, pathspecs []string) (map[string][]string, error) {
	key := commit.String() + "\x00" + strings.Join(names, "\x00")
	c.mu.Lock()
	got, ok := c.a.Greps[key]
	c.mu.Unlock()
	if ok {
		found := map[string][]string{}
		for _, np := range got {
			n, p, _ := strings.Cut(np, "\x00")
			found[n] = append(found[n], p)
		}
		return found, nil
	}
	found, err := c.next.GrepWordFiles(ctx, commit, names, pathspecs)
	if err != nil {
		return nil, err
	}
	list := []string{}
	for n, ps := range found {
		for _, p := range ps {
			list = append(list, n+"\x00"+p)
		}
	}
	c.mu.Lock()
	c.a.Greps[key], c.dirty = list, true
	c.mu.Unlock()
	return found, nil
}

func (c *cachingGit) WordChangedIn(ctx context.Context, from, head gitblame.Hash, word string, pathspecs []string) (gitblame.Hash, error) {
	key := from.String() + "\x00" + word + "\x00" + strings.Join(pathspecs, "\x00")
	c.mu.Lock()
	got, ok := c.a.Changes[key]
	c.mu.Unlock()
	if ok {
		return hashOf(got), nil
	}
	h, err := c.next.WordChangedIn(ctx, from, head, word, pathspecs)
	if err != nil {
		return h, err
	}
	s := ""
	if !h.IsZero() {
		s = h.String()
	}
	c.mu.Lock()
	c.a.Changes[key], c.dirty = s, true
	c.mu.Unlock()
	return h, nil
}

func (c *cachingGit) CommitChanges(ctx context.Context, commit gitblame.Hash) ([]prose.FileChange, error) {
	c.mu.Lock()
	cl, ok := c.a.Commits[commit.String()]
	c.mu.Unlock()
	if ok {
		if log := fromCached(cl); len(log) == 1 {
			return log[0].Changes, nil
		}
		return nil, nil
	}
	chs, err := c.next.CommitChanges(ctx, commit)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.a.Commits[commit.String()], c.dirty = toCached([]prose.LogCommit{{Hash: commit, Changes: chs}}), true
	c.mu.Unlock()
	return chs, nil
}
