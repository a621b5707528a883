// Package gitrepo is git-memcite's one door to git: every git command the
// product runs, and every read of git's objects, goes through it. It finds
// the repository by asking git, resolves revisions exactly as git does,
// reads configuration, offers the index and commits as source.Source views
// and the history of files as a gitblame.History.
//
// History (History: commits, trees, the changes between them with and
// without rename detection, the first-parent chain) is read through the
// git binary in every repository: git cat-file --batch, git diff-tree
// --stdin, git log and git rev-list, each process kept for the run.
//
// The object database has one reader in every repository: the same
// `git cat-file --batch` process, which finds objects wherever git keeps
// them (packs, loose objects, alternates, a partial clone's promisor
// remote) in either object format. The file formats on the hook path are
// read in-process: the index (index.go), refs and simple revisions
// (revparse.go) and configuration (config.go), with git's commands behind
// them for the layouts they do not read; the comparisons of the index
// with a commit's tree walk only the subtrees whose ids differ, reading
// those trees through cat-file. MEMCITE_BACKEND=git, a debugging switch,
// has git's commands answer those too (git ls-files, git rev-parse, git
// diff-index, git ls-tree); MEMCITE_DEBUG and `doctor` name the choice.
// Worktree-only runs never start cat-file.
package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/regfile"
	"github.com/git-memcite/git-memcite/internal/trace"
)

// ErrNotRepo is returned when no git repository contains the directory.
var ErrNotRepo = errors.New("not a git repository (or any of the parent directories)")

// ErrNoWorkTree is returned for a bare repository without a working tree.
var ErrNoWorkTree = errors.New("bare repository without a working tree (set GIT_WORK_TREE or core.worktree)")

// OID is a full hexadecimal object name (40 digits for SHA-1, 64 for
// SHA-256).
type OID string

// String returns the hexadecimal form.
func (o OID) String() string { return string(o) }

// Short returns the first 7 digits.
func (o OID) Short() string {
	if len(o) < 7 {
		return string(o)
	}
	return string(o[:7])
}

// Hash returns o as a gitblame.Hash, and false when o is not a full object
// name (40 or 64 hexadecimal digits).
func (o OID) Hash() (gitblame.Hash, bool) {
	h, err := gitblame.ParseHash(string(o))
	return h, err == nil
}

// forceGitBinary is MEMCITE_BACKEND=git (ForceGitBinary).
var forceGitBinary atomic.Bool

// ForceGitBinary makes every repository read the index, refs and
// revisions, and compare the index with trees, through git's commands
// instead of in-process: the debugging switch MEMCITE_BACKEND=git, which
// main reads (config.Switches).
// It returns a function that restores the previous choice (for tests).
func ForceGitBinary(on bool) (restore func()) {
	old := forceGitBinary.Swap(on)
	return func() { forceGitBinary.Store(old) }
}

// Backend names how the index, refs and revisions are read (objects are
// read through git cat-file with either).
type Backend string

// Backends.
const (
	// InProcess reads the index, refs and simple revisions in-process,
	// with git's commands for what those readers leave to git.
	InProcess Backend = "in-process"
	// GitBinary asks git's commands for all of them.
	GitBinary Backend = "git"
)

// Repo is a git repository with a working tree.
type Repo struct {
	Top          string // working tree root (absolute)
	GitDir       string // this worktree's git dir (absolute)
	CommonDir    string // the shared git dir (absolute)
	Shallow      bool   // a shallow clone
	ObjectFormat string // sha1 or sha256
	RefFormat    string // files, or reftable (git 2.45 and later)

	// plain: found by discoverPlain, a layout whose configuration files
	// are known without asking git (configInProcess)
	plain bool

	once sync.Once
	objs *objects
	err  error

	// commits are the commits the history readers parsed (gitHistory)
	commits commitCache

	// hugePages: the git processes started from now on are asked for
	// huge pages (Cmd.environ), set once the history is read (History)
	hugePages atomic.Bool

	revMu sync.Mutex
	revs  map[string]revResult

	cfgOnce      sync.Once
	cfg          map[string][]string
	cfgErr       error
	cfgInProcess bool // read without git (configInProcess)

	subMu sync.Mutex
	subs  map[string]*Repo // submodule repositories by path; nil: not checked out

	// the working tree's index as last read (readWorktreeIndex), shared
	// by every working-tree source of the run while the file is unchanged
	wtMu    sync.Mutex
	wtIndex *worktreeIndex
	wtStat  os.FileInfo

	// the changed files of every commit of a head's whole first-parent
	// chain, from the log of renames and deletions (MovesSince): the
	// Touching of every history of the run answers from it
	touchMu sync.Mutex
	touched *touchLog
	chain   []gitblame.Hash // and the chain, newest first (Chain)
	// that log by path (History.EntryAt, FilesAtEach), for every history of
	// the run
	paths atomic.Pointer[pathIndex]
}

