package app

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/prose"
	"github.com/git-memcite/git-memcite/internal/regfile"
)

// proseCacheFile holds, in the git directory, what git answered the
// prose checker for one HEAD: the logs, the trees searched for names and
// the commits that removed them. A run at another HEAD keeps the trees
// searched (a commit's tree does not change) and the commits found for
// every HEAD (up to maxChanges), and, when the old HEAD is on the new
// one's first-parent chain, reads only the new commits' logs and finds
// the commits that removed names among them, taking the old answer when
// none did.
const proseCacheFile = "memcite-prose-cache"

// proseCacheVersion changes when the cached answers change meaning (or
// their file its format).
const proseCacheVersion = 7

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
	Version int
	Head    string
	Greps   map[string][]string // commit + NUL + names → names found
	Changes map[string]string   // head + NUL + from + NUL + word + NUL + pathspecs → commit ("" none), of any HEAD
	// commit → the files it changed: a one-commit cachedLog, gob-encoded,
	// decoded when asked for (a commit may change thousands of files, and
	// a run follows a few commits)
	Commits map[string][]byte
	proseLogs
}

// proseLogs are the cached logs: most of the file (on ai-agents 1.4 MB),
// which a run that judges every memory from the verification cache does
// not read. The file keeps them encoded apart (proseFile), and they are
// decoded when first asked for (loadLogs).
type proseLogs struct {
	PathLogs map[string]cachedLog
	Order    []string
	Moves    *cachedLog
	// the logs git could read (kept for the next HEAD)
	PathLogOK map[string]bool
	MovesOK   bool
}

// proseFile is the cache file's content: the answers, with the logs
// and the files of each commit kept encoded (encodeProseFile).
type proseFile struct {
	Version int
	Head    string
	Greps   map[string][]string
	Changes map[string]string
	Commits map[string][]byte
	Logs    []byte // a proseLogs, gob-encoded
}

// proseMagic begins the cache file.
const proseMagic = "git-memcite prose answers\n"

// proseHeader is the part of the file decoded when it is read: the
// answers but for the logs and the files of commits, which follow it as
// bytes (their offset and length there).
type proseHeader struct {
	Version int
	Head    string
	Greps   map[string][]string
	Changes map[string]string
	Commits map[string][2]int
	Logs    [2]int
}

