package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/git-memcite/git-memcite/internal/source"
	"github.com/git-memcite/git-memcite/internal/trace"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/workers"
)

// RunOptions name a whole run of a command for its memo (RunMemo):
// everything the command's output depends on that the workspace does not
// hold.
type RunOptions struct {
	Tool  string   // the build (vcache.Tool)
	Args  []string // the command line, without the program's name
	Env   []string // the environment (os.Environ())
	Style string   // how the output is styled (colour or not, per stream)
}

// RunMemo keeps what a whole run printed, under what it read
// (docs/cache.md, "Whole runs"): the key is everything the run depends on
// but the content it checks (the build, the command line, the
// environment, the current directory, the configuration, git's
// configuration, HEAD and the commit checked); the answers are every
// question the run asked of the content (through a source.Recorder) and
// of git's status. A run with the same key whose questions all get the
// same answers again prints what the kept run printed.
type RunMemo struct {
	ws   *Workspace
	key  [32]byte
	dir  string
	tmp  string
	tool string
	rec  *source.Recorder

	prepared chan struct{} // closed once start is encoded (Prepare)
	start    []byte        // the start of the run file (vcache.EncodeRunAnswers); nil: not kept
	notes    int           // the recorder's notes when start was encoded
	head     string        // HEAD when the key was made
	hint     int           // how many questions the kept run asked (Replay)
}

// opChanged is the question of git status's changed paths
// (gitrepo.Repo.ChangedOnce), asked by line identity; its argument is the
// extra paths asked for, NUL-separated.
const opChanged byte = 'C'

// volatileEnv are environment variables that change between runs of one
// command line without changing what it does.
var volatileEnv = map[string]bool{"_": true, "SHLVL": true, "OLDPWD": true, "MEMCITE_DEBUG": true, "MEMCITE_CPUPROF": true}

// NewRunMemo returns the memo of a whole run of a command in ws, or nil
// when its runs are not kept: no repository, the cache off, or a
// repository state the key cannot name.
func NewRunMemo(ctx context.Context, ws *Workspace, o RunOptions) *RunMemo {
	if ws.Repo == nil || ws.cache == nil || ws.cache.Disabled() || ws.Store != nil {
		return nil
	}
	if _, ok := ws.Src.(*source.Recorder); ok {
		return nil
	}
	// every part of the key, length-prefixed (vcache.KeyOf)
	var parts []string
	put := func(p ...string) { parts = append(parts, p...) }
	put("memcite-run-1", o.Tool, o.Style, ws.Top, ws.CwdRel, ws.Src.Name(), ws.Rev, strconv.FormatBool(ws.Staged))
	put(strconv.Itoa(len(o.Args)))
	put(o.Args...)
	env := slices.Clone(o.Env)
	sort.Strings(env)
	for _, kv := range env {
		if name, _, _ := strings.Cut(kv, "="); !volatileEnv[name] {
			put(kv)
		}
	}
	put("settings")
	names := make([]string, 0, len(ws.Cfg.Values))
	for k := range ws.Cfg.Values {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v := ws.Cfg.Values[k]
		put(k, v.Origin, strconv.Itoa(len(v.Values)))
		put(v.Values...)
	}
	for _, sv := range ws.Cfg.Severities {
		put(sv.Rule, strconv.Itoa(int(sv.Level)), sv.Origin)
	}
	// git's configuration: git's answers (logs, renames, status) follow it
	all, err := ws.Repo.Config(ctx)
	if err != nil {
		trace.Printf("run memo: git config: %v: not kept", err)
		return nil
	}
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	put("git config")
	for _, k := range keys {
		put(k, strconv.Itoa(len(all[k])))
		put(all[k]...)
	}
	// the history: HEAD, and what changes what git shows of it
	head, born, err := ws.Repo.Head()
	if err != nil {
		trace.Printf("run memo: HEAD: %v: not kept", err)
		return nil
	}
	put("head", strconv.FormatBool(born), head.String())
	if ws.Rev != "" {
		c, err := ws.Repo.ResolveCommit(ctx, ws.Rev)
		if err != nil {
			return nil
		}
		put("rev", c.String())
	}
	for _, p := range []string{
		filepath.Join(ws.Repo.CommonDir, "shallow"),
		filepath.Join(ws.Repo.CommonDir, "info", "grafts"),
		filepath.Join(ws.Repo.CommonDir, "refs", "replace"),
		filepath.Join(ws.Repo.CommonDir, "objects", "info", "alternates"),
	} {
		put(p, statKey(p))
	}
	return &RunMemo{ws: ws, key: vcache.KeyOf("run", parts...), dir: vcache.Dir(ws.Repo.GitDir), tmp: ws.Repo.TempDir(), tool: o.Tool, head: head.String()}
}

// statKey is the stat data of p that tells a change of it, "" when there
// is nothing at p.
func statKey(p string) string {
	fi, err := os.Lstat(p)
	if err != nil {
		return ""
	}
	return strconv.FormatInt(fi.Size(), 10) + " " + strconv.FormatInt(fi.ModTime().UnixNano(), 10) + " " + fi.Mode().String()
}

