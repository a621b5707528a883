package gitrepo

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/git-memcite/git-memcite/internal/regfile"
)

// maxLooseObject bounds the loose objects read in-process: commits, trees
// and most source files are smaller; anything larger is git's to read.
const maxLooseObject = 1 << 20

// looseObjects reads objects from a repository's own loose objects
// (objects/xx/yyyy under the common git dir: zlib-compressed "type size\0"
// and the content), without git. The commit, trees and blobs of a commit
// just made are loose until git packs them, so a hook after a commit reads
// what it needs of HEAD without waiting for a cat-file process to start,
// and a single read costs no round trip through a pipe.
//
// It answers only where git would read the same bytes: it is off when the
// repository has replace refs (git reads a replaced object's replacement)
// or keeps its refs in another format than files (where they are not
// looked for), when the environment names another object directory or
// replace namespace, and with MEMCITE_BACKEND=git. An object not loose
// here (packed, borrowed from an alternate, missing), of another type,
// unreadable or larger than maxLooseObject is git's to read.
type looseObjects struct {
	dir    string // the objects directory
	hexLen int    // 40 (SHA-1) or 64 (SHA-256)
	off    bool

	// fanout: which objects/xx directories existed when first listed; a
	// read of an object under another one asks git without a failed
	// open (a freshly cloned or packed repository has none)
	fanOnce sync.Once
	fanout  [256]bool
}

// newLooseObjects makes r's loose object reader (objects, once).
func newLooseObjects(r *Repo) *looseObjects {
	l := &looseObjects{dir: filepath.Join(r.CommonDir, "objects"), hexLen: 40}
	if r.ObjectFormat == "sha256" {
		l.hexLen = 64
	}
	l.off = r.CommonDir == "" || (r.RefFormat != "" && r.RefFormat != "files") || !noReplaceRefs(r.CommonDir)
	for _, env := range []string{"GIT_OBJECT_DIRECTORY", "GIT_REPLACE_REF_BASE"} {
		if _, set := os.LookupEnv(env); set {
			l.off = true
		}
	}
	return l
}

// read returns the content of object oid if it is a loose object of type
// typ that git would read as it is; ok is false where git must answer.
func (l *looseObjects) read(oid, typ string) (data []byte, ok bool) {
	if l.off || forceGitBinary.Load() || len(oid) != l.hexLen || !isHex(oid) {
		return nil, false
	}
	l.fanOnce.Do(l.listFanout)
	fan, err := strconv.ParseUint(oid[:2], 16, 8)
	if err != nil || !l.fanout[fan] {
		return nil, false
	}
	f, err := regfile.Open(filepath.Join(l.dir, oid[:2], oid[2:]))
	if err != nil {
		return nil, false
	}
	defer f.Close()
	zr, err := zlib.NewReader(bufio.NewReaderSize(io.LimitReader(f, maxLooseObject), 4096))
	if err != nil {
		return nil, false
	}
	defer zr.Close()
	data, err = parseLoose(zr, typ)
	return data, err == nil
}

// listFanout notes which two-digit directories the objects directory
// holds.
func (l *looseObjects) listFanout() {
	ents, err := os.ReadDir(l.dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if n := e.Name(); len(n) == 2 && e.IsDir() {
			if fan, err := strconv.ParseUint(n, 16, 8); err == nil {
				l.fanout[fan] = true
			}
		}
	}
}

// parseLoose reads an inflated loose object: its header "type size\0",
// which must name typ and a size of at most maxLooseObject, written as git
// writes it, then exactly size bytes of content.
func parseLoose(r io.Reader, typ string) ([]byte, error) {
	var head [32]byte
	n := 0
	for {
		if n == len(head) {
			return nil, errBadLoose
		}
		if _, err := io.ReadFull(r, head[n:n+1]); err != nil {
			return nil, err
		}
		if head[n] == 0 {
			break
		}
		n++
	}
	t, size, ok := bytes.Cut(head[:n], []byte{' '})
	if !ok || string(t) != typ {
		return nil, errBadLoose
	}
	sz, err := strconv.Atoi(string(size))
	if err != nil || sz < 0 || sz > maxLooseObject || strconv.Itoa(sz) != string(size) {
		return nil, errBadLoose
	}
	data := make([]byte, sz)
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, err
	}
	return data, nil
}

// errBadLoose: a loose object whose header is not what was asked for.
var errBadLoose = errors.New("loose object: unexpected header")

// noReplaceRefs reports whether the repository whose common git dir is
// dir has no replace refs: no loose ref under refs/replace and none in
// packed-refs (false too when it cannot tell).
func noReplaceRefs(dir string) bool {
	ents, err := os.ReadDir(filepath.Join(dir, "refs", "replace"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) || len(ents) > 0 {
		return false
	}
	_, ok := readRefFiles(dir) // false with a replace ref in packed-refs
	return ok
}
