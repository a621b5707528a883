package gitblame

import (
	"strings"
	"testing"
)

func TestParseHash(t *testing.T) {
	t.Parallel()
	sha1 := "ce013625030ba8dba906f756967f9e9ca394464a"
	sha256 := "2cf8d83d9ee29543b34a87727421fdecb7e3f3a183d337639025de576db9ebb4"
	for _, tt := range []struct {
		in   string
		size int // 0: refused
	}{
		{sha1, SHA1Size},
		{sha256, SHA256Size},
		{strings.ToUpper(sha1), SHA1Size},
		{sha1[:39], 0},
		{sha256 + "0", 0},
		{"", 0},
		{strings.Repeat("g", 40), 0},
		{strings.Repeat("0", 64), SHA256Size},
	} {
		h, err := ParseHash(tt.in)
		if tt.size == 0 {
			if err == nil || !h.IsZero() {
				t.Errorf("ParseHash(%q) = %v, %v; want an error and the zero hash", tt.in, h, err)
			}
			continue
		}
		if err != nil || h.Size() != tt.size || h.String() != strings.ToLower(tt.in) || h.IsZero() {
			t.Errorf("ParseHash(%q) = %v (size %d), %v; want size %d", tt.in, h, h.Size(), err, tt.size)
		}
		if NewHash(h.Bytes()) != h {
			t.Errorf("NewHash(%q.Bytes()) differs", tt.in)
		}
	}
	a, _ := ParseHash(strings.Repeat("0", 40))
	b, _ := ParseHash(strings.Repeat("0", 64))
	if a == b || a == ZeroHash || b == ZeroHash {
		t.Error("hashes of different formats (or all-zero names and the absent hash) compare equal")
	}
	if ZeroHash.String() != strings.Repeat("0", 40) || ZeroHash.Short() != "0000000" {
		t.Errorf("ZeroHash = %q", ZeroHash.String())
	}
	if !NewHash(make([]byte, 21)).IsZero() {
		t.Error("NewHash of 21 bytes is not the zero hash")
	}
}

// TestBlobHash checks against git hash-object, in a SHA-1 repository and
// (git init --object-format=sha256) a SHA-256 one.
func TestBlobHash(t *testing.T) {
	t.Parallel()
	sha256Name, _ := ParseHash(strings.Repeat("ab", 32))
	for _, tt := range []struct {
		content string
		like    Hash
		want    string
	}{
		{"hello\n", ZeroHash, "ce013625030ba8dba906f756967f9e9ca394464a"},
		{"", ZeroHash, "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"},
		{"hello\n", sha256Name, "2cf8d83d9ee29543b34a87727421fdecb7e3f3a183d337639025de576db9ebb4"},
		{"", sha256Name, "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813"},
	} {
		if got := BlobHash([]byte(tt.content), tt.like).String(); got != tt.want {
			t.Errorf("BlobHash(%q, size %d) = %s, want %s", tt.content, tt.like.Size(), got, tt.want)
		}
	}
}