// encodeProseFile writes f as proseMagic, the length of the gob-encoded
// proseHeader, the header and the bytes it points into: a run decodes the
// header only (a few kilobytes) and takes the rest as slices of the file
// read, not copies (on ai-agents a 2.6 MB file, which gob decoded into
// fresh memory in three copies).
func encodeProseFile(f proseFile) ([]byte, error) {
	h := proseHeader{Version: f.Version, Head: f.Head, Greps: f.Greps, Changes: f.Changes, Commits: make(map[string][2]int, len(f.Commits))}
	keys := make([]string, 0, len(f.Commits))
	for k := range f.Commits {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	n := 0 // the body's length
	for _, k := range keys {
		h.Commits[k] = [2]int{n, len(f.Commits[k])}
		n += len(f.Commits[k])
	}
	h.Logs = [2]int{n, len(f.Logs)}
	n += len(f.Logs)
	var head bytes.Buffer
	if err := gob.NewEncoder(&head).Encode(&h); err != nil {
		return nil, err
	}
	// one buffer of the file's size (megabytes: each copy more is fresh
	// memory)
	out := make([]byte, 0, len(proseMagic)+binary.MaxVarintLen64+head.Len()+n)
	out = append(out, proseMagic...)
	out = binary.AppendUvarint(out, uint64(head.Len()))
	out = append(out, head.Bytes()...)
	for _, k := range keys {
		out = append(out, f.Commits[k]...)
	}
	return append(out, f.Logs...), nil
}

// decodeProseFile reads what encodeProseFile wrote; the commits' and the
// logs' bytes are slices of data.
func decodeProseFile(data []byte) (proseFile, error) {
	rest, ok := bytes.CutPrefix(data, []byte(proseMagic))
	if !ok {
		return proseFile{}, errors.New("not a file of prose answers")
	}
	n, k := binary.Uvarint(rest)
	if k <= 0 || n > uint64(len(rest)-k) {
		return proseFile{}, errors.New("prose answers: bad header length")
	}
	var h proseHeader
	if err := gob.NewDecoder(bytes.NewReader(rest[k : k+int(n)])).Decode(&h); err != nil {
		return proseFile{}, fmt.Errorf("prose answers: %w", err)
	}
	body := rest[k+int(n):]
	part := func(at [2]int) ([]byte, bool) {
		if at[0] < 0 || at[1] < 0 || at[0] > len(body) || at[1] > len(body)-at[0] {
			return nil, false
		}
		return body[at[0] : at[0]+at[1] : at[0]+at[1]], true
	}
	f := proseFile{Version: h.Version, Head: h.Head, Greps: h.Greps, Changes: h.Changes, Commits: make(map[string][]byte, len(h.Commits))}
	for c, at := range h.Commits {
		if f.Commits[c], ok = part(at); !ok {
			return proseFile{}, errors.New("prose answers: a commit's files out of the file")
		}
	}
	if f.Logs, ok = part(h.Logs); !ok {
		return proseFile{}, errors.New("prose answers: logs out of the file")
	}
	return f, nil
}

// cachingGit answers prose.Log and prose.Symbols from the cache, asking
// git (next) for what it does not hold.
type cachingGit struct {
	next interface {
		prose.Log
		prose.Symbols
	}
	path     string
	head     gitblame.Hash
	loadOnce sync.Once
	mu       sync.Mutex
	a        proseAnswers
	dirty    bool
	// the logs of the file, still encoded: c.a's (at the same HEAD) or
	// c.prev's (at the HEAD before); decoded by loadLogs, once
	rawLogs  []byte
	logsOnce sync.Once
	logsRead bool // loadLogs ran
	// the answers for the HEAD before
	prev     *proseAnswers
	prevHead gitblame.Hash
	chain    int        // prevHead is on head's first-parent chain: 0 not asked, 1 yes, -1 no
	chainMu  sync.Mutex // the logs may be asked for at once (prose.Checker)
	// where head's first-parent chain meets prevHead's (forkPoint), once
	forked   bool
	forkBase gitblame.Hash
	forkAt   int            // forkBase's place in c.prev.Order, newest first
	forkPos  map[string]int // each commit of c.prev.Order by its place
	forkOK   bool
	// whether a commit since prevHead changed a line with a name answered
	// before: 0 not asked, 1 maybe, -1 no
	anyChange int
	lastMu    sync.Mutex
}

// sincer reads the logs of the commits after a commit (gitrepo's
// PathLogSince and MovesSince).
type sincer interface {
	PathLogSince(ctx context.Context, old, head gitblame.Hash, dirs []string) ([]prose.LogCommit, error)
	MovesSince(ctx context.Context, old, head gitblame.Hash) ([]gitblame.Hash, []prose.LogCommit, error)
}

// chainer tells whether a commit is on another's first-parent chain.
type chainer interface {
	OnFirstParents(ctx context.Context, old, head gitblame.Hash) (bool, error)
}

func newCachingGit(gitDir string, head gitblame.Hash, next interface {
	prose.Log
	prose.Symbols
}) *cachingGit {
	return &cachingGit{next: next, path: filepath.Join(gitDir, proseCacheFile), head: head}
}

// load reads the cache file on first use, but for its logs (loadLogs):
// a run that asks nothing reads none.
func (c *cachingGit) load() {
	c.loadOnce.Do(func() {
		if data, err := regfile.ReadFile(c.path); err == nil {
			if f, err := decodeProseFile(data); err == nil && f.Version == proseCacheVersion {
				if f.Head == c.head.String() {
					c.a = proseAnswers{Version: f.Version, Head: f.Head, Greps: f.Greps, Changes: f.Changes, Commits: f.Commits}
					c.rawLogs = f.Logs
				} else if h := gitblame.HashOrZero(f.Head); !h.IsZero() {
					// c.prev's answers are read without c.mu while c.a's grow:
					// never one map
					c.a = proseAnswers{Version: proseCacheVersion, Head: c.head.String(), Greps: f.Greps, Changes: maps.Clone(f.Changes), Commits: f.Commits}
					c.prev, c.prevHead = &proseAnswers{Version: f.Version, Head: f.Head, Changes: f.Changes}, h
					c.rawLogs = f.Logs
					if len(c.a.Changes) > maxChanges {
						// the answers of other HEADs than these two go
						c.a.Changes = map[string]string{}
						for k, v := range f.Changes {
							if strings.HasPrefix(k, f.Head+"\x00") || strings.HasPrefix(k, c.a.Head+"\x00") {
								c.a.Changes[k] = v
							}
						}
					}
				}
			}
		}
		if c.a.Head == "" {
			c.a = proseAnswers{Version: proseCacheVersion, Head: c.head.String()}
		}
		if c.a.Greps == nil {
			c.a.Greps = map[string][]string{}
		}
		if c.a.Changes == nil {
			c.a.Changes = map[string]string{}
		}
		if c.a.Commits == nil {
			c.a.Commits = map[string][]byte{}
		}
	})
}

// loadLogs is load with the file's logs decoded: c.a's at the same HEAD,
// c.prev's at another.
func (c *cachingGit) loadLogs() {
	c.load()
	c.logsOnce.Do(func() {
		var l proseLogs
		if len(c.rawLogs) > 0 && gob.NewDecoder(bytes.NewReader(c.rawLogs)).Decode(&l) == nil {
			if c.prev != nil {
				c.prev.proseLogs = l
			} else {
				c.a.proseLogs = l
			}
		}
		c.rawLogs = nil
		if c.a.PathLogs == nil {
			c.a.PathLogs = map[string]cachedLog{}
		}
		if c.a.PathLogOK == nil {
			c.a.PathLogOK = map[string]bool{}
		}
		c.mu.Lock()
		c.logsRead = true
		c.mu.Unlock()
	})
}

// save writes the cache when it learnt something; a cache that cannot be
// written costs the next run time, nothing else. Logs it did not decode
// are written back as they were read, at the same HEAD (at a new one,
// they were the HEAD before's).
func (c *cachingGit) save() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.dirty {
		return
	}
	f := proseFile{Version: c.a.Version, Head: c.a.Head, Greps: c.a.Greps, Changes: c.a.Changes, Commits: c.a.Commits}
	if !c.logsRead && c.prev == nil {
		f.Logs = c.rawLogs
	} else {
		var logs bytes.Buffer
		if gob.NewEncoder(&logs).Encode(&c.a.proseLogs) != nil {
			return
		}
		f.Logs = logs.Bytes()
	}
	if data, err := encodeProseFile(f); err == nil {
		_ = WriteReport(c.path, data)
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

func fromCached(cl cachedLog) []prose.LogCommit {
	out := make([]prose.LogCommit, len(cl.Hashes))
	for i, h := range cl.Hashes {
		out[i].Hash = gitblame.HashOrZero(h)
		for _, ch := range cl.Changes[i] {
			out[i].Changes = append(out[i].Changes, prose.FileChange{Status: ch.Status, From: ch.From, To: ch.To,
				FromBlob: gitblame.HashOrZero(ch.FromBlob), ToBlob: gitblame.HashOrZero(ch.ToBlob)})
		}
	}
	return out
}

func (c *cachingGit) PathLog(ctx context.Context, head gitblame.Hash, dirs []string) ([]prose.LogCommit, error) {
	c.loadLogs()
	key := strings.Join(dirs, "\x00")
	c.mu.Lock()
	cl, ok := c.a.PathLogs[key]
	c.mu.Unlock()
	if ok {
		return fromCached(cl), nil
	}
	log, read, err := c.pathLog(ctx, head, dirs, key)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.a.PathLogs[key], c.a.PathLogOK[key], c.dirty = toCached(log), read, true
	c.mu.Unlock()
	return log, nil
}

// pathLog asks git for PathLog: of the commits since the HEAD before
// only, when that HEAD is on head's first-parent chain and its log was
// read. read is false when git could not read the history (then nothing
// is anchored, as proseLog answers).
func (c *cachingGit) pathLog(ctx context.Context, head gitblame.Hash, dirs []string, key string) (log []prose.LogCommit, read bool, err error) {
	s, ok := c.next.(sincer)
	if !ok {
		log, err := c.next.PathLog(ctx, head, dirs)
		return log, false, err
	}
	if c.prev != nil && c.prev.PathLogOK[key] {
		if base, at, ok, err := c.forkPoint(ctx, head); err != nil {
			return nil, false, err
		} else if kept, cut := c.fromFork(c.prev.PathLogs[key], at); ok && cut {
			if newer, err := s.PathLogSince(ctx, base, head, dirs); err == nil {
				return append(newer, fromCached(kept)...), true, nil
			}
		}
	}
	log, err = s.PathLogSince(ctx, gitblame.ZeroHash, head, dirs)
	if err != nil {
		if gitrepo.ExitCode(err) > 0 {
			return nil, false, nil
		}
		return nil, false, err
	}
	return log, true, nil
}

// onChain reports (once a run) whether the HEAD before is on head's
// first-parent chain.
func (c *cachingGit) onChain(ctx context.Context, head gitblame.Hash) (bool, error) {
	ch, ok := c.next.(chainer)
	if c.prev == nil || !ok {
		return false, nil
	}
	c.chainMu.Lock()
	defer c.chainMu.Unlock()
	if c.chain == 0 {
		on, err := ch.OnFirstParents(ctx, c.prevHead, head)
		if err != nil {
			return false, err
		}
		c.chain = -1
		if on {
			c.chain = 1
		}
	}
	return c.chain > 0, nil
}

// chainLister lists a first-parent chain (gitrepo's History.Chain).
type chainLister interface {
	Chain(head gitblame.Hash, until func(gitblame.Hash) bool) ([]gitblame.Hash, error)
}

// maxFork is how many commits of head's first-parent chain forkPoint
// walks looking for the HEAD before's chain.
const maxFork = 256

// forkPoint returns (once a run) the newest commit of the HEAD before's
// first-parent chain that is on head's, and its place in c.prev.Order
// (newest first): the HEAD before itself when it is on head's chain
// (onChain), else, when the HEAD before's chain is known (its Moves were
// kept), the commit where head's chain, walked from head for up to
// maxFork commits, meets it: after a commit amended, or rebased onto its
// branch's base, the logs kept for the HEAD before hold from that commit
// on. ok is false when there is none; the caller asks git for the whole
// log then.
func (c *cachingGit) forkPoint(ctx context.Context, head gitblame.Hash) (base gitblame.Hash, at int, ok bool, err error) {
	if c.prev == nil {
		return gitblame.ZeroHash, 0, false, nil
	}
	on, err := c.onChain(ctx, head)
	if err != nil {
		return gitblame.ZeroHash, 0, false, err
	}
	if on {
		return c.prevHead, 0, true, nil
	}
	c.loadLogs() // the HEAD before's chain (a run that asked no log has not read it)
	cl, ok := c.next.(chainLister)
	if !ok || !c.prev.MovesOK || len(c.prev.Order) == 0 {
		return gitblame.ZeroHash, 0, false, nil
	}
	c.chainMu.Lock()
	defer c.chainMu.Unlock()
	if !c.forked {
		c.forked = true
		pos := make(map[string]int, len(c.prev.Order))
		for i, x := range c.prev.Order {
			pos[x] = i
		}
		walked := 0
		list, err := cl.Chain(head, func(x gitblame.Hash) bool {
			walked++
			_, in := pos[x.String()]
			return in || walked >= maxFork
		})
		switch {
		case errors.Is(err, errors.ErrUnsupported):
			// grafts or replace refs: git's chain is not the reader's
		case err != nil:
			return gitblame.ZeroHash, 0, false, err
		case len(list) > 0:
			if k, in := pos[list[len(list)-1].String()]; in {
				c.forkBase, c.forkAt, c.forkPos, c.forkOK = list[len(list)-1], k, pos, true
			}
		}
	}
	return c.forkBase, c.forkAt, c.forkOK, nil
}

// fromFork is a log kept for the HEAD before, cut to the commits from
// its place at on (forkPoint): false when one of its commits is not on
// the HEAD before's chain as kept.
func (c *cachingGit) fromFork(cl cachedLog, at int) (cachedLog, bool) {
	if at == 0 {
		return cl, true
	}
	for i, x := range cl.Hashes {
		k, in := c.forkPos[x]
		if !in {
			return cachedLog{}, false
		}
		if k >= at {
			return cachedLog{Hashes: cl.Hashes[i:], Changes: cl.Changes[i:]}, true
		}
	}
	return cachedLog{}, true
}

func (c *cachingGit) Moves(ctx context.Context, head gitblame.Hash) ([]gitblame.Hash, []prose.LogCommit, error) {
	c.loadLogs()
	c.mu.Lock()
	moves, order := c.a.Moves, c.a.Order
	c.mu.Unlock()
	if moves != nil {
		hs := make([]gitblame.Hash, len(order))
		for i, s := range order {
			hs[i] = gitblame.HashOrZero(s)
		}
		return hs, fromCached(*moves), nil
	}
	hs, log, read, err := c.moves(ctx, head)
	if err != nil {
		return nil, nil, err
	}
	cl := toCached(log)
	strs := make([]string, len(hs))
	for i, h := range hs {
		strs[i] = h.String()
	}
	c.mu.Lock()
	c.a.Moves, c.a.Order, c.a.MovesOK, c.dirty = &cl, strs, read, true
	c.mu.Unlock()
	return hs, log, nil
}

// moves asks git for Moves: of the commits since the HEAD before only,
// when that HEAD is on head's first-parent chain and its log was read.
func (c *cachingGit) moves(ctx context.Context, head gitblame.Hash) (order []gitblame.Hash, log []prose.LogCommit, read bool, err error) {
	s, ok := c.next.(sincer)
	if !ok {
		order, log, err := c.next.Moves(ctx, head)
		return order, log, false, err
	}
	if c.prev != nil && c.prev.MovesOK && c.prev.Moves != nil {
		if base, at, ok, err := c.forkPoint(ctx, head); err != nil {
			return nil, nil, false, err
		} else if kept, cut := c.fromFork(*c.prev.Moves, at); ok && cut {
			if o, newer, err := s.MovesSince(ctx, base, head); err == nil {
				for _, h := range c.prev.Order[at:] {
					o = append(o, gitblame.HashOrZero(h))
				}
				return o, append(newer, fromCached(kept)...), true, nil
			}
		}
	}
	order, log, err = s.MovesSince(ctx, gitblame.ZeroHash, head)
	if err != nil {
		if gitrepo.ExitCode(err) > 0 {
			return nil, nil, false, nil // as proseLog answers: nothing is known to have moved
		}
		return nil, nil, false, err
	}
	return order, log, true, nil
}

func (c *cachingGit) GrepWordFiles(ctx context.Context, commit gitblame.Hash, names, pathspecs []string) (map[string][]string, error) {
	c.load()
	key := commit.String() + "\x00" + strings.Join(names, "\x00") + "\x00\x00" + strings.Join(pathspecs, "\x00")
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

// maxChanges bounds the answers of WordChangedIn kept for HEADs before.
const maxChanges = 4096

func (c *cachingGit) WordChangedIn(ctx context.Context, from, head gitblame.Hash, word string, pathspecs []string) (gitblame.Hash, error) {
	c.load()
	key := changeKey(head, from, word, pathspecs)
	c.mu.Lock()
	got, ok := c.a.Changes[key]
	c.mu.Unlock()
	if ok {
		return gitblame.HashOrZero(got), nil
	}
	c.lastMu.Lock() // lastChange's state (chain, anyChange) is one lookup's at a time
	h, err := c.lastChange(ctx, from, head, word, pathspecs)
	c.lastMu.Unlock()
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

// WordsChangedIn is WordChangedIn for many words of one range: the
// answers known are the cache's, those git is asked for come from one
// question (gitrepo's WordsChangedIn) when the HEAD before answered none
// of them, else one by one as WordChangedIn asks.
func (c *cachingGit) WordsChangedIn(ctx context.Context, from, head gitblame.Hash, words []string, pathspecs [][]string) ([]gitblame.Hash, error) {
	c.load()
	out := make([]gitblame.Hash, len(words))
	var ask []int
	c.mu.Lock()
	for i, w := range words {
		if got, ok := c.a.Changes[changeKey(head, from, w, pathspecs[i])]; ok {
			out[i] = gitblame.HashOrZero(got)
		} else {
			ask = append(ask, i)
		}
	}
	c.mu.Unlock()
	many, ok := c.next.(prose.WordsChanger)
	// a word the HEAD before answered for head's chain (prevAnswer) is
	// looked up as WordChangedIn does; the others (none answered, or a
	// commit amended since) are asked at once, not one git log -G each
	var together []int
	for _, i := range ask {
		_, _, before, err := c.prevAnswer(ctx, from, head, words[i], pathspecs[i])
		if err != nil {
			return nil, err
		}
		if ok && !before {
			together = append(together, i)
			continue
		}
		h, err := c.WordChangedIn(ctx, from, head, words[i], pathspecs[i])
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	if len(together) == 0 {
		return out, nil
	}
	ws := make([]string, len(together))
	ps := make([][]string, len(together))
	for k, i := range together {
		ws[k], ps[k] = words[i], pathspecs[i]
	}
	got, err := many.WordsChangedIn(ctx, from, head, ws, ps)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	for k, i := range together {
		out[i] = got[k]
		s := ""
		if !got[k].IsZero() {
			s = got[k].String()
		}
		c.a.Changes[changeKey(head, from, words[i], pathspecs[i])] = s
	}
	c.dirty = true
	c.mu.Unlock()
	return out, nil
}

// lastChange asks git for the newest commit of from..head that changed a
// line with word: among the commits after the HEAD before only, when that
// HEAD is on head's first-parent chain and its answer is known (the
// answer then, when none of them did).
func (c *cachingGit) lastChange(ctx context.Context, from, head gitblame.Hash, word string, pathspecs []string) (gitblame.Hash, error) {
	if c.prev == nil {
		return c.next.WordChangedIn(ctx, from, head, word, pathspecs)
	}
	before, base, ok, err := c.prevAnswer(ctx, from, head, word, pathspecs)
	if err != nil {
		return gitblame.ZeroHash, err
	}
	if !ok {
		return c.next.WordChangedIn(ctx, from, head, word, pathspecs)
	}
	if c.anyChange == 0 {
		// one question for every name answered before, in every file
		// asked about: mostly, no commit since changed a line with any of
		// them
		c.anyChange = 1
		if a, ok := c.next.(interface {
			ChangesAnyOf(ctx context.Context, from, head gitblame.Hash, words, pathspecs []string) (bool, error)
		}); ok {
			var words, specs []string
			seen, everywhere := map[string]bool{}, false
			for k := range c.prev.Changes {
				parts := strings.Split(k, "\x00")
				if len(parts) < 4 || parts[0] != c.prevHead.String() {
					continue
				}
				if w := "w" + parts[2]; !seen[w] {
					seen[w] = true
					words = append(words, parts[2])
				}
				if len(parts) == 4 && parts[3] == "" {
					everywhere = true // asked about every file
				}
				for _, ps := range parts[3:] {
					if p := "p" + ps; ps != "" && !seen[p] {
						seen[p] = true
						specs = append(specs, ps)
					}
				}
			}
			sort.Strings(words)
			sort.Strings(specs)
			if everywhere {
				specs = nil
			}
			if any, err := a.ChangesAnyOf(ctx, base, head, words, specs); err != nil {
				return gitblame.ZeroHash, err
			} else if !any {
				c.anyChange = -1
			}
		}
	}
	if c.anyChange < 0 {
		return gitblame.HashOrZero(before), nil
	}
	h, err := c.next.WordChangedIn(ctx, base, head, word, pathspecs)
	if err != nil || !h.IsZero() {
		return h, err
	}
	return gitblame.HashOrZero(before), nil
}

// prevAnswer is the HEAD before's answer to WordChangedIn(from, …, word,
// pathspecs) — the newest commit of from..prevHead that changed a line
// with word, "" for none — when it holds for head's chain up to base
// (forkPoint): base is the HEAD before itself when that is on head's
// chain; else the answer holds when from and the commit answered (if
// any) are not newer than base, whose chain they are then on. ok is
// false when there is no such answer.
func (c *cachingGit) prevAnswer(ctx context.Context, from, head gitblame.Hash, word string, pathspecs []string) (before string, base gitblame.Hash, ok bool, err error) {
	if c.prev == nil {
		return "", gitblame.ZeroHash, false, nil
	}
	before, ok = c.prev.Changes[changeKey(c.prevHead, from, word, pathspecs)]
	if !ok {
		return "", gitblame.ZeroHash, false, nil
	}
	base, at, ok, err := c.forkPoint(ctx, head)
	if err != nil || !ok {
		return "", gitblame.ZeroHash, false, err
	}
	if at > 0 {
		if k, in := c.forkPos[from.String()]; !in || k < at {
			return "", gitblame.ZeroHash, false, nil
		}
		if before != "" {
			if k, in := c.forkPos[before]; !in || k < at {
				return "", gitblame.ZeroHash, false, nil
			}
		}
	}
	return before, base, true, nil
}

// changeKey is the key of an answer of WordChangedIn.
func changeKey(head, from gitblame.Hash, word string, pathspecs []string) string {
	return head.String() + "\x00" + from.String() + "\x00" + word + "\x00" + strings.Join(pathspecs, "\x00")
}

// RenamesFromLog is the next Log's, when it has it (prose's
// renameLogger): an answer of the whole chain's log, which a run that
// reads it has.
func (c *cachingGit) RenamesFromLog(commit gitblame.Hash) (map[string]string, bool) {
	if rl, ok := c.next.(interface {
		RenamesFromLog(gitblame.Hash) (map[string]string, bool)
	}); ok {
		return rl.RenamesFromLog(commit)
	}
	return nil, false
}

func (c *cachingGit) CommitChanges(ctx context.Context, commit gitblame.Hash) ([]prose.FileChange, error) {
	c.load()
	c.mu.Lock()
	enc, ok := c.a.Commits[commit.String()]
	c.mu.Unlock()
	var cl cachedLog
	if ok && gob.NewDecoder(bytes.NewReader(enc)).Decode(&cl) == nil {
		if log := fromCached(cl); len(log) == 1 {
			return log[0].Changes, nil
		}
		return nil, nil
	}
	chs, err := c.next.CommitChanges(ctx, commit)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if gob.NewEncoder(&b).Encode(toCached([]prose.LogCommit{{Hash: commit, Changes: chs}})) == nil {
		c.mu.Lock()
		c.a.Commits[commit.String()], c.dirty = b.Bytes(), true
		c.mu.Unlock()
	}
	return chs, nil
}
