package config

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestResolveHooks: the hook settings, read from git config only, as git
// reads its values; a value not understood is the default, with a warning.
func TestResolveHooks(t *testing.T) {
	tests := []struct {
		name string
		vals map[string][]string
		want []string // name=value (origin)
	}{
		{"defaults", nil, []string{
			"memcite.enabled=true (default)", "memcite.preCommit=block (default)", "memcite.postMerge=suggest (default)",
			"memcite.requireBinary=false (default)", "memcite.onError=warn (default)"}},
		{"set, last value wins", map[string][]string{"memcite.enabled": {"true", "off"}, "memcite.precommit": {"WARN"},
			"memcite.postmerge": {"apply"}, "memcite.requirebinary": {"yes"}, "memcite.onerror": {"Block"}}, []string{
			"memcite.enabled=false (git config memcite.enabled)", "memcite.preCommit=warn (git config memcite.preCommit)",
			"memcite.postMerge=apply (git config memcite.postMerge)", "memcite.requireBinary=true (git config memcite.requireBinary)",
			"memcite.onError=block (git config memcite.onError)"}},
		{"invalid values", map[string][]string{"memcite.precommit": {"sometimes"}, "memcite.enabled": {"maybe"}}, []string{
			`memcite.enabled=true (git config memcite.enabled is "maybe", not a valid value; true used)`,
			`memcite.preCommit=block (git config memcite.preCommit is "sometimes", not a valid value; block used)`,
			"memcite.postMerge=suggest (default)", "memcite.requireBinary=false (default)", "memcite.onError=warn (default)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := ResolveHooks(func(key string) ([]string, error) { return tc.vals[strings.ToLower(key)], nil })
			var got []string
			for _, k := range Keys {
				if k.Hook {
					v := c.Get(k.Name)
					got = append(got, k.Name+"="+v.First()+" ("+v.Origin+")")
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestHookKeysOnlyFromGit: no flag, variable or team file sets a hook
// setting, and a refused value is a warning, never an error of Resolve.
func TestHookKeysOnlyFromGit(t *testing.T) {
	f, err := ParseFile(FileName, []byte("prose: warn\n"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Resolve(Layers{
		// a variable named like the setting is not read
		Getenv: func(k string) string {
			if k == "MEMCITE_ENABLED" || k == "MEMCITE_PRE_COMMIT" {
				return "off"
			}
			return ""
		},
		Git: func(key string) ([]string, error) {
			if key == "memcite.preCommit" {
				return []string{"nonsense"}, nil
			}
			return nil, nil
		},
		File: f, FileName: FileName,
	})
	if err != nil {
		t.Fatal(err)
	}
	if v := c.Get("memcite.enabled"); v.First() != "true" || v.Origin != "default" {
		t.Errorf("memcite.enabled = %+v, want the default (no variable sets it)", v)
	}
	if got := c.Warnings; len(got) != 1 || got[0] != `memcite.preCommit="nonsense" is not strict, block, fix, warn or off; using block` {
		t.Errorf("warnings = %q", got)
	}
	for _, k := range Keys {
		if k.Hook && (k.Flag != "" || k.Env != "" || k.Git == "") {
			t.Errorf("hook setting %s must be set by git config only", k.Name)
		}
		if k.Hook && slices.Contains(k.Layers(), FileName) {
			t.Errorf("%s: the team file may not set a hook setting", k.Name)
		}
	}
	if _, err := ParseFile(FileName, []byte("preCommit: warn\n")); err == nil {
		t.Error("the team file accepted a hook setting")
	}
}