// Replay returns the kept run whose answers still hold, or nil. It asks
// the questions of the kept run again, on both processors.
func (m *RunMemo) Replay(ctx context.Context) *vcache.Run {
	if m == nil {
		return nil
	}
	run := vcache.ReadRun(m.dir, m.tool, m.key)
	if run == nil {
		trace.Printf("run memo: no run kept for this key")
		return nil
	}
	m.hint = len(run.Answers)
	// first what a user's edit most likely changed, one at a time: the
	// files read (modified or untracked when the run was kept), the
	// listings, the stats; then the names of content (most questions:
	// one lstat each) on both processors
	var names []int
	for i := range run.Answers {
		a := &run.Answers[i]
		if a.Op == source.OpContentID || a.Op == source.OpUntracked {
			names = append(names, i)
			continue
		}
		if d, ok := m.answer(ctx, a.Op, a.Arg); !ok || d != a.Digest {
			trace.Printf("run memo: the answer to %c %q differs: run again", a.Op, a.Arg)
			return nil
		}
	}
	var differ atomic.Int64
	differ.Store(-1)
	workers.Ranges(len(names), func(lo, hi int) {
		for _, i := range names[lo:hi] {
			if differ.Load() >= 0 {
				return
			}
			a := &run.Answers[i]
			d, ok := m.answer(ctx, a.Op, a.Arg)
			if !ok || d != a.Digest {
				differ.CompareAndSwap(-1, int64(i))
				return
			}
		}
	})
	if i := differ.Load(); i >= 0 {
		a := run.Answers[i]
		trace.Printf("run memo: the answer to %c %q differs: run again", a.Op, a.Arg)
		return nil
	}
	trace.Printf("run memo: %d answers hold: the kept run's output", len(run.Answers))
	return run
}

// answer asks a question of a kept run again.
func (m *RunMemo) answer(ctx context.Context, op byte, arg string) (source.Digest, bool) {
	if op == opChanged {
		var extra map[string]bool
		if arg != "" {
			extra = map[string]bool{}
			for _, p := range strings.Split(arg, "\x00") {
				extra[p] = true
			}
		}
		changed, err := m.ws.Repo.ChangedOnce(ctx, extra)()
		if err != nil {
			return source.Digest{}, false
		}
		return changedDigest(changed), true
	}
	return source.Answer(m.ws.Src, source.Question{Op: op, Arg: arg}, m.blobFormat())
}

// blobFormat is the object format content is kept by: the repository's.
func (m *RunMemo) blobFormat() source.BlobFormat {
	if m.ws.Repo != nil && m.ws.Repo.ObjectFormat == "sha256" {
		return source.SHA256
	}
	return source.SHA1
}

// Record makes the workspace's source keep every question the run asks
// of it, for Save.
func (m *RunMemo) Record() {
	if m == nil {
		return
	}
	m.rec = source.NewRecorder(m.ws.Src, m.hint, m.blobFormat())
	m.ws.Src = m.rec
}

// Prepare starts encoding the questions the run asked, while it prints
// (Save waits for it); the run has asked them all.
func (m *RunMemo) Prepare() {
	if m == nil || m.rec == nil || m.prepared != nil {
		return
	}
	done := make(chan struct{})
	m.prepared = done
	go func() {
		defer close(done)
		m.start, m.notes = m.encode()
	}()
}

// encode encodes the start of the run file: the questions the run asked
// with their answers, unless one cannot be asked again ("" why
// otherwise), and how many questions that was.
func (m *RunMemo) encode() ([]byte, int) {
	n := m.rec.Notes()
	if ok, why := m.rec.Usable(); !ok {
		trace.Printf("run memo: not kept: %s", why)
		return nil, n
	}
	qs, ds := m.rec.Answers()
	answers := make([]vcache.RunAnswer, len(qs))
	ops := map[byte]int{}
	for i, q := range qs {
		answers[i] = vcache.RunAnswer{Op: q.Op, Arg: q.Arg, Digest: ds[i]}
		ops[q.Op]++
	}
	var counts []string
	for _, op := range []byte{source.OpContentID, source.OpRead, source.OpStat, source.OpList, source.OpUntracked, source.OpListStamped, source.OpSameList, opChanged} {
		if ops[op] > 0 {
			counts = append(counts, fmt.Sprintf("%c %d", op, ops[op]))
		}
	}
	trace.Printf("run memo: %d answers (%s)", len(qs), strings.Join(counts, ", "))
	return vcache.EncodeRunAnswers(m.tool, m.key, answers), n
}

// Save keeps what the run printed and its outcome under the questions it
// asked, unless one of them cannot be asked again.
func (m *RunMemo) Save(stdout, stderr []byte, outcome byte) {
	if m == nil || m.rec == nil {
		return
	}
	m.Prepare()
	<-m.prepared
	start := m.start
	if m.rec.Notes() != m.notes { // asked more while printing
		start, _ = m.encode()
	}
	if start == nil {
		return
	}
	if head, _, err := m.ws.Repo.Head(); err != nil || head.String() != m.head {
		trace.Printf("run memo: not kept: HEAD moved during the run")
		return
	}
	if err := vcache.WriteRunAnswers(m.dir, m.tmp, start, outcome, stdout, stderr); err != nil {
		trace.Printf("run memo: %v", err)
		return
	}
	trace.Printf("run memo: kept")
}

// recordChanged wraps the changed paths line identity asks git status
// for, so that a recording source keeps the answer.
func recordChanged(src source.Source, extra map[string]bool, changed func() (map[string]bool, error)) func() (map[string]bool, error) {
	rec, ok := src.(*source.Recorder)
	if !ok {
		return changed
	}
	paths := make([]string, 0, len(extra))
	for p := range extra {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	arg := strings.Join(paths, "\x00")
	return func() (map[string]bool, error) {
		ch, err := changed()
		if err != nil {
			rec.Note(opChanged, arg, source.Digest{}, "git status: "+err.Error())
			return ch, err
		}
		rec.Note(opChanged, arg, changedDigest(ch), "")
		return ch, nil
	}
}

// changedDigest is the digest of a set of paths.
func changedDigest(set map[string]bool) source.Digest {
	paths := make([]string, 0, len(set))
	for p := range set {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return source.DigestOfList(paths)
}
