package main

import (
	"regexp"
	"runtime/debug"
	"testing"
)

func TestResolveVersion(t *testing.T) {
	vcs := func(rev, modified string) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}}
	}
	const rev = "0123456789abcdef0123456789abcdef01234567"
	tests := []struct {
		name, ver, rev string
		bi             *debug.BuildInfo
		wantVer        string
		wantRev        string
	}{
		{"stamped by release.sh", "0.1.0", rev, vcs("ffff", "true"), "0.1.0", rev},
		{"stamped with a v", "v0.1.0", rev, nil, "0.1.0", rev},
		{"install.sh describe", "v0.1.0-3-g0123456", "", vcs(rev, "false"), "0.1.0-3-g0123456", rev},
		{"go install @version", "dev", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.2.0"}}, "0.2.0", "unknown"},
		{"a build in a checkout", "dev", "", vcs(rev, "false"), "dev", rev},
		{"with uncommitted changes", "dev", "", vcs(rev, "true"), "dev", rev + "-dirty"},
		{"nothing known", "dev", "", nil, "dev", "unknown"},
		{"empty stamp", "", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev", "unknown"},
		{"a version that is not a number keeps its v", "vnext", "", nil, "vnext", "unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, r := resolveVersion(tt.ver, tt.rev, tt.bi)
			if v != tt.wantVer || r != tt.wantRev {
				t.Errorf("resolveVersion = %q, %q; want %q, %q", v, r, tt.wantVer, tt.wantRev)
			}
		})
	}
}

func TestVersionLineAndReleaseRev(t *testing.T) {
	defer func(v, c string) { version, commit = v, c }(version, commit)
	tests := []struct {
		ver, commit string
		line        string // regexp
		rev         string
	}{
		{"0.1.0", "0123456789abcdef0123456789abcdef01234567", `^git-memcite 0\.1\.0 \(commit 0123456789ab, go1\.[0-9.]+\S*, [a-z0-9]+/[a-z0-9]+\)$`, "v0.1.0"},
		{"1.2.3-rc.1", "0123456789abcdef0123456789abcdef01234567-dirty", `^git-memcite 1\.2\.3-rc\.1 \(commit 0123456789ab-dirty, go`, "v1.2.3-rc.1"},
		{"0.1.0-3-g0123456", "unknown", `^git-memcite 0\.1\.0-3-g0123456 \(commit unknown, go`, "main"},
		{"0.1.0-dirty", "unknown", `\(commit unknown,`, "main"},
		{"0.0.0-20260101120000-0123456789ab", "0123456", `\(commit 0123456,`, "main"},
		{"dev", "unknown", `^git-memcite dev \(commit unknown, go`, "main"},
	}
	for _, tt := range tests {
		version, commit = tt.ver, tt.commit
		if got := versionLine(); !regexp.MustCompile(tt.line).MatchString(got) {
			t.Errorf("%s: versionLine() = %q, want /%s/", tt.ver, got, tt.line)
		}
		if got := releaseRev(); got != tt.rev {
			t.Errorf("%s: releaseRev() = %q, want %q", tt.ver, got, tt.rev)
		}
	}
}
