package prose

import (
	"crypto/sha256"
	"fmt"
	"strconv"

	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/trace"
	"github.com/git-memcite/git-memcite/internal/vcache"
)

// stampedLister is content checked that can vouch for its list of paths
// without listing again (internal/gitrepo's working tree): ListStamped is
// List("") with a stamp (nil: none), and SameList reports whether
// List("") returns now what it returned when the stamp was made.
type stampedLister interface {
	ListStamped() ([]string, []byte, error)
	SameList(stamp []byte) bool
}

// listDigest names a list of paths in the run's key (runKey).
func listDigest(paths []string) string {
	h := sha256.New()
	h.Write([]byte(strconv.Itoa(len(paths))))
	h.Write([]byte{0})
	for _, p := range paths {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return string(h.Sum(nil))
}

// listKey returns the digest of src.List("") and, when it listed, the
// paths (listed). A source that stamps its listings (stampedLister) has
// the digest and the stamp of its last listing kept in the cache vc
// (docs/cache.md, "References in the prose"): when the stamp still
// holds, the digest is the cache's and nothing is listed; a memory the
// cache does not judge lists then (CheckProse).
func listKey(vc *vcache.Cache, src source.Source) (digest string, paths []string, listed bool, err error) {
	sl, ok := src.(stampedLister)
	if vc == nil || !ok {
		paths, err := src.List("")
		if err != nil {
			return "", nil, false, err
		}
		return listDigest(paths), paths, true, nil
	}
	k := vcache.KeyOf("prose-listing", src.Name())
	if b, ok := vc.File(k); ok && len(b) > sha256.Size && sl.SameList(b[sha256.Size:]) {
		trace.Printf("prose: the %s lists what it listed before (its directories' stat data): not listed again", src.Name())
		return string(b[:sha256.Size]), nil, false, nil
	}
	paths, stamp, err := sl.ListStamped()
	if err != nil {
		return "", nil, false, err
	}
	digest = listDigest(paths)
	if stamp != nil {
		vc.PutFile(k, []byte(digest), stamp)
	}
	return digest, paths, true, nil
}

// listPaths lists src for a judgment the cache did not give.
func listPaths(src source.Source) ([]string, error) {
	paths, err := src.List("")
	if err != nil {
		return nil, fmt.Errorf("prose: listing %s: %w", src.Name(), err)
	}
	return paths, nil
}
