package gitrepo

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// packRepoEnv names a clone whose every object TestPackedObjectsOfRepo
// reads (scripts/check-packs.sh sets it); unset, the test is skipped.
const packRepoEnv = "MEMCITE_PACK_REPO"

// TestPackedObjectsOfRepo: every object of a real clone, as `git cat-file
// --batch-all-objects` gives it, reads the same through the pack reader,
// or is left to git for one of the reasons the reader gives (larger than
// it reads, itself or a base on its chain); it logs the counts and the
// time per object.
func TestPackedObjectsOfRepo(t *testing.T) {
	dir := os.Getenv(packRepoEnv)
	if dir == "" {
		t.Skipf("set %s to a clone", packRepoEnv)
	}
	_, objs := repoObjects(t, dir)
	cmd := exec.Command("git", "-C", dir, "cat-file", "--batch-all-objects", "--batch", "--unordered")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	br := bufio.NewReaderSize(out, 1<<20)
	var all, same, large, chained, loose int
	var took time.Duration
	for {
		h, err := br.ReadString('\n')
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(h)
		size, err := strconv.Atoi(f[2])
		if len(f) != 3 || err != nil {
			t.Fatalf("cat-file: %q", h)
		}
		want := make([]byte, size+1)
		if _, err := io.ReadFull(br, want); err != nil {
			t.Fatal(err)
		}
		want = want[:size]
		all++
		start := time.Now()
		got, ok := objs.packs.read(f[0], f[1])
		took += time.Since(start)
		switch {
		case ok && !bytes.Equal(got, want):
			t.Errorf("%s %s: %d bytes read in-process, git reads %d", f[1], f[0], len(got), size)
		case ok:
			same++
		case size > maxLooseObject:
			large++
		case objs.packs.whyNot(f[0]) == errTooLarge:
			chained++
		case objs.packs.whyNot(f[0]) == errNotPacked:
			loose++
		default:
			t.Errorf("%s %s (%d bytes): left to git: %v", f[1], f[0], size, objs.packs.whyNot(f[0]))
		}
	}
	t.Logf("%d objects: %d read in-process as git reads them (%v each); left to git: %d larger than %d bytes, %d with a larger base on their chain, %d not packed",
		all, same, took/time.Duration(max(same, 1)), large, maxLooseObject, chained, loose)
	if same == 0 {
		t.Errorf("no object read in-process")
	}
}

// errNotPacked: no pack of the repository's own holds the object.
var errNotPacked = errors.New("pack: object in no pack here")

// whyNot says why oid is not read in-process (nil: it is).
func (po *packObjects) whyNot(oid string) error {
	raw, err := hex.DecodeString(oid)
	if err != nil || len(raw) != po.hashLen {
		return errBadPack
	}
	po.once.Do(po.open)
	for _, p := range po.packs {
		if off, found, err := p.find(raw); err != nil || found {
			if err != nil {
				return err
			}
			_, _, err := po.object(p, off)
			return err
		}
	}
	return errNotPacked
}
