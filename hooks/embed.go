// Package hooks holds the git hook scripts that 'git memcite install'
// writes into a repository's hooks directory.
//
// Each script is a few lines of POSIX sh: an ownership marker, a chained
// previous hook (<name>.memcite-prev, run first), the kill switches
// (MEMCITE=0, SKIP=memcite), a guard for a missing binary (git-memcite,
// or git-memcite.exe where Git for Windows' sh runs the hooks), then
// 'git-memcite hook <name>'. They stay POSIX sh with LF line endings
// (.gitattributes), so that Git for Windows runs them as they are. The pre-* hooks pass on the status of a
// chained hook and of git-memcite; the post-* hooks always exit 0.
//
// A missing git-memcite binary does not block a commit (fail open): GUI
// clients often start hooks with a minimal PATH, and a skipped citation
// check breaks nobody else's work. 'git config memcite.requireBinary true'
// makes the pre-* hooks block instead.
package hooks

import (
	"bytes"
	"embed"
	"fmt"
	"regexp"
	"strconv"
	"sync"
)

// Version is the version written in the marker line of the current scripts.
// Bump it whenever a script changes, so that installed copies are reported
// as outdated and upgraded in place.
const Version = 2

// Names lists the hooks git-memcite provides, in the order git runs them
// during a merge.
var Names = []string{"pre-commit", "pre-merge-commit", "post-merge", "post-rewrite"}

//go:embed pre-commit pre-merge-commit post-merge post-rewrite
var scripts embed.FS

// Script returns the current script for the named hook. Line endings are
// always LF, whatever the checkout did to the files.
func Script(name string) ([]byte, error) {
	b, err := scripts.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("no git-memcite hook named %q", name)
	}
	return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), nil
}

// Pre reports whether the named hook runs before git records a change
// (pre-commit, pre-merge-commit): it can block, and its findings are
// about what is being committed. The post-* hooks report on a change
// made and never fail.
func Pre(name string) bool {
	return name == "pre-commit" || name == "pre-merge-commit"
}

// IsName reports whether name is one of Names.
func IsName(name string) bool {
	for _, n := range Names {
		if n == name {
			return true
		}
	}
	return false
}

// markerRe matches the ownership marker in the first lines of a script.
var markerRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^# git-memcite-hook v([0-9]+) \(managed\)`) })

// Marker returns the version in the ownership marker of a hook file's
// content, and whether the content carries a marker at all. Only the first
// 1 KiB is searched: the marker is on the second line.
func Marker(content []byte) (version int, ok bool) {
	if len(content) > 1024 {
		content = content[:1024]
	}
	m := markerRe().FindSubmatch(content)
	if m == nil {
		return 0, false
	}
	v, err := strconv.Atoi(string(m[1]))
	if err != nil {
		return 0, false
	}
	return v, true
}
