package gitrepo

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/trace"
)

// ErrObjectUnavailable is returned for an object that a partial clone does
// not have and that git could not fetch.
var ErrObjectUnavailable = errors.New("object not available in this partial clone")

// objects is the object database of a repository, read through the
// repository's long-running `git cat-file --batch` processes: git itself
// finds every object, wherever it is stored (loose, packed, borrowed from
// alternates, fetched on demand by a partial clone), in either object
// format. A single read (read) takes an object of the repository's own,
// loose (looseObjects) or packed (packObjects), without git where git
// would read the same bytes.
type objects struct {
	cat *catFile
	// local reads an object from the repository's own loose objects and
	// packs without git, ok false when git must answer (nil: always)
	local func(oid, typ string) (data []byte, ok bool)
	packs *packObjects // the packs local reads (closed with the repository)
}

// Backend returns how the index, refs and revisions are read, and why
// (objects through git cat-file, and a single object of the repository's
// own, loose or packed, in-process where the readers are on).
func (r *Repo) Backend() (Backend, string) {
	if forceGitBinary.Load() {
		return GitBinary, "MEMCITE_BACKEND=git"
	}
	return InProcess, "object format " + r.objectFormat()
}

func (r *Repo) objectFormat() string {
	if r.ObjectFormat == "" {
		return "sha1"
	}
	return r.ObjectFormat
}

// objects opens the object database once. The cat-file process starts
// on first use (warm starts it ahead).
func (r *Repo) objects() (*objects, error) {
	r.once.Do(func() {
		loose := newLooseObjects(r)
		packs := newPackObjects(loose.dir, loose.hexLen, loose.off)
		r.objs = &objects{cat: &catFile{cmd: r.cmd(), gitDir: r.GitDir}, packs: packs,
			local: func(oid, typ string) ([]byte, bool) {
				if data, ok := loose.read(oid, typ); ok {
					return data, true
				}
				return packs.read(oid, typ)
			}}
	})
	return r.objs, r.err
}

// readBlob returns the content of a blob. Any failure wraps
// source.ErrUnavailable: the blob is named by a tree or the index, so the
// object database cannot give what git says is there.
func (o *objects) readBlob(oid string) ([]byte, error) {
	b, err := o.read(oid, "blob")
	if err != nil {
		return nil, fmt.Errorf("%w: %w", source.ErrUnavailable, err)
	}
	return b, nil
}

// read returns the content of the object oid, which must be of type typ.
func (o *objects) read(oid, typ string) ([]byte, error) {
	if o.local != nil {
		if data, ok := o.local(oid, typ); ok {
			return data, nil
		}
	}
	t, data, err := o.cat.object(oid)
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", typ, oid, err)
	}
	if t != typ {
		return nil, fmt.Errorf("read %s %s: a %s, not a %s", typ, oid, t, typ)
	}
	return data, nil
}

// catFile reads objects through long-running `git cat-file --batch`
// processes: one, started on first use, and, once many reads were asked
// for, another one while every running one is busy answering another
// goroutine (the parallel reads of a verification against a commit), up
// to catProcs. It is safe for concurrent use. Any failure of a
// process stops it; the next read starts a new one.
type catFile struct {
	cmd    Cmd
	gitDir string

	closed atomic.Bool // Repo.Close ran: warm starts nothing
	next   atomic.Uint32
	reads  atomic.Int64 // requests so far
	procs  [catProcs]catProc
}

// catProcs bounds the processes: reads wait on the pipe more than they
// compute, so more processes than cores keep both cores busy.
const catProcs = 4

// catProc is one cat-file process; its mutex is held for a whole request.
type catProc struct {
	mu   sync.Mutex
	proc *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
}

// warm starts the first process in the background if it is not running.
// The trace line is written here: the goroutine writes nothing, as the
// run may be printing by then.
func (c *catFile) warm() {
	trace.Printf("start git %s in the background", strings.Join(c.args(), " "))
	go func() {
		p := &c.procs[0]
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.proc == nil && !c.closed.Load() {
			_ = c.startWith(p, c.cmd.spawn) // (a failure shows again at the first read)
		}
	}()
}

func (c *catFile) args() []string { return []string{"--git-dir", c.gitDir, "cat-file", "--batch"} }

func (c *catFile) start(p *catProc) error { return c.startWith(p, c.cmd.start) }

func (c *catFile) startWith(p *catProc, start func(...string) (*exec.Cmd, io.WriteCloser, io.ReadCloser, error)) error {
	proc, in, out, err := start(c.args()...)
	if err != nil {
		return err
	}
	p.proc, p.in, p.out = proc, in, bufio.NewReaderSize(out, 1<<16)
	return nil
}

// take locks the first idle process (started on first use), or, when
// every one is busy, waits for one in turn. Processes are added as reads
// add up (one more for every growEvery reads, up to catProcs): a hook's
// few reads keep to one process, whose start is the hook's to pay.
func (c *catFile) take() *catProc {
	allowed := min(len(c.procs), 1+int(c.reads.Add(1)/growEvery))
	for i := range allowed {
		if p := &c.procs[i]; p.mu.TryLock() {
			return p
		}
	}
	p := &c.procs[int(c.next.Add(1))%allowed]
	p.mu.Lock()
	return p
}

// maxReused bounds the buffer a batch of reads reuses (objects): a larger
// object's is let go.
const maxReused = 4 << 20

// growEvery is how many reads make room for one more process.
const growEvery = 256

