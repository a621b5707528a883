package gitblame

import (
	"math"
	"unicode"
)

// Scoring constants (LHDiff, Asaduzzaman et al. 2013, with the stricter
// acceptance git-memcite wants: a wrong relocation is worse than none).
const (
	contentWeight = 0.6
	contextWeight = 0.4
	// minContent is the content similarity a candidate needs at all.
	minContent = 0.5
	// minScore is the combined score a candidate needs to be accepted.
	minScore = 0.5
	// minMargin is the lead the best candidate needs over the runner-up.
	minMargin = 0.05
	// contextLines is how many non-trivial lines above and below form a
	// line's context.
	contextLines = 4
	// maxLineRunes bounds the Levenshtein computation.
	maxLineRunes = 300
)

// similarity is 1 - Levenshtein(a, b) / max(len(a), len(b)) over runes.
func similarity(a, b string) float64 {
	if a == b {
		return 1
	}
	ra, rb := []rune(a), []rune(b)
	if len(ra) > maxLineRunes {
		ra = ra[:maxLineRunes]
	}
	if len(rb) > maxLineRunes {
		rb = rb[:maxLineRunes]
	}
	if len(ra) == 0 || len(rb) == 0 {
		return 0
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			c := prev[j-1]
			if ra[i-1] != rb[j-1] {
				c++
			}
			if d := prev[j] + 1; d < c {
				c = d
			}
			if d := cur[j-1] + 1; d < c {
				c = d
			}
			cur[j] = c
		}
		prev, cur = cur, prev
	}
	d := prev[len(rb)]
	m := max(len(ra), len(rb))
	return 1 - float64(d)/float64(m)
}

// vector is a bag of tokens.
type vector map[string]float64

func addTokens(v vector, s string) {
	start := -1
	for i, r := range s {
		word := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'
		if word && start < 0 {
			start = i
		}
		if !word && start >= 0 {
			v[s[start:i]]++
			start = -1
		}
	}
	if start >= 0 {
		v[s[start:]]++
	}
}

func cosine(a, b vector) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	var dot, na, nb float64
	for k, x := range a {
		na += x * x
		if y, ok := b[k]; ok {
			dot += x * y
		}
	}
	for _, y := range b {
		nb += y * y
	}
	return dot / math.Sqrt(na*nb)
}

// contextOf returns the token bag of up to contextLines non-trivial lines
// above and below line i of t, skipping the lines for which skip is true
// (the other lines of the citation, which are scored separately).
func contextOf(t *text, i int) vector {
	v := vector{}
	n := 0
	for k := i - 1; k >= 0 && n < contextLines; k-- {
		if trivial(t.keys[k]) {
			continue
		}
		addTokens(v, t.keys[k])
		n++
	}
	n = 0
	for k := i + 1; k < len(t.keys) && n < contextLines; k++ {
		if trivial(t.keys[k]) {
			continue
		}
		addTokens(v, t.keys[k])
		n++
	}
	return v
}
