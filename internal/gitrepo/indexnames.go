package gitrepo

import (
	"encoding/binary"
	"errors"
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
	if len(data) >= 12 {
		names = make([]string, 0, min(binary.BigEndian.Uint32(data[8:12]), uint32(len(data)/8)))
	}
	err = walkIndex(data, hashLen, func(name, raw []byte, flags, _ uint16) {
		mode := binary.BigEndian.Uint32(raw[24:])
		if mode&0o170000 == 0o160000 {
			gitlinks = append(gitlinks, string(name))
		}
		if flags&flagStage == 0 { // stage 0 only: conflicted paths are listed per stage
			names = append(names, string(name))
		} else if len(names) == 0 || names[len(names)-1] != string(name) {
			names = append(names, string(name))
		}
	})
	if err != nil {
		return nil, nil, err
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
