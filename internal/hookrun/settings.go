package hookrun

import (
	"fmt"
	"strings"
)

// Setting is one hook setting's effective value and where it came from.
type Setting struct {
	Name   string // the git config key, as documented: memcite.preCommit
	Value  string
	Origin string // "git config <name>" or "default"
}

// Settings lists the hook settings (docs/hooks.md, "Configuration") with
// their effective values, from vals (memcite.* from git config, keyed by
// lower-case name, as ConfigFrom takes them): what a hook run in this
// repository would use. A value ConfigFrom refuses shows the value used
// instead, with the refused one in the origin.
func Settings(vals map[string][]string) []Setting {
	cfg := ConfigFrom(vals)
	last := func(k string) (string, bool) {
		v := vals[strings.ToLower(k)]
		if len(v) == 0 {
			return "", false
		}
		return v[len(v)-1], true
	}
	var out []Setting
	add := func(name, value, def string, valid func(string) bool) {
		s := Setting{Name: name, Value: value, Origin: "default"}
		if raw, ok := last(name); ok {
			s.Origin = "git config " + name
			if !valid(raw) {
				s.Origin = fmt.Sprintf("git config %s is %q, not a valid value; %s used", name, raw, def)
			}
		}
		out = append(out, s)
	}
	boolean := func(v string) bool {
		switch strings.ToLower(v) {
		case "true", "yes", "on", "1", "", "false", "no", "off", "0":
			return true
		}
		return false
	}
	add("memcite.enabled", fmt.Sprint(cfg.Enabled), "true", boolean)
	add("memcite.preCommit", string(cfg.PreCommit), string(Block), func(v string) bool { return PreCommitPolicy(strings.ToLower(v)) == cfg.PreCommit })
	add("memcite.postMerge", string(cfg.PostMerge), string(Suggest), func(v string) bool { return PostMergePolicy(strings.ToLower(v)) == cfg.PostMerge })
	// read by the hook scripts themselves (git config --bool), before
	// git-memcite runs
	req := "false"
	if raw, ok := last("memcite.requireBinary"); ok && isTrue(raw) {
		req = "true"
	}
	add("memcite.requireBinary", req, "false", boolean)
	onErr := "warn"
	if raw, ok := last("memcite.onError"); ok && strings.EqualFold(raw, "block") {
		onErr = "block"
	}
	add("memcite.onError", onErr, "warn", func(v string) bool { return strings.EqualFold(v, "warn") || strings.EqualFold(v, "block") })
	return out
}

func isTrue(v string) bool {
	switch strings.ToLower(v) {
	case "true", "yes", "on", "1", "":
		return true
	}
	return false
}