type revResult struct {
	oid       OID
	err       error
	inProcess bool // answered without starting git
}

// Discover finds the repository containing dir by asking git, so that
// everything git honours decides: GIT_DIR, GIT_WORK_TREE, GIT_COMMON_DIR,
// core.worktree, gitfiles of linked worktrees and submodules,
// safe.directory. A repository git refuses (for example for its owner) is
// git's error, with git's advice.
func Discover(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if r := discoverPlain(abs); r != nil {
		return r, nil
	}
	out, err := Git(context.Background(), abs, "rev-parse", "--path-format=absolute",
		"--git-dir", "--git-common-dir", "--is-bare-repository", "--is-shallow-repository",
		"--show-object-format", "--show-ref-format", "--show-toplevel")
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return discoverWithoutGit(abs)
		}
		var ge *Error
		if errors.As(err, &ge) && strings.Contains(ge.Stderr, "not a git repository") {
			return nil, fmt.Errorf("%s: %w", abs, ErrNotRepo)
		}
		if errors.As(err, &ge) && strings.Contains(ge.Stderr, "must be run in a work tree") {
			return nil, fmt.Errorf("%s: %w", abs, ErrNoWorkTree)
		}
		return nil, fmt.Errorf("open repository %s: %w", abs, err)
	}
	f := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(f) != 7 {
		return nil, fmt.Errorf("open repository %s: unexpected answer from git rev-parse: %q", abs, out)
	}
	r := &Repo{
		GitDir:       absFrom(f[0], abs),
		CommonDir:    absFrom(f[1], abs),
		Shallow:      f[3] == "true",
		ObjectFormat: f[4],
		RefFormat:    f[5],
		Top:          absFrom(f[6], abs),
	}
	if r.RefFormat == "--show-ref-format" { // git before 2.45 knows one format
		r.RefFormat = "files"
	}
	trace.Printf("repository %s (git dir %s, common dir %s, objects %s, refs %s, shallow %v)",
		r.Top, r.GitDir, r.CommonDir, r.ObjectFormat, r.RefFormat, r.Shallow)
	return r, nil
}

// layoutEnv are the environment variables that change where git finds a
// repository or how it trusts it: with any of them set, git is asked
// (but for GIT_CONFIG_PARAMETERS where cmdlineConfig reads it:
// layoutEnvSet).
var layoutEnv = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES",
	"GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG",
	"GIT_TEST_ASSUME_DIFFERENT_OWNER", "GIT_NAMESPACE"}

// layoutEnvSet names the first variable of layoutEnv that is set, or
// returns "" and the command line's configuration. GIT_CONFIG_PARAMETERS
// does not count where cmdlineConfig reads it (configuration that changes
// neither the layout nor what is trusted or included, which
// configInProcess adds to what it reads).
func layoutEnvSet() (set string, params []configParam) {
	for _, v := range layoutEnv {
		if os.Getenv(v) == "" {
			continue
		}
		if v == "GIT_CONFIG_PARAMETERS" {
			var ok bool
			if params, ok = cmdlineConfig(); ok {
				continue
			}
		}
		return v, nil
	}
	return "", params
}

// discoverPlain recognises, without starting git, the one layout whose
// answer is certain: a working tree with a .git directory above dir, owned
// by this user, whose config names no worktree, no include, no bare
// repository and no object or ref format extension, with no layout
// variable in the environment (layoutEnvSet). It returns nil for anything
// else, and the caller asks git. (A commit hook runs in such a repository
// nearly always; starting git costs it a few milliseconds.)
func discoverPlain(abs string) *Repo {
	if set, _ := layoutEnvSet(); set != "" {
		return nil
	}
	if strings.Contains(filepath.ToSlash(abs)+"/", "/.git/") {
		return nil // inside a git directory: not a working tree
	}
	for d := abs; ; {
		gd := filepath.Join(d, ".git")
		fi, err := os.Lstat(gd)
		if err == nil {
			if !fi.IsDir() || !ownedByUs(fi) {
				return nil // a gitfile (worktree, submodule) or another owner
			}
			if _, err := os.Lstat(filepath.Join(gd, "commondir")); err == nil {
				return nil
			}
			cfg, err := regfile.ReadFile(filepath.Join(gd, "config"))
			if err != nil {
				return nil
			}
			low := strings.ToLower(string(cfg))
			for _, k := range []string{"worktree", "include", "bare = true", "bare=true", "objectformat", "refstorage"} {
				if strings.Contains(low, k) {
					return nil
				}
			}
			_, shallow := os.Lstat(filepath.Join(gd, "shallow"))
			r := &Repo{Top: d, GitDir: gd, CommonDir: gd, Shallow: shallow == nil, ObjectFormat: "sha1", RefFormat: "files", plain: true}
			trace.Printf("repository %s (plain layout, found without git)", d)
			return r
		}
		parent := filepath.Dir(d)
		if parent == d {
			return nil
		}
		d = parent
	}
}

