package memfile

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// sameTree compares what Parse reads of two node trees. Implicit nulls
// ("key:" with nothing after it) carry no position in the fast parser.
func sameTree(a, b *yaml.Node, path string) error {
	if a.Kind != b.Kind || a.Tag != b.Tag || a.Value != b.Value || a.Style != b.Style || len(a.Content) != len(b.Content) {
		return fmt.Errorf("%s: fast %v %s %q style %v (%d children); yaml.v3 %v %s %q style %v (%d children)",
			path, a.Kind, a.Tag, a.Value, a.Style, len(a.Content), b.Kind, b.Tag, b.Value, b.Style, len(b.Content))
	}
	implicitNull := a.Kind == yaml.ScalarNode && a.Tag == "!!null" && a.Value == ""
	if !implicitNull && (a.Line != b.Line || a.Column != b.Column) {
		return fmt.Errorf("%s %q: fast at %d:%d, yaml.v3 at %d:%d", path, a.Value, a.Line, a.Column, b.Line, b.Column)
	}
	for i := range a.Content {
		if err := sameTree(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", path, i)); err != nil {
			return err
		}
	}
	return nil
}

var fastCases = []string{
	"id: x\nsubject: Hello world\n",
	"citations:\n  - path: a.go\n    line: 3\n    snippet: \"x := 1\"\n  - b.go:4\n",
	"citations:\n- path: a.go # c\n  line: '3'\n",
	"tags: [a, 'b c', \"d\"]\nconfidence: 0.75\nexempt: true\nx: null\ny: ~\nz:\n",
	"links:\n  - related: other\n  - link_type: IMPLEMENTS\n    target_id: adr-1\n",
	"a:\n  b:\n    c: 1\n  d: [1, 2.5, true]\n",
	"verified: 2026-01-24T10:30:00Z\ncommit: 0123456789abcdef0123456789abcdef01234567\n",
	"snippet: \"caf\\u00e9 \\\"quoted\\\" \\\\\"\n",
	"name: ünïcode — text\ntitle: héllo: nope\n",
	"k: a#b\nl: a #comment\n",
	"k: [a, b,]\n",
	"k: []\nl: [ ]\n",
	"# comment\nk: v\r\nl: w\r\n",
}

func TestFastYAMLAgrees(t *testing.T) {
	accepted := 0
	for _, src := range fastCases {
		fast, ok := fastYAML([]byte(src))
		var slow yaml.Node
		err := yaml.Unmarshal([]byte(src), &slow)
		if !ok {
			continue
		}
		accepted++
		if err != nil {
			t.Errorf("%q: fast path accepted what yaml.v3 rejects: %v", src, err)
			continue
		}
		if err := sameTree(fast.Content[0], slow.Content[0], ""); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
	if accepted < 9 {
		t.Errorf("fast path accepted only %d of %d common shapes", accepted, len(fastCases))
	}
}

// FuzzFastYAML: whenever the fast path accepts an input, yaml.v3 accepts it
// too and builds the same tree.
func FuzzFastYAML(f *testing.F) {
	for _, s := range fastCases {
		f.Add(s)
	}
	for _, s := range fuzzSeeds {
		if i := strings.Index(s, "---\n"); i >= 0 {
			f.Add(strings.TrimSuffix(strings.TrimPrefix(s[i:], "---\n"), "---\n"))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		fast, ok := fastYAML([]byte(src))
		if !ok {
			return
		}
		var slow yaml.Node
		if err := yaml.Unmarshal([]byte(src), &slow); err != nil {
			t.Fatalf("fast path accepted what yaml.v3 rejects (%v):\n%q", err, src)
		}
		if len(slow.Content) == 0 {
			t.Fatalf("yaml.v3 sees an empty document:\n%q", src)
		}
		if err := sameTree(fast.Content[0], slow.Content[0], ""); err != nil {
			t.Fatalf("%v\n%q", err, src)
		}
	})
}
