// Package source defines the view of repository content that verification
// and relocation read from: the working tree, the git index (what is being
// committed) or a commit. Every implementation confines reads to the
// repository: paths are repo-relative, slash-separated, and any path that
// would leave the repository (through "..", an absolute form or a symlink)
// fails with ErrOutside.
package source

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"runtime"
	"strings"
)

// Sentinel errors returned by Source implementations. Callers compare with
// errors.Is.
var (
	// ErrOutside: the path resolves outside the repository (or into .git).
	ErrOutside = errors.New("path leaves the repository")
	// ErrNotExist: nothing at that path.
	ErrNotExist = fs.ErrNotExist
	// ErrNotRegular: the path exists but is not a regular file (FIFO,
	// device, socket, submodule).
	ErrNotRegular = errors.New("not a regular file")
	// ErrIsDir: the path is a directory.
	ErrIsDir = errors.New("is a directory")
	// ErrSymlinkLoop: symlinks refer to each other without end.
	ErrSymlinkLoop = errors.New("too many levels of symbolic links")
	// ErrUnavailable: the entry exists but its content cannot be had from
	// the repository (an object missing from the object database, or not
	// fetched by a partial clone). It says nothing about the citation: a
	// run that meets it fails instead of calling citations stale.
	ErrUnavailable = errors.New("content not available from the repository")
	// ErrIgnored: the working-tree file is untracked and git's ignore
	// rules exclude it; it is not read (ignored files hold secrets such
	// as .env more often than code).
	ErrIgnored = errors.New("ignored by git")
)

// Untracker is implemented by sources that can tell which paths git does
// not track. The content of an untracked file is not in the repository:
// output meant for shared logs (CI annotations, SARIF) must not echo it.
type Untracker interface {
	Untracked(p string) bool
}

// Identifier is implemented by sources that can name the content of a
// regular file without reading it: the git blob it holds, when the source
// can vouch that reading the path would give exactly that blob's bytes (a
// tracked file of an index or commit; a working-tree file whose index
// stat data says it is unchanged). Equal identifiers mean equal content,
// so a verdict about the content may be remembered under it. ok is false
// whenever the source cannot vouch (symlinks, submodules, untracked or
// modified files, converted content): the caller then reads the file.
type Identifier interface {
	ContentID(p string) (id string, ok bool)
}

// BlobNamer is implemented by sources that can name the git blob a
// regular file was checked out from even where ContentID cannot vouch
// for its bytes: the file holds that blob's words (identifiers), git
// having changed at most its line endings. Nothing but what holds for
// every line ending may be concluded from it.
type BlobNamer interface {
	BlobID(p string) (id string, ok bool)
}

// Kind is what a path names.
type Kind int

// Kinds of entries.
const (
	KindFile Kind = iota + 1
	KindDir
	KindOther // FIFO, device, socket, submodule (gitlink)
)

// Entry describes a path in a Source.
type Entry struct {
	Kind Kind
	Size int64
}

// Source is a read-only view of repository content.
type Source interface {
	// Name describes the source for messages: "working tree", "index",
	// "commit 1a2b3c4".
	Name() string
	// Stat describes the entry at a repo-relative path, following symlinks
	// that stay inside the repository.
	Stat(p string) (Entry, error)
	// ReadFile returns the content of the regular file at p.
	ReadFile(p string) ([]byte, error)
	// Open streams the content of the regular file at p.
	Open(p string) (io.ReadCloser, error)
	// List returns the repo-relative paths of the regular files below dir
	// (recursively; "" or "." for the whole repository), sorted.
	List(dir string) ([]string, error)
}

// Clean validates a repo-relative path as written in a citation and
// returns its canonical slash form. It rejects absolute paths, Windows
// drive and UNC forms, backslashes, NUL bytes, "~" expansion, paths that
// climb out of the repository and paths into the .git directory; those
// return ErrOutside. An empty path returns an error of its own.
func Clean(p string) (string, error) {
	if p == "" {
		return "", ErrEmptyPath
	}
	if strings.ContainsRune(p, 0) || strings.ContainsRune(p, '\\') ||
		strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || driveForm(p) {
		return "", ErrOutside
	}
	c := path.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", ErrOutside
	}
	if c == "." {
		return ".", nil
	}
	for rest := c; ; { // every component, without a slice of them
		part, after, more := strings.Cut(rest, "/")
		if len(part) == 4 && strings.EqualFold(part, ".git") {
			return "", ErrOutside // .git (also a nested repository's) is never citable
		}
		if !more {
			break
		}
		rest = after
	}
	return c, nil
}

// ErrEmptyPath is returned by Clean for an empty path.
var ErrEmptyPath = errors.New("empty path")

// driveForm reports a Windows drive path: "C:", "C:/…", "C:\…"; on
// Windows any colon, since "C:x" is relative to drive C's current
// directory and "a:b" names a stream of file a. Elsewhere "a:b.go" is an
// ordinary file name.
func driveForm(p string) bool {
	if runtime.GOOS == "windows" {
		return strings.ContainsRune(p, ':')
	}
	return len(p) >= 2 && p[1] == ':' && isLetter(p[0]) && (len(p) == 2 || p[2] == '/')
}

func isLetter(b byte) bool { return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') }