// discoverWithoutGit finds the repository without a git binary (working
// tree checks still work): the nearest parent with a .git directory or
// gitfile.
func discoverWithoutGit(abs string) (*Repo, error) {
	for d := abs; ; {
		p := filepath.Join(d, ".git")
		if fi, err := os.Stat(p); err == nil {
			gd := p
			if !fi.IsDir() {
				if gd, err = readGitfile(p); err != nil {
					return nil, err
				}
			}
			r := &Repo{Top: d, GitDir: gd, CommonDir: gd, ObjectFormat: "sha1", RefFormat: "files"}
			if b, err := regfile.ReadFile(filepath.Join(gd, "commondir")); err == nil {
				r.CommonDir = absFrom(strings.TrimSpace(string(b)), gd)
			}
			return r, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return nil, fmt.Errorf("%s: %w", abs, ErrNotRepo)
		}
		d = parent
	}
}

func absFrom(p, base string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

func readGitfile(p string) (string, error) {
	b, err := regfile.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", p, err)
	}
	line := strings.TrimSpace(string(b))
	rest, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s: not a gitfile", p)
	}
	return absFrom(strings.TrimSpace(rest), filepath.Dir(p)), nil
}

// cmd describes a git command run in the working tree.
func (r *Repo) cmd() Cmd { return Cmd{Dir: r.Top, hugePages: &r.hugePages} }

// Run runs git in the top directory with the inherited environment
// (GIT_DIR, GIT_INDEX_FILE …) plus GIT_OPTIONAL_LOCKS=0, and returns stdout.
// A failure is an *Error.
func (r *Repo) Run(ctx context.Context, args ...string) (string, error) {
	out, err := r.cmd().Run(ctx, args...)
	return string(out), err
}

// ConfigAll returns every value of a git config key, with git's own rules
// (-c, includes, worktree config). A missing key is no values, no error.
func (r *Repo) ConfigAll(ctx context.Context, key string) ([]string, error) {
	out, err := r.Run(ctx, "config", "--get-all", key)
	if err != nil {
		if ExitCode(err) == 1 { // the key is not set
			return nil, nil
		}
		return nil, err
	}
	return strings.Split(strings.TrimRight(out, "\n"), "\n"), nil
}

// ConfigScoped returns the value git gives a key of its own (the last
// one) in the repository at dir, and the scope it comes from ("local",
// "global", "system", "worktree", "command"); an error when it is not set.
// Git's --show-scope needs git 2.26.
func ConfigScoped(ctx context.Context, dir, key string) (value, scope string, err error) {
	out, err := Git(ctx, dir, "-C", dir, "config", "--show-scope", "--get", key)
	if err != nil {
		return "", "", err
	}
	scope, value, _ = strings.Cut(strings.TrimRight(out, "\n"), "\t")
	return value, scope, nil
}

// Config returns git's memcite.* and core.* configuration (git's rules:
// -c, includes, worktree config), keyed by lower-case name, read once per
// run: in-process where the answer is certain (configInProcess: the plain
// layout, no configuration in the environment, files git would read
// without complaint and that include nothing), else with one git process,
// whose answer, or error, is then the user's.
func (r *Repo) Config(ctx context.Context) (map[string][]string, error) {
	r.cfgOnce.Do(func() {
		cfg, files, declined := r.configInProcess()
		if declined == "" {
			r.cfg, r.cfgInProcess = cfg, true
			trace.Printf("config read in-process from %s", strings.Join(files, ", "))
			return
		}
		trace.Printf("config read by git: %s", declined)
		r.cfg = map[string][]string{}
		out, err := r.Run(ctx, "config", "--null", "--get-regexp", `^(memcite|core)\.`)
		if err != nil {
			if ExitCode(err) != 1 { // 1: no such keys
				r.cfgErr = err
			}
			return
		}
		for _, e := range strings.Split(out, "\x00") {
			if e == "" {
				continue
			}
			k, v, _ := strings.Cut(e, "\n")
			k = strings.ToLower(k)
			r.cfg[k] = append(r.cfg[k], v)
		}
	})
	return r.cfg, r.cfgErr
}

