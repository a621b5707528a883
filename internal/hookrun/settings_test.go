package hookrun

import (
	"reflect"
	"testing"
)

func TestSettings(t *testing.T) {
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
			var got []string
			for _, s := range Settings(tc.vals) {
				got = append(got, s.Name+"="+s.Value+" ("+s.Origin+")")
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
