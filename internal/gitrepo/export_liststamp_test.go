package gitrepo

import (
	"time"

	"github.com/git-memcite/git-memcite/internal/source"
)

// SetListStampMarginForTest sets how old a directory must be to be
// stamped, until the returned function restores it.
func SetListStampMarginForTest(d time.Duration) (restore func()) {
	old := listStampMargin
	listStampMargin = d
	return func() { listStampMargin = old }
}

// ListStampedForTest is the working tree src's ListStamped.
func ListStampedForTest(src source.Source) ([]string, []byte, error) {
	return src.(*guardedWorktree).ListStamped()
}

// SameListForTest is the working tree src's SameList.
func SameListForTest(src source.Source, stamp []byte) bool {
	return src.(*guardedWorktree).SameList(stamp)
}