// ResolveCommit resolves a revision to the commit it names, exactly as
// git does (`git rev-parse --verify --end-of-options REV^{commit}`): every
// syntax git accepts works (HEAD@{1}, @{u}, :/message, annotated tags), and
// what git refuses (an ambiguous short name, a tree or blob, an empty or
// missing revision) is an error naming the revision. HEAD and ref names
// with ~N and ^N steps are read in-process where the answer is certain
// (resolveInProcess), which saves a git process for nearly every call.
// Answers are cached for the run.
func (r *Repo) ResolveCommit(ctx context.Context, rev string) (OID, error) {
	r.revMu.Lock()
	defer r.revMu.Unlock()
	if res, ok := r.revs[rev]; ok {
		return res.oid, res.err
	}
	oid, inProcess := r.resolveInProcess(rev)
	var err error
	if inProcess {
		trace.Printf("revision %q is %s (refs and objects read in-process)", rev, oid)
	} else {
		oid, err = r.resolve(ctx, rev)
	}
	if r.revs == nil {
		r.revs = map[string]revResult{}
	}
	r.revs[rev] = revResult{oid, err, inProcess}
	return oid, err
}

func (r *Repo) resolve(ctx context.Context, rev string) (OID, error) {
	if rev == "" {
		return "", errors.New("empty revision")
	}
	// a full object name of a commit names that commit, for git too: no
	// process to start
	if objs, err := r.objects(); err == nil && !forceGitBinary.Load() && (len(rev) == 40 || len(rev) == 64) && isHex(rev) {
		if t, _, err := objs.cat.object(strings.ToLower(rev)); err == nil && t == "commit" {
			return OID(strings.ToLower(rev)), nil
		}
	}
	out, err := r.Run(ctx, "rev-parse", "--verify", "--end-of-options", peelCommit(rev))
	if err != nil {
		var ge *Error
		if errors.As(err, &ge) && ge.ExitCode > 0 {
			return "", revisionError(rev, ge.Stderr)
		}
		return "", fmt.Errorf("revision %q: %w", rev, err)
	}
	oid := OID(strings.TrimSpace(out))
	trace.Printf("revision %q is %s", rev, oid)
	return oid, nil
}

// Head returns the commit HEAD points at, and false on an unborn branch.
// HEAD is read in-process (headInProcess) where the refs are files, else
// asked of git.
func (r *Repo) Head() (OID, bool, error) {
	if oid, born, ok := r.headInProcess(); ok {
		return oid, born, nil
	}
	out, err := r.Run(context.Background(), "rev-parse", "--verify", "--quiet", "--end-of-options", "HEAD^{commit}")
	if err != nil {
		if ExitCode(err) == 1 {
			return "", false, nil // unborn branch
		}
		return "", false, fmt.Errorf("read HEAD: %w", err)
	}
	return OID(strings.TrimSpace(out)), true, nil
}

// headInProcess reads HEAD from the files git keeps it in: this
// worktree's HEAD, naming an object or a branch, which is looked up in
// the common git dir (loose, then packed). ok is false wherever git must
// answer (another ref format, a symbolic ref to anything but a branch,
// MEMCITE_BACKEND=git); born is false for a branch with no commit yet.
// Like go-git's reference resolution it does not check that the object
// is a commit: the first read of it does.
func (r *Repo) headInProcess() (oid OID, born, ok bool) {
	if forceGitBinary.Load() || (r.RefFormat != "" && r.RefFormat != "files") || r.GitDir == "" || r.CommonDir == "" {
		return "", false, false
	}
	wt := &refFiles{dir: r.GitDir}
	target, h, ok, exists := wt.read("HEAD")
	switch {
	case !ok || !exists:
		return "", false, false
	case target == "":
		return OID(h.String()), true, true
	case !strings.HasPrefix(target, "refs/heads/") || !validRefName(target):
		return "", false, false
	}
	refs, ok := readRefFiles(r.CommonDir)
	if !ok {
		return "", false, false
	}
	h, ok, exists = refs.resolve(target)
	switch {
	case !ok:
		return "", false, false
	case !exists:
		return "", false, true // an unborn branch
	}
	return OID(h.String()), true, true
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// revisionError turns what git rev-parse --verify said about a revision
// it refused into an error naming the revision.
func revisionError(rev, stderr string) error {
	var why []string
	for _, l := range strings.Split(stderr, "\n") {
		l = strings.TrimSpace(l)
		if msg, ok := strings.CutPrefix(l, "error: "); ok {
			why = append(why, msg)
		} else if msg, ok := strings.CutPrefix(l, "fatal: "); ok && msg != "Needed a single revision" {
			why = append(why, msg)
		}
	}
	if len(why) == 0 {
		return fmt.Errorf("unknown revision %q (not a commit in this repository)", rev)
	}
	return fmt.Errorf("revision %q refused by git: %s", rev, strings.Join(why, "; "))
}

// peelCommit asks git for the commit rev names: rev^{commit}, except for
// the :/message form, whose regular expression runs to the end (it names a
// commit already).
func peelCommit(rev string) string {
	if strings.HasPrefix(rev, ":/") {
		return rev
	}
	return rev + "^{commit}"
}
