package gitblame

// diffKeys computes a line diff of two line slices the way the tracker
// diffs blobs (each distinct line one rune).
func diffKeys(a, b []string) []Run {
	in := interner{}
	return diffRunes(in.runes(a), in.runes(b))
}

// buildMap maps the lines of a to those of b as the tracker does.
func buildMap(a, b *text) *lineMap {
	return buildMapRuns(a, b, diffKeys(a.keys, b.keys))
}
