package prose

import "strings"

// The bare-path scan of lineRefs, and its tests of file names and
// backticked spans, by hand: it finds what the regular
// expression `(?:^|[\s(\[{"'*,;])(` + fileName + `)` finds, with the same
// leftmost-first choices (FindAllStringSubmatchIndex), in one pass over
// the line without backtracking (the regexp was most of Extract's time).
// TestBareMatchesRegexp and FuzzBareMatches hold the two together.

// isWord is \w: an ASCII letter, digit or underscore.
func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// isNameByte is [\w.-].
func isNameByte(c byte) bool { return isWord(c) || c == '.' || c == '-' }

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// isBareDelim is [\s(\[{"'*,;] (\s is [\t\n\f\r ]).
func isBareDelim(c byte) bool {
	switch c {
	case '\t', '\n', '\f', '\r', ' ', '(', '[', '{', '"', '\'', '*', ',', ';':
		return true
	}
	return false
}

// plainNames are the file names fileName accepts without an extension,
// in its order.
var plainNames = [...]string{"Makefile", "Dockerfile", "Containerfile", "Justfile", "Rakefile", "Gemfile", "Jenkinsfile", "Procfile", "Vagrantfile"}

// fileAt matches the last part of fileName at q:
// [\w-][\w.-]*\.[A-Za-z]\w* or one of plainNames. It returns the end of
// the match, or -1.
func fileAt(l string, q int) int {
	if q < len(l) && (isWord(l[q]) || l[q] == '-') {
		// [\w.-]* is greedy: the last "." followed by a letter in the run
		// of name bytes after q
		end := q + 1
		for end < len(l) && isNameByte(l[end]) {
			end++
		}
		for i := end - 2; i >= q+1; i-- {
			if l[i] == '.' && isLetter(l[i+1]) {
				e := i + 2
				for e < len(l) && isWord(l[e]) {
					e++
				}
				return e
			}
		}
	}
	return plainAt(l, q)
}

// plainAt matches one of plainNames at q: the end of the match, or -1.
func plainAt(l string, q int) int {
	if q < len(l) && plainFirst[l[q]] {
		for _, n := range plainNames {
			if strings.HasPrefix(l[q:], n) {
				return q + len(n)
			}
		}
	}
	return -1
}

// plainFirst tells the first bytes of plainNames.
var plainFirst = func() (t [256]bool) {
	for _, n := range plainNames {
		t[n[0]] = true
	}
	return t
}()

// isFileName reports whether all of t is a fileName, as the expression
// `^` + fileName + `$` does: a match to the end has its file in t's last
// segment (the file part holds no "/"), which fileNameAt tries first, and
// the file part ends at t's end only as fileAt matches it (a file that
// ends past its last "." and letter in a byte not \w cannot end there).
// TestIsFileName and FuzzBareMatches hold the two together.
func isFileName(t string) bool {
	end, _ := fileNameAt(t, 0, nil)
	return end == len(t)
}

// codeSpans returns the backticked spans of l as codeRe's
// FindAllStringSubmatchIndex does ("`([^`\n]+)`"): the start and end of
// each match and of its text.
func codeSpans(l string) [][]int {
	var out [][]int
	for i := 0; i < len(l); {
		a := strings.IndexByte(l[i:], '`')
		if a < 0 {
			break
		}
		start := i + a
		j := start + 1
		for j < len(l) && l[j] != '`' && l[j] != '\n' {
			j++
		}
		if j < len(l) && l[j] == '`' && j > start+1 {
			out = append(out, []int{start, j + 1, start + 1, j})
			i = j + 1
			continue
		}
		i = start + 1
	}
	return out
}

// fileNameAt matches fileName at s: (?:[\w.-]+/)* then the file. The
// folders are greedy, so the most folders that leave a file after them
// win. It returns the end of the match, or -1.
func fileNameAt(l string, s int, segs []int) (int, []int) {
	// a run of name bytes with no "." or "/" has no folder and no
	// extension: it can only be a plain name (most words of prose)
	plain := true
	for e := s; e < len(l) && (isNameByte(l[e]) || l[e] == '/'); e++ {
		if l[e] == '.' || l[e] == '/' {
			plain = false
			break
		}
	}
	if plain {
		return plainAt(l, s), segs
	}
	segs = append(segs[:0], s)
	for p := s; ; {
		e := p
		for e < len(l) && isNameByte(l[e]) {
			e++
		}
		if e == p || e >= len(l) || l[e] != '/' {
			break
		}
		p = e + 1
		segs = append(segs, p)
	}
	for k := len(segs) - 1; k >= 0; k-- {
		if end := fileAt(l, segs[k]); end >= 0 {
			return end, segs
		}
	}
	return -1, segs
}

// bareMatches returns, for each match of the bare-path expression in l,
// the start and end of its path (the regexp's first group).
func bareMatches(l string) [][2]int {
	var out [][2]int
	var segs []int
	for p := 0; p < len(l); {
		if p == 0 {
			// ^ first, then a delimiter at 0
			var end int
			if end, segs = fileNameAt(l, 0, segs); end >= 0 {
				out = append(out, [2]int{0, end})
				p = end
				continue
			}
		}
		if isBareDelim(l[p]) {
			var end int
			if end, segs = fileNameAt(l, p+1, segs); end >= 0 {
				out = append(out, [2]int{p + 1, end})
				p = end
				continue
			}
		}
		p++
	}
	return out
}
