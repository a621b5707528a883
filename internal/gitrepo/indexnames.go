package gitrepo

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// errIndexForm: an index this reader does not handle (a split index, an
// unknown version); the caller asks git instead.
var errIndexForm = errors.New("index form not read in-process")

// indexNames returns the path of every entry of an index file (versions
// 2, 3 and 4), in index order, without decoding anything else. It is the
// cheap question "is this path tracked?": decoding whole entries costs ten
// times as much. hashLen is the object id length (20 for SHA-1, 32 for
// SHA-256). gitlinks are the entries that are submodules. A split index (the "link" extension) returns errIndexForm,
// since most of its entries live in the shared index.
func indexNames(data []byte, hashLen int) (names, gitlinks []string, err error) {
	if len(data) < 12 || string(data[:4]) != "DIRC" {
		return nil, nil, fmt.Errorf("%w: no index signature", errIndexForm)
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return nil, nil, fmt.Errorf("%w: version %d", errIndexForm, version)
	}
	n := binary.BigEndian.Uint32(data[8:12])
	if uint64(n) > uint64(len(data))/8 {
		return nil, nil, fmt.Errorf("%w: %d entries in %d bytes", errIndexForm, n, len(data))
	}
	names = make([]string, 0, n)
	pos := 12
	var prev []byte
	const stat = 40 // ctime, mtime, dev, ino, mode, uid, gid, size
	for i := uint32(0); i < n; i++ {
		start := pos
		pos += stat + hashLen
		if pos+2 > len(data) {
			return nil, nil, fmt.Errorf("%w: entry %d truncated", errIndexForm, i)
		}
		mode := binary.BigEndian.Uint32(data[start+24:])
		flags := binary.BigEndian.Uint16(data[pos:])
		pos += 2
		if flags&0x4000 != 0 { // extended flags
			if version < 3 {
				return nil, nil, fmt.Errorf("%w: extended flags in version 2", errIndexForm)
			}
			pos += 2
		}
		if pos > len(data) {
			return nil, nil, fmt.Errorf("%w: entry %d truncated", errIndexForm, i)
		}
		var name []byte
		if version == 4 {
			strip, k := gitVarint(data[pos:])
			if k <= 0 || strip > uint64(len(prev)) {
				return nil, nil, fmt.Errorf("%w: entry %d: bad name prefix", errIndexForm, i)
			}
			pos += k
			end := bytes.IndexByte(data[pos:], 0)
			if end < 0 {
				return nil, nil, fmt.Errorf("%w: entry %d truncated", errIndexForm, i)
			}
			name = append(append(make([]byte, 0, int(uint64(len(prev))-strip)+end), prev[:uint64(len(prev))-strip]...), data[pos:pos+end]...)
			pos += end + 1
		} else {
			end := bytes.IndexByte(data[pos:], 0)
			if end < 0 {
				return nil, nil, fmt.Errorf("%w: entry %d truncated", errIndexForm, i)
			}
			name = data[pos : pos+end]
			// entries are padded with 1 to 8 NULs to a multiple of 8 bytes
			pos = start + (pos+end-start+8)&^7
		}
		if mode&0o170000 == 0o160000 {
			gitlinks = append(gitlinks, string(name))
		}
		if flags&0x3000 == 0 { // stage 0 only: conflicted paths are listed per stage
			names = append(names, string(name))
		} else if len(names) == 0 || names[len(names)-1] != string(name) {
			names = append(names, string(name))
		}
		prev = name
	}
	// extensions: 4-byte signature, 4-byte size
	for pos+8 <= len(data)-hashLen {
		sig := string(data[pos : pos+4])
		size := binary.BigEndian.Uint32(data[pos+4:])
		if sig == "link" {
			return nil, nil, fmt.Errorf("%w: split index", errIndexForm)
		}
		if uint64(size) > uint64(len(data)-pos-8) {
			break
		}
		pos += 8 + int(size)
	}
	return names, gitlinks, nil
}

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
