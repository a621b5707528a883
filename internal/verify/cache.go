package verify

import (
	"context"
	"runtime"
	"sync"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/vcache"
)

// citationCache looks citations up in the verification cache and stores
// the verdicts it can vouch for. A nil *citationCache caches nothing.
type citationCache struct {
	cache *vcache.Cache
	ids   source.Identifier

	mu      sync.Mutex
	content map[string]contentID // by cited path as written
	hits    map[*memfile.Citation]verdict
	still   map[string]bool // after reading: the identifier is unchanged
}

type contentID struct {
	id string
	ok bool
}

type verdict struct {
	kind   Kind
	reason string
}

func newCitationCache(ctx context.Context, src source.Source) *citationCache {
	c := vcache.FromContext(ctx)
	ids, ok := src.(source.Identifier)
	if c == nil || !ok {
		return nil
	}
	return &citationCache{cache: c, ids: ids, content: map[string]contentID{}, hits: map[*memfile.Citation]verdict{}, still: map[string]bool{}}
}

// prefetch names the content of every cited path of mems, in parallel:
// for the working tree each name costs an lstat, as in git status.
func (cc *citationCache) prefetch(mems []*store.Memory) {
	if cc == nil {
		return
	}
	var paths []string
	for _, m := range mems {
		if m.File == nil || m.File.Exempt {
			continue
		}
		for _, c := range m.File.Citations {
			if c.URL == "" && c.Path != "" {
				if _, ok := cc.content[c.Path]; !ok {
					cc.content[c.Path] = contentID{}
					paths = append(paths, c.Path)
				}
			}
		}
	}
	ids := make([]contentID, len(paths))
	var wg sync.WaitGroup
	workers := min(4*runtime.GOMAXPROCS(0), max(len(paths)/64, 1))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(paths); i += workers {
				ids[i].id, ids[i].ok = cc.ids.ContentID(paths[i])
			}
		}(w)
	}
	wg.Wait()
	for i, p := range paths {
		cc.content[p] = ids[i]
	}
}

// recheck names the content of the paths just read again, in parallel:
// verdicts about a file that changed while it was read are not stored.
func (cc *citationCache) recheck(files map[string]*fileData) {
	if cc == nil {
		return
	}
	var paths []string
	for p := range files {
		if cc.content[p].ok {
			paths = append(paths, p)
		}
	}
	still := make([]bool, len(paths))
	var wg sync.WaitGroup
	workers := min(4*runtime.GOMAXPROCS(0), max(len(paths)/64, 1))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(paths); i += workers {
				now, ok := cc.ids.ContentID(paths[i])
				still[i] = ok && now == cc.content[paths[i]].id
			}
		}(w)
	}
	wg.Wait()
	for i, p := range paths {
		cc.still[p] = still[i]
	}
}

// key returns the cache key of c, and false when its file's content has
// no identifier (untracked, modified, a symlink…).
func (cc *citationCache) key(c memfile.Citation) (vcache.Key, bool) {
	if c.Path == "" {
		return vcache.Key{}, false
	}
	cc.mu.Lock()
	id, seen := cc.content[c.Path]
	cc.mu.Unlock()
	if !seen {
		id.id, id.ok = cc.ids.ContentID(c.Path)
		cc.mu.Lock()
		cc.content[c.Path] = id
		cc.mu.Unlock()
	}
	if !id.ok {
		return vcache.Key{}, false
	}
	return vcache.CitationKey(id.id, c), true
}

// known reports whether c's verdict is in the cache (and remembers it for
// lookup).
func (cc *citationCache) known(c *memfile.Citation) bool {
	if cc == nil {
		return false
	}
	k, ok := cc.key(*c)
	if !ok {
		return false
	}
	v, ok := cc.cache.Verdict(k)
	if !ok || v.Kind < 0 || v.Kind >= len(kindNames) {
		return false
	}
	cc.hits[c] = verdict{Kind(v.Kind), v.Reason}
	return true
}

// lookup returns the verdict known found for c.
func (cc *citationCache) lookup(c *memfile.Citation) (verdict, bool) {
	if cc == nil {
		return verdict{}, false
	}
	v, ok := cc.hits[c]
	return v, ok
}

// store remembers a verdict that depends on nothing but the file's
// content and the citation: not one about reading errors, untracked files
// or anything the content identifier does not cover.
func (cc *citationCache) store(c memfile.Citation, fd *fileData, kind Kind, reason string) {
	if cc == nil || fd == nil || fd.untracked || fd.statErr != nil || fd.readErr != nil || fd.kind != source.KindFile {
		return
	}
	switch kind {
	case KindNone, KindBinary, KindInvalidLine, KindInvalidRange, KindPastEOF, KindInvalidUTF8, KindSnippetMismatch:
	default:
		return
	}
	k, ok := cc.key(c)
	if !ok {
		return
	}
	cc.mu.Lock()
	before := cc.content[c.Path]
	still, checked := cc.still[c.Path]
	cc.mu.Unlock()
	if !checked {
		now, ok := cc.ids.ContentID(c.Path)
		still = ok && now == before.id
		cc.mu.Lock()
		cc.still[c.Path] = still
		cc.mu.Unlock()
	}
	if !still {
		return // the file changed while it was read
	}
	cc.cache.PutVerdict(k, vcache.Verdict{Kind: int(kind), Reason: reason})
}
