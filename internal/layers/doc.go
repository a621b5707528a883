// Package layers holds no code: its tests enforce the import rules of the
// module's packages, read from `go list -deps -json` (test files excepted),
// that the product matches no error by its text, writes no file from the
// CLI, chooses exit statuses in one place, passes no dependency in a
// context.Context and reads the object database through one reader.
//
// The rules:
//
//  1. One door to git: only internal/gitrepo imports go-git or os/exec.
//  2. Only cmd/git-memcite imports kong: the CLI parses flags, the
//     packages below it take values.
//  3. No package imports cmd/git-memcite, internal/render or
//     internal/app except cmd/git-memcite: domain packages return values
//     and never print, and the application layer sits above them all.
//  4. internal/render does no I/O beyond the io.Writer it is given: it
//     imports neither os, os/exec, net, syscall nor go-git, nor the
//     module's I/O packages (gitrepo, atomicfile, source).
//     It imports domain packages for the results it renders (relocate's
//     items and cite's adoption mentions among them: both plan edits as
//     values and read only through the interfaces they are given); of
//     those, only hookrun, doctor, agenthook and hookinstall (install's
//     plans and status, which doctor's report holds too) still reach git
//     (their result types sit beside the code that runs git), and no new
//     path from render to git may appear.
//  5. Test support (internal/testing/...: gitfixture, benchrepo,
//     relocbench, longtest; and scripts/genrepo: repository builders,
//     benchmarks, the long-test gate) is exempt from rule 1 but never
//     part of the git-memcite binary.
//  6. No product code compares an error's text (err.Error() with ==, or
//     with strings.Contains, HasPrefix, …): errors are matched with
//     errors.Is and errors.As.
//  7. cmd/git-memcite writes no file: memory files, reports and hooks are
//     written by the packages below it (internal/app, hookinstall,
//     agentinstall), which own the lock and the atomic replace. Its code
//     calls none of os.Create, os.WriteFile, os.OpenFile, os.Rename,
//     os.Remove, os.RemoveAll, os.Mkdir, os.MkdirAll, os.Chmod, and no
//     write function of memfile or atomicfile.
//  8. One exit table: no code of the binary but cmd/git-memcite/exit.go
//     chooses a numeric exit status. Commands return an outcome
//     (internal/outcome: stale, refused, needs confirmation, hook
//     blocked, usage, …) and exit.go's table maps it to a number. The
//     check flags os.Exit with a status that is not the result of a call,
//     the integer constants exit.go declares used elsewhere, and an
//     integer literal compared with, assigned to or set as a field named
//     code, exit, status or exitCode.
//  9. One configuration model: settings are resolved by internal/config
//     (config.Keys, every layer that may set each), once per run, and
//     the environment switches (MEMCITE_DEBUG, MEMCITE_CONFIG,
//     MEMCITE_CACHE, MEMCITE_BACKEND) are read once by main
//     (config.ReadSwitches). No other package names a setting's git key,
//     runs git config (internal/gitrepo does, as the door to git) or
//     reads a MEMCITE_ variable with os.Getenv.
//  10. No dependency travels in a context.Context: no product code calls
//     context.WithValue. A context carries cancellation and deadlines;
//     what a function works with (the verification cache, the prose
//     checker, the repositories of a run: app.Session) is a parameter or
//     a field of its options, so that a caller, a test above all, sees
//     what it leaves out.
//  11. One reader of the object database: the binary reads objects only
//     through internal/gitrepo's `git cat-file --batch` process (history
//     through git's own commands too). Of go-git it links only the names
//     of objects and modes (plumbing, plumbing/hash, plumbing/filemode)
//     and readers of file formats (plumbing/format/..., except the object
//     database's own: packfile, idxfile, objfile, commitgraph), never
//     its object storage, object model or repository type.
package layers
