package main

import (
	"regexp"
	"testing"
)

func TestVersionLineAndReleaseRev(t *testing.T) {
	defer func(v, c string) { version, commit = v, c }(version, commit)
	tests := []struct {
		ver, commit string
		line        string // regexp
		rev         string
	}{
		{"0.1.0", "0123456789abcdef0123456789abcdef01234567", `^git-memcite 0\.1\.0 \(commit 0123456789ab, go1\.[0-9.]+\S*, [a-z0-9]+/[a-z0-9]+\)$`, "v0.1.0"},
		{"1.2.3-rc.1", "0123456789abcdef0123456789abcdef01234567-dirty", `^git-memcite 1\.2\.3-rc\.1 \(commit 0123456789ab-dirty, go`, "v1.2.3-rc.1"},
		{"0.1.0-3-g0123456", "unknown", `^git-memcite 0\.1\.0-3-g0123456 \(commit unknown, go`, ""},
		{"0.1.0-dirty", "unknown", `\(commit unknown,`, ""},
		{"0.0.0-20260101120000-0123456789ab", "0123456", `\(commit 0123456,`, ""},
		{"dev", "unknown", `^git-memcite dev \(commit unknown, go`, ""},
		// not a release: the commit it was built from, never a branch
		{"dev", "0123456789abcdef0123456789abcdef01234567", `^git-memcite dev \(commit 0123456789ab, go`, "0123456789abcdef0123456789abcdef01234567"},
		{"dev", "0123456789abcdef0123456789abcdef01234567-dirty", `-dirty, go`, ""},
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
