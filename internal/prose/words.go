package prose

// The words of code files: every identifier of a file, each once (the
// word floor of symbols, kept in the verification cache), and the names
// of a set a file holds (the search of the trees that wrote a missing
// name). Both scan megabytes of code in a cold run, so each word is
// hashed (FNV-1a) and looked up in an open-addressed table of its own,
// not in a Go map: no string header per word, and a word seen before in
// the file costs one probe.

const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
)

// wordHash is the FNV-1a hash of a word.
func wordHash[W string | []byte](w W) uint32 {
	h := uint32(fnvOffset)
	for i := 0; i < len(w); i++ {
		h = (h ^ uint32(w[i])) * fnvPrime
	}
	return h
}

// wordDedup lists a text's words, each once, in the order first seen.
// One is reused for many texts (not concurrently).
type wordDedup struct {
	slots []int32 // 1 + index in ws; 0 empty; len is a power of two
	ws    []dedupWord
	out   []byte
}

type dedupWord struct {
	hash       uint32
	slot       int32
	start, end int
}

// words returns data's words (eachWordAt), each once, in the order first
// seen, joined by single spaces.
func (d *wordDedup) words(data []byte) string {
	if len(d.slots) == 0 {
		d.slots = make([]int32, 1024)
	}
	d.ws, d.out = d.ws[:0], d.out[:0]
	eachWordAt(data, func(start, end int) { d.add(data, start, end) })
	for _, w := range d.ws {
		d.slots[w.slot] = 0
	}
	return string(d.out)
}

// add records the word data[start:end], unless it was seen.
func (d *wordDedup) add(data []byte, start, end int) {
	w := data[start:end]
	h := wordHash(w)
	mask := uint32(len(d.slots) - 1)
	for k := h & mask; ; k = (k + 1) & mask {
		s := d.slots[k]
		if s == 0 {
			d.slots[k] = int32(len(d.ws) + 1)
			d.ws = append(d.ws, dedupWord{hash: h, slot: int32(k), start: start, end: end})
			if len(d.out) > 0 {
				d.out = append(d.out, ' ')
			}
			d.out = append(d.out, w...)
			if 2*len(d.ws) > len(d.slots) {
				d.grow()
			}
			return
		}
		if o := &d.ws[s-1]; o.hash == h && string(data[o.start:o.end]) == string(w) {
			return
		}
	}
}

// grow doubles the table and places the words seen again.
func (d *wordDedup) grow() {
	d.slots = make([]int32, 2*len(d.slots))
	mask := uint32(len(d.slots) - 1)
	for i := range d.ws {
		w := &d.ws[i]
		k := w.hash & mask
		for d.slots[k] != 0 {
			k = (k + 1) & mask
		}
		d.slots[k] = int32(i + 1)
		w.slot = int32(k)
	}
}

// nameTable finds the words of a set of names in texts: a word's first
// byte and length are tested before it is hashed, so most words of code
// cost no more than their scanning. It is read only once built, so
// goroutines may share it.
type nameTable struct {
	slots []int32 // 1 + index in names; 0 empty
	names []string
	hash  []uint32
	lens  [4]uint64 // bit n: a name of n bytes (n < 256)
	first [256]bool
}

func newNameTable(names map[string]bool) *nameTable {
	size := 16
	for size < 2*len(names) {
		size *= 2
	}
	t := &nameTable{slots: make([]int32, size)}
	mask := uint32(size - 1)
	for n := range names {
		if n == "" {
			continue
		}
		if len(n) < 256 {
			t.lens[len(n)/64] |= 1 << (len(n) % 64)
		} else {
			t.lens = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
		}
		t.first[n[0]] = true
		h := wordHash(n)
		k := h & mask
		for t.slots[k] != 0 {
			k = (k + 1) & mask
		}
		t.names = append(t.names, n)
		t.hash = append(t.hash, h)
		t.slots[k] = int32(len(t.names))
	}
	return t
}

// holds lists the names data holds as words (eachWordAt), each once, in
// the order first seen.
func (t *nameTable) holds(data []byte) []string {
	var got []string
	mask := uint32(len(t.slots) - 1)
	eachWordAt(data, func(start, end int) {
		l := end - start
		if !t.first[data[start]] || l < 256 && t.lens[l/64]&(1<<(l%64)) == 0 {
			return
		}
		w := data[start:end]
		h := wordHash(w)
		for k := h & mask; ; k = (k + 1) & mask {
			s := t.slots[k]
			if s == 0 {
				return
			}
			if t.hash[s-1] == h && t.names[s-1] == string(w) {
				if name := t.names[s-1]; !containsString(got, name) {
					got = append(got, name)
				}
				return
			}
		}
	})
	return got
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
