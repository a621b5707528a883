package buildinfo

import (
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
			v, r := Resolve(tt.ver, tt.rev, tt.bi)
			if v != tt.wantVer || r != tt.wantRev {
				t.Errorf("Resolve = %q, %q; want %q, %q", v, r, tt.wantVer, tt.wantRev)
			}
		})
	}
}
