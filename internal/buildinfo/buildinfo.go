// Package buildinfo says which build of git-memcite runs: its version and
// commit, from what the build stamped or what Go recorded in the binary.
package buildinfo

import (
	"fmt"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// Resolve returns the version (without a leading "v") and commit to
// report: the stamped ones, else those in bi, else "dev" and "unknown".
// A commit from bi that had uncommitted changes ends in "-dirty".
func Resolve(ver, rev string, bi *debug.BuildInfo) (string, string) {
	if (ver == "" || ver == "dev") && bi != nil && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		ver = bi.Main.Version
	}
	if ver == "" {
		ver = "dev"
	}
	if len(ver) > 1 && ver[0] == 'v' && ver[1] >= '0' && ver[1] <= '9' {
		ver = ver[1:]
	}
	if rev == "" && bi != nil {
		dirty := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if rev != "" && dirty {
			rev += "-dirty"
		}
	}
	if rev == "" {
		rev = "unknown"
	}
	return ver, rev
}

// Line is what --version prints: version, commit, the Go release that
// built the binary and its platform.
func Line(version, commit string) string {
	short := commit
	if hex, rest, _ := strings.Cut(commit, "-"); len(hex) > 12 {
		short = hex[:12]
		if rest != "" {
			short += "-" + rest
		}
	}
	return fmt.Sprintf("git-memcite %s (commit %s, %s, %s/%s)", version, short, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// releaseRe matches a release version: 0.1.0, 1.2.3-rc.1; not a
// describe (0.1.0-3-gabc1234), a pseudo-version or a dirty build.
var releaseRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$`) })

// ReleaseRev is what a pre-commit framework configuration pins for this
// build (its "rev:", which must not move): the tag of the release of
// this version (v0.1.0), else the full commit the build was made from; ""
// when there is neither (a build with uncommitted changes, or of an
// unknown commit).
func ReleaseRev(version, commit string) string {
	if releaseRe().MatchString(version) && !strings.HasSuffix(version, "-dirty") {
		return "v" + version
	}
	if fullHex(commit) {
		return commit
	}
	return ""
}

// fullHex reports whether s is a full object name (SHA-1 or SHA-256).
func fullHex(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
