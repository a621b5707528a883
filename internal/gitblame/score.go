package gitblame

import (
	"math"
	"strings"
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

// Similarity is the tracker's content similarity of two lines: 1 minus
// their Levenshtein distance over the longer length, after trimming and
// collapsing white space (1 means equal up to white space).
func Similarity(a, b string) float64 { return similarity(normalize(a), normalize(b)) }

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

func addTokens(v vector, s string, w float64) {
	start := -1
	for i, r := range s {
		word := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'
		if word && start < 0 {
			start = i
		}
		if !word && start >= 0 {
			v[s[start:i]] += w
			start = -1
		}
	}
	if start >= 0 {
		v[s[start:]] += w
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

// surroundings is the context of a line: the tokens of up to contextLines
// non-trivial lines above and below it, weighted by closeness (1, 3/4,
// 1/2, 1/4), so that the nearest neighbours count most.
type surroundings struct {
	above, below vector
	// nearAbove and nearBelow are the closest non-trivial lines, distAbove
	// and distBelow how many lines away they are.
	nearAbove, nearBelow string
	distAbove, distBelow int
}

func contextOf(t *text, i int) surroundings {
	c := surroundings{above: vector{}, below: vector{}}
	n := 0
	for k := i - 1; k >= 0 && n < contextLines; k-- {
		if trivial(t.keys[k]) {
			continue
		}
		if n == 0 {
			c.nearAbove, c.distAbove = t.keys[k], i-k
		}
		addTokens(c.above, t.keys[k], float64(contextLines-n)/contextLines)
		n++
	}
	n = 0
	for k := i + 1; k < len(t.keys) && n < contextLines; k++ {
		if trivial(t.keys[k]) {
			continue
		}
		if n == 0 {
			c.nearBelow, c.distBelow = t.keys[k], k-i
		}
		addTokens(c.below, t.keys[k], float64(contextLines-n)/contextLines)
		n++
	}
	return c
}

// contextSim compares two contexts side by side; a side that is empty in
// either (start or end of file) does not count. Each side weighs by the
// closeness of a's nearest line on it: lines right above a line say more
// about it than a comment three lines below, past a brace and a blank.
func contextSim(a, b surroundings) float64 {
	// A side with no lines at all in either text (the start or the end of
	// a file: the line moved to the edge of a new file, or from it) says
	// nothing either way and does not count.
	ea := len(a.above) == 0 || len(b.above) == 0
	eb := len(a.below) == 0 || len(b.below) == 0
	switch {
	case ea && eb:
		return 0
	case ea:
		return cosine(a.below, b.below)
	case eb:
		return cosine(a.above, b.above)
	}
	wa, wb := 1/float64(max(a.distAbove, 1)), 1/float64(max(a.distBelow, 1))
	return (wa*cosine(a.above, b.above) + wb*cosine(a.below, b.below)) / (wa + wb)
}

// minTrivialContext is the context similarity a trivial line needs: it has
// no content of its own to go by.
const minTrivialContext = 0.8

// trivialContextSim scores the context of a trivial line by the side it
// belongs to: a closing line ("}", ")", "end") by the lines above it, which
// it closes and which move with it; an opening line by the lines below;
// anything else ("return nil", "} else {") by its better side, since at the
// edge of a moved block only one side moves with it. A side counts only if
// its nearest non-trivial line is the same on both: a brace is identified
// by the line it is attached to, not by a resemblance of the area.
func trivialContextSim(key string, a, b surroundings) float64 {
	closing := strings.HasPrefix(key, "}") || strings.HasPrefix(key, ")") || strings.HasPrefix(key, "]") || key == "end"
	opening := strings.HasSuffix(key, "{") || strings.HasSuffix(key, "(") || strings.HasSuffix(key, "[")
	above, below := 0.0, 0.0
	if a.nearAbove != "" && a.nearAbove == b.nearAbove {
		above = cosine(a.above, b.above)
	}
	if a.nearBelow != "" && a.nearBelow == b.nearBelow {
		below = cosine(a.below, b.below)
	}
	switch {
	case closing && !opening:
		return above
	case opening && !closing:
		return below
	}
	return max(above, below)
}
