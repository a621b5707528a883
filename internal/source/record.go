package source

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// A Recorder is a Source that keeps every question asked of the source it
// wraps, with a digest of the answer: what a run read, so that a later
// run can tell, by asking the same questions again (Answer), that the
// source still gives the same answers and so that the run would do and
// print what it did (docs/cache.md, "Whole runs").
//
// It passes on the optional interfaces of the source it wraps that
// callers look for (Identifier, Untracker, and the working tree's stamped
// listing), and has the others' answers when the wrapped source does not
// have them. An answer that cannot be asked again with the same result
// (an error other than the sentinels above, content not available from
// the repository) makes the record unusable (Usable).
type Recorder struct {
	src    Source
	format BlobFormat

	shards [32]recordShard
	seed   maphash.Seed
	open   atomic.Int64 // files opened and not closed yet
	notes  atomic.Int64

	mu       sync.Mutex
	unusable string
}

// recordShard holds the questions about a share of the arguments: the
// workers that load and verify memories record at once. Each argument
// has one record (in recs, by index: one map lookup a question).
type recordShard struct {
	mu   sync.Mutex
	byID map[string]int32
	recs []argRecord
}

// argRecord is what was asked about one argument.
type argRecord struct {
	arg  string
	ops  []opAnswer // the questions asked, in the order first asked
	id   string     // its ContentID, once asked (idSeen)
	blob Digest     // the content digest the ContentID implies (hasBlob)

	idSeen, idOK, hasBlob bool
}

type opAnswer struct {
	op byte
	d  Digest
}

// record returns the record of arg, made if need be; sh.mu is held.
func (sh *recordShard) record(arg string) *argRecord {
	i, ok := sh.byID[arg]
	if !ok {
		i = int32(len(sh.recs))
		sh.recs = append(sh.recs, argRecord{arg: arg})
		sh.byID[arg] = i
	}
	return &sh.recs[i]
}

func (r *Recorder) shard(arg string) *recordShard {
	return &r.shards[maphash.String(r.seed, arg)%uint64(len(r.shards))]
}

// A Question is one call a Recorder saw: Op is the method, Arg its
// argument (a path, or a listing stamp).
type Question struct {
	Op  byte
	Arg string
}

// Operations of a Question.
const (
	OpStat        byte = 'S' // Stat(Arg)
	OpRead        byte = 'R' // ReadFile(Arg) or Open(Arg): the content
	OpList        byte = 'L' // List(Arg)
	OpContentID   byte = 'I' // ContentID(Arg)
	OpUntracked   byte = 'U' // Untracked(Arg)
	OpListStamped byte = 'T' // ListStamped(): the list (Arg is "")
	OpSameList    byte = 'M' // SameList(Arg)
)

// Digest is a digest of an answer.
type Digest [16]byte

// BlobFormat is the object format of the repository whose content a
// Recorder names: a file's content is kept by its blob id in that format,
// so that the source's ContentID answers for it again without a read.
type BlobFormat uint8

// Object formats.
const (
	SHA1 BlobFormat = iota
	SHA256
)

