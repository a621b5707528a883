package gitrepo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// Git file modes of tree entries (git's own constants).
const (
	modeDir        = 0o040000
	modeRegular    = 0o100644
	modeExecutable = 0o100755
	modeSymlink    = 0o120000
	modeGitlink    = 0o160000
)

// regularMode reports whether a (canonical) tree entry mode is a regular
// file.
func regularMode(m uint32) bool { return m == modeRegular || m == modeExecutable }

// canonicalMode reads a mode stored in a tree as git does (canon_mode):
// any regular file is 100644 or 100755 by its execute bits (very old git
// wrote 100664), and an unknown type is a gitlink.
func canonicalMode(m uint32) uint32 {
	switch m & 0o170000 {
	case 0o040000:
		return modeDir
	case 0o100000:
		if m&0o111 != 0 {
			return modeExecutable
		}
		return modeRegular
	case 0o120000:
		return modeSymlink
	}
	return modeGitlink
}

// parseCommit reads a commit object as `git cat-file commit` prints it:
// header lines (tree, parent, author, committer, and others git-memcite
// ignores, continued on lines starting with a space), a blank line and the
// message. It follows go-git's decoder (object.Commit.Decode) in what it
// keeps: the first author and committer header count, the name is trimmed
// of spaces, and the subject is the first line of the trimmed message.
func parseCommit(h gitblame.Hash, data []byte) (*gitblame.Commit, error) {
	header, msg, _ := bytes.Cut(data, []byte("\n\n"))
	c := &gitblame.Commit{Hash: h}
	var sawTree, sawAuthor, sawCommitter bool
	for len(header) > 0 {
		var line []byte
		line, header, _ = bytes.Cut(header, []byte("\n"))
		key, val, _ := bytes.Cut(line, []byte(" "))
		switch string(key) {
		case "tree":
			if sawTree {
				continue
			}
			t, err := gitblame.ParseHash(string(val))
			if err != nil {
				return nil, fmt.Errorf("commit %s: tree %q: %w", h.Short(), val, err)
			}
			c.Tree, sawTree = t, true
		case "parent":
			p, err := gitblame.ParseHash(string(val))
			if err != nil {
				return nil, fmt.Errorf("commit %s: parent %q: %w", h.Short(), val, err)
			}
			c.Parents = append(c.Parents, p)
		case "author":
			if !sawAuthor {
				c.Author, c.AuthorEmail, c.AuthorDate = parseSignature(val)
				sawAuthor = true
			}
		case "committer":
			if !sawCommitter {
				_, _, c.CommitDate = parseSignature(val)
				sawCommitter = true
			}
		}
	}
	if !sawTree {
		return nil, fmt.Errorf("commit %s: no tree header", h.Short())
	}
	// the subject alone is copied: a string of the whole message would
	// keep it in memory with the commit
	subject, _, _ := bytes.Cut(bytes.TrimSpace(msg), []byte("\n"))
	c.Subject = string(subject)
	return c, nil
}

// parseSignature reads "Name <email> 1700000000 +0100". A malformed
// identity keeps what could be read (an unreadable time is the zero time).
func parseSignature(b []byte) (name, email string, when time.Time) {
	open := bytes.LastIndexByte(b, '<')
	end := bytes.LastIndexByte(b, '>')
	if open < 0 || end < open {
		return "", "", time.Time{}
	}
	name = string(bytes.Trim(b[:open], " "))
	email = string(b[open+1 : end])
	if end+2 >= len(b) {
		return name, email, time.Time{}
	}
	rest := b[end+2:]
	ts, tz, _ := bytes.Cut(rest, []byte(" "))
	sec, err := strconv.ParseInt(string(ts), 10, 64)
	if err != nil {
		return name, email, time.Time{}
	}
	when = time.Unix(sec, 0).UTC()
	if len(tz) >= 5 {
		hours, err1 := strconv.ParseInt(string(tz[:3]), 10, 64)
		mins, err2 := strconv.ParseInt(string(tz[3:5]), 10, 64)
		if err1 == nil && err2 == nil {
			if hours < 0 || tz[0] == '-' {
				mins = -mins
			}
			when = when.In(time.FixedZone("", int(hours*3600+mins*60)))
		}
	}
	return name, email, when
}

// treeEntry is one entry of a tree object.
type treeEntry struct {
	name string
	mode uint32
	hash gitblame.Hash
}

