// Package hookrun decides what a git hook run of git-memcite does: whether
// it is switched off, which policy applies, what state the repository is
// in, and which stale citations block a commit. It returns values; the CLI
// prints them.
package hookrun

import (
	"strings"

	"github.com/git-memcite/git-memcite/internal/config"
)

// Invocation is one hook run: the hook's name and the arguments git passed.
type Invocation struct {
	Hook string
	Args []string
}

// Arg returns the i-th argument, or "".
func (in Invocation) Arg(i int) string {
	if i < len(in.Args) {
		return in.Args[i]
	}
	return ""
}

// Resolve fills in the arguments git would have passed when a framework
// ran the hook without them: the pre-commit framework (and prek) expose
// them as PRE_COMMIT_* variables instead (post-merge: "1" for a squash;
// post-rewrite: "amend" or "rebase").
func Resolve(hook string, args []string, getenv func(string) string) Invocation {
	in := Invocation{Hook: hook, Args: args}
	if len(args) > 0 {
		return in
	}
	switch hook {
	case "post-merge":
		squash := getenv("PRE_COMMIT_IS_SQUASH_MERGE")
		if squash == "" {
			squash = getenv("PRE_COMMIT_SQUASH_MERGE") // prek
		}
		if squash != "" {
			in.Args = []string{squash}
		}
	case "post-rewrite":
		if c := getenv("PRE_COMMIT_REWRITE_COMMAND"); c != "" {
			in.Args = []string{c}
		}
	}
	return in
}

// Context is where a run of a pre-* hook (pre-commit, pre-merge-commit)
// comes from.
type Context int

// Contexts of a pre-* hook run.
const (
	// InCommit: git is making a commit or a merge (it names the index
	// being committed in GIT_INDEX_FILE), or someone ran the hook by hand.
	// The check compares what is being committed with HEAD.
	InCommit Context = iota
	// WholeTree: the pre-commit framework runs the hook outside a commit
	// ('pre-commit run --all-files' in CI, 'pre-commit run [--from-ref
	// --to-ref]', the manual stage): there is no commit to compare with,
	// so every citation is checked against the working tree.
	WholeTree
	// OtherStage: the pre-commit framework runs the hook at a stage that
	// has its own git-memcite hook or needs none (post-merge,
	// post-rewrite, post-checkout; pre-push, whose commits were checked
	// when they were made): nothing to do.
	OtherStage
)

// PreContext tells where a run of a pre-* hook comes from. The pre-commit
// framework sets PRE_COMMIT=1 for every hook it runs and passes git's
// environment through, so a run from git commit or git merge still has
// GIT_INDEX_FILE; a run of 'pre-commit run' has not. The framework
// exposes the arguments of the post-* hooks and of post-checkout as
// PRE_COMMIT_* variables (prek too), which tell those stages apart.
func PreContext(getenv func(string) string) Context {
	if getenv("PRE_COMMIT") != "1" || getenv("GIT_INDEX_FILE") != "" {
		return InCommit
	}
	for _, k := range []string{"PRE_COMMIT_IS_SQUASH_MERGE", "PRE_COMMIT_SQUASH_MERGE", "PRE_COMMIT_REWRITE_COMMAND", "PRE_COMMIT_CHECKOUT_TYPE", "PRE_COMMIT_REMOTE_NAME"} {
		if getenv(k) != "" {
			return OtherStage
		}
	}
	return WholeTree
}

// Skipped reports whether an environment switch turns the hook off, and
// which: MEMCITE=0|false|off, or SKIP (a comma-separated list, the
// pre-commit framework's convention) naming "memcite" or
// "memcite-<hook>".
func Skipped(hook string, getenv func(string) string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(getenv("MEMCITE"))) {
	case "0", "false", "off", "no":
		return "MEMCITE=" + getenv("MEMCITE"), true
	}
	for _, s := range strings.Split(getenv("SKIP"), ",") {
		switch strings.TrimSpace(s) {
		case "memcite", "memcite-" + hook:
			return "SKIP=" + getenv("SKIP"), true
		}
	}
	return "", false
}

// PreCommitPolicy is memcite.preCommit.
type PreCommitPolicy string

// Pre-commit policies.
const (
	Strict PreCommitPolicy = "strict" // block on any stale citation
	Block  PreCommitPolicy = "block"  // block on citations this commit makes stale (default)
	// Fix: as block, but citations whose lines the commit only moved
	// (text unchanged) are rewritten and their memory files added to the
	// commit.
	Fix  PreCommitPolicy = "fix"
	Warn PreCommitPolicy = "warn" // report, never block
	Off  PreCommitPolicy = "off"  // do nothing
)

// PostMergePolicy is memcite.postMerge.
type PostMergePolicy string

// Post-merge policies.
const (
	Suggest    PostMergePolicy = "suggest" // report and suggest fixes (default)
	ApplyFixes PostMergePolicy = "apply"   // also apply safe relocations to the working tree
	PostOff    PostMergePolicy = "off"
)

// Config holds the settings that hooks obey (config.Keys marked Hook:
// git config only).
type Config struct {
	Enabled   bool            // memcite.enabled, default true
	PreCommit PreCommitPolicy // memcite.preCommit, default block
	PostMerge PostMergePolicy // memcite.postMerge, default suggest
	// OnErrorBlock is memcite.onError block: a pre-* hook blocks when
	// git-memcite itself fails (default: warn and let git go on).
	OnErrorBlock bool
	// Warnings lists values that were not understood (the default is used).
	Warnings []string
}

// ConfigFrom reads the hook settings from memcite.* values already read
// from git config (keys in lower case, as git prints them), by the
// configuration model's rules (config.ResolveHooks: the last value of a key
// wins, as in git; a value not understood is a warning and the default).
func ConfigFrom(vals map[string][]string) Config {
	return FromConfig(config.ResolveHooks(func(key string) ([]string, error) {
		return vals[strings.ToLower(key)], nil
	}))
}

// FromConfig picks the hook settings out of a resolved configuration.
func FromConfig(c *config.Config) Config {
	get := func(name, def string) string {
		if v := c.Get(name).First(); v != "" {
			return v
		}
		return def
	}
	return Config{
		Enabled:      get(config.HookEnabled, "true") == "true",
		PreCommit:    PreCommitPolicy(get(config.HookPreCommit, string(Block))),
		PostMerge:    PostMergePolicy(get(config.HookPostMerge, string(Suggest))),
		OnErrorBlock: get(config.HookOnError, "warn") == "block",
		Warnings:     c.Warnings,
	}
}