// isBlobHex reports whether s is a blob id of the format.
func (f BlobFormat) isBlobHex(s string) bool {
	n := 40
	if f == SHA256 {
		n = 64
	}
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// NewRecorder wraps src, for about hint questions, in a repository of
// object format f.
func NewRecorder(src Source, hint int, f BlobFormat) *Recorder {
	r := &Recorder{src: src, format: f, seed: maphash.MakeSeed()}
	n := hint / len(r.shards)
	for i := range r.shards {
		r.shards[i].byID = make(map[string]int32, n)
		r.shards[i].recs = make([]argRecord, 0, n)
	}
	return r
}

// Usable reports whether every answer r recorded can be asked again, and
// if not, why.
func (r *Recorder) Usable() (ok bool, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n := r.open.Load(); r.unusable == "" && n > 0 {
		return false, strconv.FormatInt(n, 10) + " files opened and not closed"
	}
	return r.unusable == "", r.unusable
}

// Answers returns the questions r recorded with the digests of their
// answers, sorted by argument. The content of a file
// whose ContentID was asked too, and named that content, is left out:
// asking ContentID again answers both.
func (r *Recorder) Answers() ([]Question, []Digest) {
	var qs []Question
	var ds []Digest
	for i := range r.shards {
		sh := &r.shards[i]
		sh.mu.Lock()
		for k := range sh.recs {
			rec := &sh.recs[k]
			for _, a := range rec.ops {
				if a.op == OpRead && rec.hasBlob && rec.blob == a.d {
					continue
				}
				qs = append(qs, Question{a.op, rec.arg})
				ds = append(ds, a.d)
			}
		}
		sh.mu.Unlock()
	}
	// by path: asking them again in that order reads the index and the
	// directories in order
	type answer struct {
		q Question
		d Digest
	}
	all := make([]answer, len(qs))
	for i := range qs {
		all[i] = answer{qs[i], ds[i]}
	}
	slices.SortFunc(all, func(a, b answer) int {
		if c := strings.Compare(a.q.Arg, b.q.Arg); c != 0 {
			return c
		}
		return int(a.q.Op) - int(b.q.Op)
	})
	for i := range all {
		qs[i], ds[i] = all[i].q, all[i].d
	}
	return qs, ds
}

// Note records a question the caller asked elsewhere than of the source
// (Op outside the operations above), with the digest of its answer; why,
// when not "", says why the answer cannot be asked again.
func (r *Recorder) Note(op byte, arg string, d Digest, why string) {
	r.note(Question{op, arg}, d, why)
}

// DigestOfList is the digest of a list of paths, as List's answer is
// recorded.
func DigestOfList(paths []string) Digest {
	d, _ := listDigest(paths, nil)
	return d
}

func (r *Recorder) note(q Question, d Digest, why string) {
	sh := r.shard(q.Arg)
	sh.mu.Lock()
	// the first answer stands: a second one that differs (the file
	// changed during the run) makes the record unusable
	rec := sh.record(q.Arg)
	var old Digest
	seen := false
	for _, a := range rec.ops {
		if a.op == q.Op {
			old, seen = a.d, true
			break
		}
	}
	if !seen {
		rec.ops = append(rec.ops, opAnswer{q.Op, d})
	}
	sh.mu.Unlock()
	if !seen || why != "" {
		r.notes.Add(1)
	}
	if seen && old != d && why == "" {
		why = "two answers to one question"
	}
	if why != "" {
		r.mu.Lock()
		if r.unusable == "" {
			r.unusable = why + ": " + q.Arg
		}
		r.mu.Unlock()
	}
}

// Notes counts the questions recorded (and the answers that made the
// record unusable): a count that did not change means nothing was
// recorded in between.
func (r *Recorder) Notes() int {
	return int(r.notes.Load())
}

// Name implements Source.
func (r *Recorder) Name() string { return r.src.Name() }

// Stat implements Source.
func (r *Recorder) Stat(p string) (Entry, error) {
	e, err := r.src.Stat(p)
	d, why := statDigest(e, err)
	r.note(Question{OpStat, p}, d, why)
	return e, err
}

// ReadFile implements Source.
func (r *Recorder) ReadFile(p string) ([]byte, error) {
	data, err := r.src.ReadFile(p)
	d, why := r.format.contentDigest(data, err)
	r.note(Question{OpRead, p}, d, why)
	return data, err
}

// Open implements Source. The content's digest is taken as it is read,
// and recorded when the file is closed (what the caller left unread is
// read then); a file not closed makes the record unusable.
func (r *Recorder) Open(p string) (io.ReadCloser, error) {
	rc, err := r.src.Open(p)
	if err != nil {
		d, why := r.format.contentDigest(nil, err)
		r.note(Question{OpRead, p}, d, why)
		return nil, err
	}
	r.open.Add(1)
	return &recordingReader{rc: rc, r: r, q: Question{OpRead, p}}, nil
}

// recordingReader keeps what is read through it, for its digest.
type recordingReader struct {
	rc     io.ReadCloser
	buf    bytes.Buffer
	r      *Recorder
	q      Question
	err    error
	closed bool
}

func (rr *recordingReader) Read(p []byte) (int, error) {
	n, err := rr.rc.Read(p)
	rr.buf.Write(p[:n])
	if err != nil && err != io.EOF && rr.err == nil {
		rr.err = err
	}
	return n, err
}

func (rr *recordingReader) Close() error {
	if rr.closed {
		return rr.rc.Close()
	}
	rr.closed = true
	if rr.err == nil {
		if _, err := io.Copy(&rr.buf, rr.rc); err != nil {
			rr.err = err
		}
	}
	var d Digest
	why := ""
	if rr.err != nil {
		why = "read error " + rr.err.Error()
	} else {
		d, _ = rr.r.format.contentDigest(rr.buf.Bytes(), nil)
	}
	rr.buf = bytes.Buffer{}
	rr.r.note(rr.q, d, why)
	rr.r.open.Add(-1)
	return rr.rc.Close()
}

// List implements Source. A listing the wrapped source stamps
// (ListStampedDir) is recorded as its stamp: asking SameList again costs
// a stat per directory, listing again reads them all.
func (r *Recorder) List(dir string) ([]string, error) {
	if sl, ok := r.src.(interface {
		ListStampedDir(dir string) ([]string, []byte, error)
	}); ok {
		paths, stamp, err := sl.ListStampedDir(dir)
		if err == nil && stamp != nil {
			r.note(Question{OpSameList, string(stamp)}, boolDigest(true), "")
			return paths, nil
		}
		d, why := listDigest(paths, err)
		r.note(Question{OpList, dir}, d, why)
		return paths, err
	}
	paths, err := r.src.List(dir)
	d, why := listDigest(paths, err)
	r.note(Question{OpList, dir}, d, why)
	return paths, err
}

// ContentID implements Identifier (no name when the wrapped source is not
// one).
func (r *Recorder) ContentID(p string) (string, bool) {
	ider, ok := r.src.(Identifier)
	if !ok {
		return "", false
	}
	id, ok := ider.ContentID(p)
	sh := r.shard(p)
	sh.mu.Lock()
	rec := sh.record(p)
	if rec.idSeen && rec.id == id && rec.idOK == ok {
		sh.mu.Unlock()
		return id, ok // asked again: recorded
	}
	first := !rec.idSeen
	if first {
		rec.idSeen, rec.id, rec.idOK = true, id, ok
		if blob := strings.TrimPrefix(id, "blob:"); ok && r.format.isBlobHex(blob) {
			rec.blob, rec.hasBlob = blobDigest(blob), true
		}
	}
	sh.mu.Unlock()
	r.note(Question{OpContentID, p}, idDigest(id, ok), "")
	return id, ok
}

// BlobID passes BlobID on to the wrapped source when it has it (see
// BlobNamer). It is not recorded: a blob it names only spares reading it
// again, and no answer depends on it.
func (r *Recorder) BlobID(p string) (string, bool) {
	if bn, ok := r.src.(BlobNamer); ok {
		return bn.BlobID(p)
	}
	return "", false
}

// Untracked implements Untracker (false when the wrapped source is not
// one).
func (r *Recorder) Untracked(p string) bool {
	u, ok := r.src.(Untracker)
	if !ok {
		return false
	}
	yes := u.Untracked(p)
	r.note(Question{OpUntracked, p}, boolDigest(yes), "")
	return yes
}

// stampedLister is the working tree's listing with a stamp
// (internal/gitrepo).
type stampedLister interface {
	ListStamped() ([]string, []byte, error)
	SameList(stamp []byte) bool
}

// ListStamped is List("") with a stamp, when the wrapped source stamps
// its listings (no stamp otherwise).
func (r *Recorder) ListStamped() ([]string, []byte, error) {
	sl, ok := r.src.(stampedLister)
	if !ok {
		paths, err := r.List("")
		return paths, nil, err
	}
	paths, stamp, err := sl.ListStamped()
	if err == nil && stamp != nil {
		// the stamp vouches for the list: asking SameList again costs a
		// stat per directory, listing again reads them all
		r.note(Question{OpSameList, string(stamp)}, boolDigest(true), "")
		return paths, stamp, nil
	}
	d, why := listDigest(paths, err)
	r.note(Question{OpListStamped, ""}, d, why)
	return paths, stamp, err
}

// SameList reports what the wrapped source's SameList does (false when
// it has none).
func (r *Recorder) SameList(stamp []byte) bool {
	sl, ok := r.src.(stampedLister)
	if !ok {
		return false
	}
	yes := sl.SameList(stamp)
	r.note(Question{OpSameList, string(stamp)}, boolDigest(yes), "")
	return yes
}

// Answer asks src question q again and returns the digest of its answer,
// and whether the answer can be compared at all.
func Answer(src Source, q Question, f BlobFormat) (Digest, bool) {
	var d Digest
	var why string
	switch q.Op {
	case OpStat:
		d, why = statDigest(src.Stat(q.Arg))
	case OpRead:
		// a name the source vouches for is the content, unread
		if ider, ok := src.(Identifier); ok {
			if id, ok := ider.ContentID(q.Arg); ok && f.isBlobHex(strings.TrimPrefix(id, "blob:")) {
				return blobDigest(strings.TrimPrefix(id, "blob:")), true
			}
		}
		d, why = f.contentDigest(src.ReadFile(q.Arg))
	case OpList:
		d, why = listDigest(src.List(q.Arg))
	case OpContentID:
		ider, ok := src.(Identifier)
		if !ok {
			return d, false
		}
		d = idDigest(ider.ContentID(q.Arg))
	case OpUntracked:
		u, ok := src.(Untracker)
		if !ok {
			return d, false
		}
		d = boolDigest(u.Untracked(q.Arg))
	case OpListStamped:
		sl, ok := src.(stampedLister)
		if !ok {
			return d, false
		}
		paths, _, err := sl.ListStamped()
		d, why = listDigest(paths, err)
	case OpSameList:
		sl, ok := src.(stampedLister)
		if !ok {
			return d, false
		}
		d = boolDigest(sl.SameList([]byte(q.Arg)))
	default:
		return d, false
	}
	return d, why == ""
}

// errClass names an error by the sentinel it is, "" for none; why is set
// for an error no sentinel names, or one that says nothing lasting about
// the content (ErrUnavailable).
func errClass(err error) (class, why string) {
	if err == nil {
		return "", ""
	}
	for _, s := range []struct {
		err  error
		name string
	}{
		{ErrOutside, "outside"},
		{ErrNotExist, "not-exist"},
		{ErrNotRegular, "not-regular"},
		{ErrIsDir, "is-dir"},
		{ErrSymlinkLoop, "loop"},
		{ErrIgnored, "ignored"},
	} {
		if errors.Is(err, s.err) {
			return s.name, ""
		}
	}
	if errors.Is(err, ErrUnavailable) {
		return "unavailable", "content not available"
	}
	return "other", "error " + err.Error()
}

func digestOf(parts ...[]byte) Digest {
	var buf [256]byte
	b := buf[:0]
	for _, p := range parts {
		b = binary.AppendUvarint(b, uint64(len(p)))
		b = append(b, p...)
	}
	sum := sha256.Sum256(b)
	var d Digest
	copy(d[:], sum[:])
	return d
}

func statDigest(e Entry, err error) (Digest, string) {
	class, why := errClass(err)
	if err != nil {
		return digestOf([]byte("stat-error"), []byte(class)), why
	}
	return digestOf([]byte("stat"), strconv.AppendInt(nil, int64(e.Kind), 10), strconv.AppendInt(nil, e.Size, 10)), ""
}

// contentDigest is the digest of a file's content: of its git blob id in
// the format, so that a source that names the content (Identifier) can
// answer again without reading it.
func (f BlobFormat) contentDigest(data []byte, err error) (Digest, string) {
	class, why := errClass(err)
	if err != nil {
		return digestOf([]byte("read-error"), []byte(class)), why
	}
	h := sha1.New()
	if f == SHA256 {
		h = sha256.New()
	}
	h.Write(fmt.Appendf(nil, "blob %d\x00", len(data)))
	h.Write(data)
	return blobDigest(hex.EncodeToString(h.Sum(nil))), ""
}

// blobDigest is the digest of content named by its blob id.
func blobDigest(id string) Digest { return digestOf([]byte("content"), []byte(id)) }

func listDigest(paths []string, err error) (Digest, string) {
	class, why := errClass(err)
	if err != nil {
		return digestOf([]byte("list-error"), []byte(class)), why
	}
	h := sha256.New()
	for _, p := range paths {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return digestOf([]byte("list"), strconv.AppendInt(nil, int64(len(paths)), 10), h.Sum(nil)), ""
}

func idDigest(id string, ok bool) Digest {
	if !ok {
		return digestOf([]byte("no-id"))
	}
	return digestOf([]byte("id"), []byte(id))
}

var yesDigest, noDigest = digestOf([]byte("yes")), digestOf([]byte("no"))

func boolDigest(b bool) Digest {
	if b {
		return yesDigest
	}
	return noDigest
}
