package findings

import (
	"encoding/json"
	"os"
	"testing"
)

// kindsTree has a stale citation of every kind that a plain working tree
// can produce, plus a valid one.
var kindsTree = map[string]string{
	"a.go":     code,
	"src/b.go": "package a\n",
	"bin.dat":  "ab\x00cd\n",
	"lfs.bin":  "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n",
	"bad.txt":  "ok\nbad \xff\n",
	"mem/m.md": `---
id: m
citations:
  - path: ""
    line: 1
  - ../up.go
  - gone.go
  - src
  - bin.dat:1
  - lfs.bin:1
  - bad.txt:2
  - a.go:0
  - path: a.go
    line: 3
    line_end: 2
  - a.go:40
  - a.go:2-9
  - path: a.go
    line: 3
    snippet: func Bye()
  - path: a.go
    line: 1
    line_end: 3
    snippet: func Bye()
  - a.go:40
---
Body.
`,
	"mem/n.md": "---\ncitations:\n  - path: a.go\n    line: 3\n    snippet: func Hello()\n  - gone.go\n---\n",
}

// TestBaselineWrittenBefore: a baseline written by an earlier build still
// knows every finding, with the same rule id. testdata/
// baseline-before-kinds.json is the output of `git memcite verify-all
// --dir mem --format json` on kindsTree (committed) at a commit whose rule
// ids were derived from the reason strings; never regenerate it, since it
// stands for the baselines users keep.
func TestBaselineWrittenBefore(t *testing.T) {
	data, err := os.ReadFile("testdata/baseline-before-kinds.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Findings []struct {
			RuleID      string `json:"ruleId"`
			Fingerprint string `json:"fingerprint"`
			Message     string `json:"message"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	rules := map[string]string{} // fingerprint -> rule id
	for _, f := range doc.Findings {
		rules[f.Fingerprint] = f.RuleID
	}
	r := check(t, kindsTree)
	if len(r.Findings) != len(doc.Findings) || len(r.Findings) < 15 {
		t.Fatalf("%d findings now, %d in the baseline", len(r.Findings), len(doc.Findings))
	}
	for _, f := range r.Findings {
		rule, ok := rules[f.Fingerprint]
		switch {
		case !ok:
			t.Errorf("%s: fingerprint %s not in the baseline", f.Message, f.Fingerprint)
		case rule != f.RuleID:
			t.Errorf("%s: rule %s, baseline %s", f.Message, f.RuleID, rule)
		}
	}
	f, err := os.Open("testdata/baseline-before-kinds.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := ReadBaseline(f)
	if err != nil {
		t.Fatal(err)
	}
	n := len(r.Findings)
	b.Filter(r)
	if len(r.Findings) != 0 || r.Summary.Baselined != n {
		t.Errorf("after filtering with the baseline: %d findings left, %d baselined", len(r.Findings), r.Summary.Baselined)
	}
}