// parseTree reads a tree object as `git cat-file tree` prints it: entries
// of an octal mode, a space, the name, a NUL and the raw object name of
// size bytes (20 for SHA-1, 32 for SHA-256). Modes are canonical
// (canonicalMode).
func parseTree(data []byte, size int) ([]treeEntry, error) {
	var out []treeEntry
	err := scanTree(data, size, func(_ int, mode uint32, name, hash []byte) {
		out = append(out, treeEntry{name: string(name), mode: canonicalMode(mode), hash: gitblame.NewHash(hash)})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// scanTree walks the entries of a tree object (parseTree's format),
// calling f with each one's offset in data, its mode as stored, its name
// and its object name (size bytes), both slices of data.
func scanTree(data []byte, size int, f func(off int, mode uint32, name, hash []byte)) error {
	for off := 0; off < len(data); {
		e := data[off:]
		sp := bytes.IndexByte(e, ' ')
		if sp <= 0 {
			return errors.New("tree entry without a mode")
		}
		mode, ok := octal(e[:sp])
		if !ok {
			return fmt.Errorf("tree entry mode %q: not a 32-bit octal number", e[:sp])
		}
		e = e[sp+1:]
		nul := bytes.IndexByte(e, 0)
		if nul <= 0 || len(e) < nul+1+size {
			return errors.New("truncated tree entry")
		}
		f(off, mode, e[:nul], e[nul+1:nul+1+size])
		off += sp + 1 + nul + 1 + size
	}
	return nil
}

// octal reads a mode as strconv.ParseUint(s, 8, 32) does.
func octal(b []byte) (uint32, bool) {
	var m uint32
	for _, c := range b {
		if c < '0' || c > '7' || m > math.MaxUint32>>3 {
			return 0, false
		}
		m = m<<3 | uint32(c-'0')
	}
	return m, len(b) > 0
}

// rawChange is one record of `git diff-tree -r -z` output: the modes and
// object names of both sides, the status letter (A, C, D, M, R, T, U, X)
// and the paths (Src is set for a rename or copy only).
type rawChange struct {
	srcMode, dstMode uint32
	srcHash, dstHash gitblame.Hash
	status           byte
	src, dst         string
}

// name is the path a change is listed under: its source, or for an
// addition its destination.
func (c rawChange) name() string {
	if c.src != "" {
		return c.src
	}
	return c.dst
}

// readDiffRecords reads diff-tree -r -z records from r until a line that
// does not start a record (':'): that line, without its newline, is
// returned as end. A record is ":srcmode dstmode srcoid dstoid STATUS"
// NUL, then one path NUL, or two for a rename or copy (R and C carry a
// score: R086).
func readDiffRecords(r *bufio.Reader) (recs []rawChange, end string, err error) {
	for {
		b, err := r.Peek(1)
		if err != nil {
			return nil, "", fmt.Errorf("git diff-tree: %w", noEOF(err))
		}
		if b[0] != ':' {
			line, err := r.ReadString('\n')
			if err != nil {
				return nil, "", fmt.Errorf("git diff-tree: %w", noEOF(err))
			}
			return recs, strings.TrimSuffix(line, "\n"), nil
		}
		meta, err := r.ReadString(0)
		if err != nil {
			return nil, "", fmt.Errorf("git diff-tree: %w", noEOF(err))
		}
		f := strings.Fields(strings.TrimSuffix(meta[1:], "\x00"))
		if len(f) != 5 || f[4] == "" {
			return nil, "", fmt.Errorf("git diff-tree: unexpected record %q", meta)
		}
		var c rawChange
		sm, err1 := strconv.ParseUint(f[0], 8, 32)
		dm, err2 := strconv.ParseUint(f[1], 8, 32)
		sh, err3 := gitblame.ParseHash(f[2])
		dh, err4 := gitblame.ParseHash(f[3])
		if err := errors.Join(err1, err2, err3, err4); err != nil {
			return nil, "", fmt.Errorf("git diff-tree: record %q: %w", meta, err)
		}
		c.srcMode, c.dstMode, c.srcHash, c.dstHash, c.status = uint32(sm), uint32(dm), sh, dh, f[4][0]
		if !strings.ContainsRune("ABCDMRTUX", rune(c.status)) {
			// the statuses git's raw diff format has (diff-format.adoc)
			return nil, "", fmt.Errorf("git diff-tree: record %q: unknown status %q", meta, f[4])
		}
		paths := 1
		if c.status == 'R' || c.status == 'C' {
			paths = 2
		}
		for i := 0; i < paths; i++ {
			p, err := r.ReadString(0)
			if err != nil {
				return nil, "", fmt.Errorf("git diff-tree: %w", noEOF(err))
			}
			p = strings.TrimSuffix(p, "\x00")
			if p == "" {
				return nil, "", errors.New("git diff-tree: empty path")
			}
			if paths == 2 && i == 0 {
				c.src = p
			} else {
				c.dst = p
			}
		}
		recs = append(recs, c)
	}
}

// noEOF turns the end of git's output in the middle of an answer into an
// error that says so.
func noEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// parseLsTree reads `git ls-tree -r -z` output: "mode type oid" TAB path
// NUL per entry. Records it cannot read are skipped.
func parseLsTree(out []byte, keep func(mode uint32) bool, fn func(path, oid string, mode uint32)) {
	for _, rec := range bytes.Split(out, []byte{0}) {
		meta, name, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok || len(name) == 0 {
			continue
		}
		f := bytes.Fields(meta) // mode type oid
		if len(f) != 3 {
			continue
		}
		mode, err := strconv.ParseUint(string(f[0]), 8, 32)
		if err != nil || !keep(uint32(mode)) {
			continue
		}
		fn(string(name), string(f[2]), uint32(mode))
	}
}