// object returns the type and content of an object. git fetches an object
// that a partial clone lacks from its promisor remote; when that fails the
// error is ErrObjectUnavailable (in a partial clone) or
// plumbing.ErrObjectNotFound.
func (c *catFile) object(oid string) (string, []byte, error) {
	p := c.take()
	defer p.mu.Unlock()
	if p.proc == nil {
		if err := c.start(p); err != nil {
			return "", nil, err
		}
	}
	typ, data, err := p.read(oid)
	if err != nil && !errors.Is(err, plumbing.ErrObjectNotFound) {
		p.stop() // out of step: start afresh next time
	}
	if errors.Is(err, plumbing.ErrObjectNotFound) && c.partial() {
		return "", nil, fmt.Errorf("object %s: %w", oid, ErrObjectUnavailable)
	}
	return typ, data, err
}

// objects reads several objects through one process, pipelined: the
// requests are written while the answers are read, so that n objects
// cost about one round trip to git instead of n. f is called with each,
// in order (err: that object's, plumbing.ErrObjectNotFound when git
// does not have it); after a failure of the process itself the rest get
// its error. data is valid only until f returns: the objects are read
// into one buffer, so that a batch allocates once.
func (c *catFile) objects(oids []string, f func(i int, typ string, data []byte, err error)) {
	if len(oids) == 0 {
		return
	}
	p := c.take()
	defer p.mu.Unlock()
	c.reads.Add(int64(len(oids)) - 1) // (take counted one)
	if p.proc == nil {
		if err := c.start(p); err != nil {
			for i := range oids {
				f(i, "", nil, err)
			}
			return
		}
	}
	// git answers in order; it blocks writing answers nobody reads, so
	// the requests go in from another goroutine
	werr := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(p.in, 1<<14)
		for _, oid := range oids {
			if _, err := w.WriteString(oid + "\n"); err != nil {
				werr <- err
				return
			}
		}
		werr <- w.Flush()
	}()
	var failed error
	var buf []byte
	for i, oid := range oids {
		if failed != nil {
			f(i, "", nil, failed)
			continue
		}
		typ, data, err := p.answer(oid, buf)
		if cap(data) <= maxReused {
			buf = data[:0]
		}
		if err != nil && !errors.Is(err, plumbing.ErrObjectNotFound) {
			failed = err
			p.kill() // out of step, answers pending: start afresh next time
		}
		if errors.Is(err, plumbing.ErrObjectNotFound) && c.partial() {
			err = fmt.Errorf("object %s: %w", oid, ErrObjectUnavailable)
		}
		f(i, typ, data, err)
	}
	if err := <-werr; err != nil && failed == nil {
		p.kill()
	}
}

func (c *catProc) read(oid string) (string, []byte, error) {
	if _, err := io.WriteString(c.in, oid+"\n"); err != nil {
		return "", nil, fmt.Errorf("git cat-file: %w", err)
	}
	return c.answer(oid, nil)
}

// answer reads git's answer to a request for oid.
func (c *catProc) answer(oid string, buf []byte) (string, []byte, error) {
	header, err := c.out.ReadString('\n')
	if err != nil {
		return "", nil, fmt.Errorf("git cat-file: %w", err)
	}
	f := strings.Fields(header)
	if len(f) == 2 && f[1] == "missing" {
		return "", nil, plumbing.ErrObjectNotFound
	}
	if len(f) != 3 {
		return "", nil, fmt.Errorf("git cat-file: unexpected header %q", strings.TrimSpace(header))
	}
	n, err := strconv.Atoi(f[2])
	if err != nil || n < 0 {
		return "", nil, fmt.Errorf("git cat-file: bad size in %q", strings.TrimSpace(header))
	}
	if cap(buf) > n {
		buf = buf[:n+1]
	} else {
		buf = make([]byte, n+1)
	}
	if _, err := io.ReadFull(c.out, buf); err != nil {
		return "", nil, fmt.Errorf("git cat-file: %w", err)
	}
	if !bytes.HasSuffix(buf, []byte("\n")) {
		return "", nil, fmt.Errorf("git cat-file: missing terminator")
	}
	return f[1], buf[:n], nil
}

// partial reports whether the repository is a partial clone.
func (c *catFile) partial() bool {
	out, err := Cmd{Dir: c.cmd.Dir}.Run(context.Background(), "--git-dir", c.gitDir, "config", "--get-regexp", `^(extensions\.partialclone|remote\..*\.promisor)$`)
	return err == nil && len(bytes.TrimSpace(out)) > 0
}

// kill stops a process that may have answers nobody will read (it could
// block writing them, and never exit on the end of its input).
func (c *catProc) kill() {
	if c.proc == nil {
		return
	}
	_ = c.proc.Process.Kill()
	c.in.Close()
	_ = c.proc.Wait()
	c.proc, c.in, c.out = nil, nil, nil
}

func (c *catProc) stop() {
	if c.proc == nil {
		return
	}
	c.in.Close()
	_ = c.proc.Wait()
	c.proc, c.in, c.out = nil, nil, nil
}

// Close stops the git processes the repository started.
func (r *Repo) Close() error {
	if r.objs != nil {
		c := r.objs.cat
		c.closed.Store(true)
		for i := range c.procs {
			p := &c.procs[i]
			p.mu.Lock()
			p.stop()
			p.mu.Unlock()
		}
		if r.objs.packs != nil {
			r.objs.packs.close()
		}
	}
	return nil
}
