package main

import (
	"runtime/debug"

	"github.com/git-memcite/git-memcite/internal/buildinfo"
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
	version, commit = buildinfo.Resolve(version, commit, bi)
}

// versionLine is what --version prints (buildinfo.Line).
func versionLine() string { return buildinfo.Line(version, commit) }

// releaseRev is the tag of this build's release, else its commit, else ""
// (buildinfo.ReleaseRev).
func releaseRev() string { return buildinfo.ReleaseRev(version, commit) }
