package cite

import (
	"strings"
	"testing"
	"unicode"
)

func TestUnanchored(t *testing.T) {
	tests := []struct {
		name, body, text string
		then             []string
		lost             string
		want             string // substring of the reason; "" to anchor
	}{
		{"quoted code on the line", "The root is `repo_root = Path.cwd()` at a.py:119.", "a.py:119", []string{"    repo_root = Path.cwd()"}, "", ""},
		{"an identifier named", "Handle errors in Handle at h.go:3.", "h.go:3", []string{"func Handle() error {"}, "", ""},
		{"camel and snake parts", "the retry budget is set at c.go:7", "c.go:7", []string{"retryBudget := 3"}, "", ""},
		{"a plural names the identifier", "the handlers are set up at h.go:4", "h.go:4", []string{"\thandler := newHandler()"}, "", ""},
		{"keywords are no evidence", "it returns early at h.go:4", "h.go:4", []string{"\treturn nil"}, "", "shares no word"},
		{"nothing shared", "The parser of the config is at a.py:10.", "a.py:10", []string{"value_10 = compute_10()"}, "", "shares no word"},
		{"no code in the sentence", "See a.py:12.", "a.py:12", []string{"x = 1"}, "", "names no code"},
		{"the path's own words do not count", "check_unreachable_code.py:5 here", "check_unreachable_code.py:5", []string{"unreachable = check()"}, "", "names no code"},
		{"disowned", "The number in a.py:40 is outdated.", "a.py:40", []string{"outdated = 1"}, "", "not to be trusted"},
		{"lost", "Handle at h.go:3", "h.go:3", nil, "h.go did not exist", "did not exist"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &Mention{Text: tc.text, body: tc.body}
			got := unanchored(m, Anchored{Then: tc.then, Lost: tc.lost, Commit: "0123456789abcdef"})
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("unanchored = %q, want %q", got, tc.want)
			}
		})
	}
}

// FuzzWords: the tokenizer of sentences and code lines returns lower-case
// words of three characters or more, never a stop word, for any input.
func FuzzWords(f *testing.F) {
	f.Add("The root is `repo_root = Path.cwd()` at a.py:119.")
	f.Add("RetryBudget_max __init__ ÄÖÜ x\x00y")
	f.Fuzz(func(t *testing.T, s string) {
		for w := range words(s) {
			if len(w) < 3 || stopWords[w] {
				t.Fatalf("word %q from %q", w, s)
			}
			for _, r := range w {
				if unicode.IsUpper(r) {
					t.Fatalf("upper-case word %q from %q", w, s)
				}
			}
		}
	})
}
