package verify

import (
	"context"
	"sync"

	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/source"
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
