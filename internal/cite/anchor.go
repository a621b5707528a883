package cite

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// A mention in prose ("the root is found at check.py:119") was true when it
// was written. Anchoring it means reading line 119 at the commit that
// wrote the sentence, and believing it only when that line and the
// sentence share a word of code: an identifier of the line named in the
// sentence, or code quoted in it. Without such evidence the mention is not
// proposed: a wrong citation verifies forever, which is worse than none.

// identRe finds identifiers of three characters or more.
var identRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]{2,}`) })

// disownRe finds sentences that say their own line number is not to be
// trusted.
var disownRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(wrong|outdated|out of date|stale|no longer|incorrect|used to be|was at|has moved|moved to)\b`)
})

// prose words that say nothing about code
var stopWords = map[string]bool{
	"the": true, "and": true, "for": true, "this": true, "that": true, "with": true, "from": true,
	"line": true, "lines": true, "file": true, "files": true, "see": true, "here": true, "its": true,
	"are": true, "was": true, "were": true, "lives": true, "also": true, "which": true, "where": true,
	"when": true, "then": true, "than": true, "into": true, "onto": true, "there": true, "these": true,
	"those": true, "has": true, "have": true, "had": true, "not": true, "but": true, "all": true,
	"any": true, "one": true, "two": true, "our": true, "you": true, "your": true, "can": true,
	"will": true, "should": true, "would": true, "could": true, "must": true, "via": true, "code": true,
	"cite": true, "defined": true, "called": true, "calls": true, "uses": true, "used": true,
	// keywords and names that every file has: no evidence of one line
	"func": true, "return": true, "string": true, "error": true, "errors": true, "err": true,
	"true": true, "false": true, "nil": true, "none": true, "null": true, "self": true, "def": true,
	"class": true, "import": true, "const": true, "var": true, "type": true, "struct": true,
	"interface": true, "package": true, "else": true, "range": true, "int": true, "bool": true,
	"byte": true, "len": true, "make": true, "append": true, "ctx": true, "fmt": true, "new": true,
	"let": true, "case": true, "break": true, "continue": true, "default": true, "switch": true,
	"public": true, "private": true, "static": true, "void": true, "async": true, "await": true,
}

// words returns the identifier words of s, lower-cased, with identifiers
// split at underscores and case changes too (repo_root, RepoRoot → repo,
// root).
func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, id := range identRe().FindAllString(s, -1) {
		add := func(w string) {
			w = strings.ToLower(w)
			if len(w) >= 3 && !stopWords[w] {
				out[w] = true
				if len(w) > 4 && strings.HasSuffix(w, "s") {
					out[w[:len(w)-1]] = true // returns → return
				}
			}
		}
		add(id)
		for _, part := range splitIdent(id) {
			add(part)
		}
	}
	return out
}

// splitIdent splits an identifier at underscores and lower-to-upper case
// changes.
func splitIdent(id string) []string {
	var parts []string
	start := 0
	for i := 1; i <= len(id); i++ {
		if i == len(id) || id[i] == '_' || (id[i] >= 'A' && id[i] <= 'Z' && id[i-1] >= 'a' && id[i-1] <= 'z') {
			if i > start {
				parts = append(parts, strings.Trim(id[start:i], "_"))
			}
			start = i
		}
	}
	return parts
}

// unanchored says why a mention cannot be anchored with confidence, or ""
// when it can.
func unanchored(m *Mention, a Anchored) string {
	if a.Lost != "" {
		return a.Lost
	}
	sentence := strings.Replace(m.body, m.Text, " ", 1)
	if disownRe().MatchString(sentence) {
		return "the sentence says this location is not to be trusted"
	}
	said := words(sentence)
	for w := range words(m.Text) { // the path names nothing on the line
		delete(said, w)
	}
	if len(said) == 0 {
		return "the sentence names no code to check the line against"
	}
	// Code quoted in the sentence that is the cited line (or a part of it
	// of some length) is proof.
	cited := collapse(strings.Join(a.Then, " "))
	for _, q := range quotedRe().FindAllStringSubmatch(sentence, -1) {
		if c := collapse(q[1]); len(c) >= 6 && strings.Contains(cited, c) {
			return ""
		}
	}
	// The evidence is the words the sentence shares with the cited lines,
	// each weighed by how rare it is in the file then: a word on one line
	// only is proof, one on every other line is none.
	then := words(strings.Join(a.Then, "\n"))
	evidence := 0.0
	for w := range said {
		if !then[w] {
			continue
		}
		n := 0
		for _, l := range a.File {
			if words(l)[w] {
				n++
			}
		}
		evidence += 1 / float64(max(n, 1))
	}
	if evidence >= evidenceNeeded {
		return ""
	}
	if evidence > 0 {
		return fmt.Sprintf("the words the sentence shares with the cited line are common in %s: no evidence of this line", m.Text)
	}
	where := "when it was written"
	if a.Commit != "" {
		where = "in " + shortHash(a.Commit) + ", where the sentence was written"
	}
	return fmt.Sprintf("the cited line %s (%q) shares no word with the sentence", where, strings.TrimSpace(strings.Join(a.Then, " ")))
}

// evidenceNeeded is how much shared-word evidence anchors a mention: one
// word found on at most two lines of the file.
var evidenceNeeded = 1.0 / 2

// quotedRe finds code quoted in backticks.
var quotedRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`([^`]+)`") })

// collapse trims s and collapses its runs of white space.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

func shortHash(h string) string {
	if len(h) > 7 {
		return h[:7]
	}
	return h
}
