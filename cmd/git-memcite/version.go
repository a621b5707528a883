package main

import (
	"fmt"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
)

// version and commit are stamped at build time by scripts/release.sh and
// install.sh:
//
//	go build -ldflags "-X main.version=0.1.0 -X main.commit=$(git rev-parse HEAD)"
//
// Unstamped, init fills them from the build information Go records in the
// binary: the module version of `go install …/cmd/git-memcite@v0.1.0`, the
// VCS revision of a build in a checkout.
var (
	version = "dev"
	commit  = ""
)

func init() {
	bi, _ := debug.ReadBuildInfo()
	version, commit = resolveVersion(version, commit, bi)
}

// resolveVersion returns the version (without a leading "v") and commit to
// report: the stamped ones, else those in bi, else "dev" and "unknown".
// A commit from bi that had uncommitted changes ends in "-dirty".
func resolveVersion(ver, rev string, bi *debug.BuildInfo) (string, string) {
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

// versionLine is what --version prints: version, commit, the Go release
// that built the binary and its platform.
func versionLine() string {
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
var releaseRe = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$`)

// releaseRev is the tag of this build's release (v0.1.0), the rev the
// pre-commit framework snippet pins; "main" for a build that is not a
// release.
func releaseRev() string {
	if releaseRe.MatchString(version) && !strings.HasSuffix(version, "-dirty") {
		return "v" + version
	}
	return "main"
}
