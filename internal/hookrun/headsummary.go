package hookrun

import (
	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/store"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// Summarize makes the summary of a tree (docs/cache.md) from a check of
// every memory of it: mems loaded from src, the content of that tree, and
// rep, their verification against it. install leaves the summary of
// HEAD's tree, so that the first commit's check reads only what it
// touches and counts older stale citations, as every later one does.
func Summarize(tree string, dirs []string, src source.Source, mems []*store.Memory, rep *verify.Report) *vcache.Summary {
	return summarize(tree, dirs, src, mems, rep, nil, nil)
}
