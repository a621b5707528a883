package source

import (
	"os"
	"strings"
)

// afterLstat lets tests replace a file between openSameFile's Lstat and
// its open.
var afterLstat = func(string) {}

// openSameFile opens name when it is a regular file and not a link, where
// the platform has no O_NOFOLLOW (Windows): it Lstats the name (a symlink,
// junction, other reparse point, FIFO or directory asks for the slow path,
// errSlowPath, which resolves and checks links), opens it, and checks that
// the open file is the one Lstat saw, so that a link swapped in between the
// two calls cannot lead the open elsewhere.
func openSameFile(name string) (*os.File, error) {
	fi, err := os.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errSlowPath
	}
	afterLstat(name)
	f, err := openRead(name)
	if err != nil {
		return nil, err
	}
	got, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !os.SameFile(fi, got) {
		f.Close()
		return nil, errSlowPath
	}
	return f, nil
}

// trimLongPrefix turns the \\?\ form Windows gives final paths in back
// into the ordinary one: \\?\C:\a into C:\a, \\?\UNC\server\share\a into
// \\server\share\a. Other paths are returned as they are.
func trimLongPrefix(p string) string {
	rest, ok := strings.CutPrefix(p, `\\?\`)
	if !ok {
		return p
	}
	if unc, ok := cutPrefixFold(rest, `UNC\`); ok {
		return `\\` + unc
	}
	if len(rest) >= 2 && rest[1] == ':' && isLetter(rest[0]) {
		return rest
	}
	return p // a volume GUID path: keep its prefix
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}
