package gitrepo

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// indexStat is what an index entry records of a working-tree file when it
// was last staged or checked out (git's struct stat_data), and the blob.
type indexStat struct {
	oid                  string // hexadecimal (parseIndex)
	ctimeSec, ctimeNsec  uint32
	mtimeSec, mtimeNsec  uint32
	dev, ino, mode, size uint32
	// trusted is false for entries git itself does not compare with the
	// working tree by their stat data: assume-unchanged, skip-worktree,
	// intent-to-add, and entries of a conflict (stage 1-3).
	trusted bool
}

// Index entry flags (git's read-cache.c).
const (
	flagAssumeValid = 0x8000
	flagExtended    = 0x4000
	flagStage       = 0x3000
	extSkipWorktree = 0x4000
	extIntentToAdd  = 0x2000
)

// decodeStatData reads the fixed part of an index entry (walkIndex's raw)
// without its object id: its stat data, mode, and whether git compares it
// with the working tree.
func decodeStatData(raw []byte, flags, ext uint16) indexStat {
	u := func(i int) uint32 { return binary.BigEndian.Uint32(raw[i:]) }
	return indexStat{
		ctimeSec: u(0), ctimeNsec: u(4), mtimeSec: u(8), mtimeNsec: u(12),
		dev: u(16), ino: u(20), mode: u(24), size: u(36),
		trusted: flags&(flagAssumeValid|flagStage) == 0 && ext&(extSkipWorktree|extIntentToAdd) == 0,
	}
}

// walkIndex calls fn for every entry of an index file, in index order,
// with its name, its fixed part (stat data and object id) and its flags
// (extended flags 0 when there are none). name is only valid during the
// call. It returns the body of the cache-tree extension ("TREE"; nil when
// the index has none).
func walkIndex(data []byte, hashLen int, fn func(name, raw []byte, flags, ext uint16)) (cacheTree []byte, err error) {
	if len(data) < 12 || string(data[:4]) != "DIRC" {
		return nil, fmt.Errorf("%w: no index signature", errIndexForm)
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return nil, fmt.Errorf("%w: version %d", errIndexForm, version)
	}
	n := binary.BigEndian.Uint32(data[8:12])
	if uint64(n) > uint64(len(data))/8 {
		return nil, fmt.Errorf("%w: %d entries in %d bytes", errIndexForm, n, len(data))
	}
	pos := 12
	var prev []byte
	const stat = 40 // ctime, mtime, dev, ino, mode, uid, gid, size
	for i := uint32(0); i < n; i++ {
		start := pos
		pos += stat + hashLen
		if pos+2 > len(data) {
			return nil, fmt.Errorf("%w: entry %d truncated", errIndexForm, i)
		}
		flags := binary.BigEndian.Uint16(data[pos:])
		pos += 2
		var ext uint16
		if flags&flagExtended != 0 {
			if version < 3 {
				return nil, fmt.Errorf("%w: extended flags in version 2", errIndexForm)
			}
			if pos+2 > len(data) {
				return nil, fmt.Errorf("%w: entry %d truncated", errIndexForm, i)
			}
			ext = binary.BigEndian.Uint16(data[pos:])
			pos += 2
		}
		if pos > len(data) {
			return nil, fmt.Errorf("%w: entry %d truncated", errIndexForm, i)
		}
		var name []byte
		if version == 4 {
			strip, k := gitVarint(data[pos:])
			if k <= 0 || strip > uint64(len(prev)) {
				return nil, fmt.Errorf("%w: entry %d: bad name prefix", errIndexForm, i)
			}
			pos += k
			end := bytes.IndexByte(data[pos:], 0)
			if end < 0 {
				return nil, fmt.Errorf("%w: entry %d truncated", errIndexForm, i)
			}
			name = append(append(make([]byte, 0, int(uint64(len(prev))-strip)+end), prev[:uint64(len(prev))-strip]...), data[pos:pos+end]...)
			pos += end + 1
		} else {
			end := bytes.IndexByte(data[pos:], 0)
			if end < 0 {
				return nil, fmt.Errorf("%w: entry %d truncated", errIndexForm, i)
			}
			name = data[pos : pos+end]
			// entries are padded with 1 to 8 NULs to a multiple of 8 bytes
			pos = start + (pos+end-start+8)&^7
		}
		fn(name, data[start:start+stat+hashLen], flags, ext)
		prev = name
	}
	// extensions: 4-byte signature, 4-byte size
	for pos+8 <= len(data)-hashLen {
		sig := string(data[pos : pos+4])
		size := binary.BigEndian.Uint32(data[pos+4:])
		if sig == "link" {
			return nil, fmt.Errorf("%w: split index", errIndexForm)
		}
		if uint64(size) > uint64(len(data)-pos-8) {
			break
		}
		if sig == "TREE" {
			cacheTree = data[pos+8 : pos+8+int(size)]
		}
		pos += 8 + int(size)
	}
	return cacheTree, nil
}

// errIndexForm: an index this reader does not handle (a split index, an
// unknown version); the caller asks git instead.
var errIndexForm = errors.New("index form not read in-process")

// gitVarint decodes git's offset varint (varint.c), used by index
// version 4 for the length of the name prefix to strip. It returns the
// value and the bytes read, or 0, 0 when data ends first or overflows.
func gitVarint(data []byte) (uint64, int) {
	if len(data) == 0 {
		return 0, 0
	}
	c := data[0]
	val := uint64(c & 127)
	i := 1
	for c&128 != 0 {
		if i >= len(data) || val > 1<<48 {
			return 0, 0
		}
		val++
		c = data[i]
		i++
		val = val<<7 + uint64(c&127)
	}
	return val, i
}
