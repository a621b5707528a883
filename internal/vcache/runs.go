package vcache

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"io"
	"path/filepath"
)

// A Run is what a whole command printed, with what it read to get there:
// every question it asked of the content it checked, and of the
// repository, with a digest of the answer. A later run of the same
// command with the same key (everything else it depends on) that gets
// the same answers to the same questions prints the same, and need not do
// the work (docs/cache.md, "Whole runs").
type Run struct {
	Key     [32]byte
	Answers []RunAnswer
	Stdout  []byte
	Stderr  []byte
	Outcome byte // the command's outcome, as the caller codes it
}

// RunAnswer is one question of a Run: an operation, its argument and a
// digest of the answer.
type RunAnswer struct {
	Op     byte
	Arg    string
	Digest [16]byte
}

// RunVersion is the run file format's version.
const RunVersion = 1

// RunKeep is how many runs a git directory keeps (the newest written or
// used): one per command line that is run again.
const RunKeep = 4

// runMagic starts a run file: the magic, the format version, the tool
// identity, the key, the answers (operation, argument, digest), the
// outcome, stdout, stderr, and a CRC-32C of everything before it.
const runMagic = "MEMCITE-RUN\n"

// runDir is where the runs of a cache directory go, one file per key.
func runDir(dir string) string { return filepath.Join(dir, "runs") }

// runFileName is the name of the file of the run kept under key.
func runFileName(key [32]byte) string { return hex.EncodeToString(key[:]) }

// ReadRun reads the run kept under key in the cache directory dir (Dir of
// a git directory) for the tool identity tool. It returns nil when there
// is none, or one that another build wrote or that does not decode.
func ReadRun(dir, tool string, key [32]byte) *Run {
	var r *Run
	readUsed(filepath.Join(runDir(dir), runFileName(key)), func(data []byte) bool {
		got, gotTool, err := decodeRun(data)
		if err != nil || gotTool != tool || got.Key != key {
			return false
		}
		r = got
		return true
	})
	return r
}

// WriteRun writes r into the cache directory dir for the tool identity
// tool, through a temporary file in tmpDir renamed over any older run of
// the same key, and removes all but the RunKeep newest runs.
func WriteRun(dir, tmpDir, tool string, r *Run) error {
	return WriteRunAnswers(dir, tmpDir, EncodeRunAnswers(tool, r.Key, r.Answers), r.Outcome, r.Stdout, r.Stderr)
}

// EncodeRunAnswers encodes the start of a run file: what identifies the
// run and its answers (WriteRunAnswers writes the rest), so that a run
// can encode them while it prints.
func EncodeRunAnswers(tool string, key [32]byte, answers []RunAnswer) []byte {
	n := len(runMagic) + 64 + len(tool)
	for _, a := range answers {
		n += len(a.Arg) + 20
	}
	b := make([]byte, 0, n)
	b = append(b, runMagic...)
	b = binary.BigEndian.AppendUint32(b, RunVersion)
	b = appendString(b, tool)
	b = append(b, key[:]...)
	b = binary.AppendUvarint(b, uint64(len(answers)))
	for _, a := range answers {
		b = append(b, a.Op)
		b = appendString(b, a.Arg)
		b = append(b, a.Digest[:]...)
	}
	return b
}

// WriteRunAnswers writes a run file from its start (EncodeRunAnswers)
// and the rest: the outcome and what the run printed.
func WriteRunAnswers(dir, tmpDir string, start []byte, outcome byte, stdout, stderr []byte) error {
	if len(start) < len(runMagic)+4 || string(start[:len(runMagic)]) != runMagic {
		return fmt.Errorf("run: not the start of a run file")
	}
	r := reader{b: start[len(runMagic)+4:]}
	r.bytes() // the tool
	if r.err != nil || len(r.b) < 32 {
		return fmt.Errorf("run: not the start of a run file")
	}
	name := runFileName([32]byte(r.b[:32]))
	parts := runParts(start, outcome, stdout, stderr)
	rd := runDir(dir)
	err := writeReplacing(filepath.Join(rd, name), tmpDir, "run-*.tmp", func(w io.Writer) error {
		for _, b := range parts {
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	pruneOldest(rd, RunKeep)
	return nil
}

// runParts are the parts of a run file, from its start
// (EncodeRunAnswers): the start, the outcome and stdout's length, stdout,
// stderr's length, stderr, and the CRC-32C of them all.
func runParts(start []byte, outcome byte, stdout, stderr []byte) [][]byte {
	tail := binary.AppendUvarint([]byte{outcome}, uint64(len(stdout)))
	mid := binary.AppendUvarint(nil, uint64(len(stderr)))
	crc := uint32(0)
	for _, b := range [][]byte{start, tail, stdout, mid, stderr} {
		crc = crc32.Update(crc, castagnoli(), b)
	}
	return [][]byte{start, tail, stdout, mid, stderr, binary.BigEndian.AppendUint32(nil, crc)}
}

// encodeRun is a whole run file.
func encodeRun(tool string, r *Run) []byte {
	var b []byte
	for _, p := range runParts(EncodeRunAnswers(tool, r.Key, r.Answers), r.Outcome, r.Stdout, r.Stderr) {
		b = append(b, p...)
	}
	return b
}

// decodeRun reads a run file.
func decodeRun(data []byte) (*Run, string, error) {
	if len(data) < len(runMagic)+4+4 || string(data[:len(runMagic)]) != runMagic {
		return nil, "", errCorrupt
	}
	if binary.BigEndian.Uint32(data[len(runMagic):]) != RunVersion {
		return nil, "", errVersion
	}
	body := data[:len(data)-4]
	if crc32.Checksum(body, castagnoli()) != binary.BigEndian.Uint32(data[len(data)-4:]) {
		return nil, "", errCorrupt
	}
	r := reader{b: body[len(runMagic)+4:]}
	tool := string(r.bytes())
	run := &Run{}
	fixed := func(dst []byte) {
		if r.err == nil && len(r.b) < len(dst) {
			r.err = errCorrupt
		}
		if r.err != nil {
			return
		}
		copy(dst, r.b)
		r.b = r.b[len(dst):]
	}
	fixed(run.Key[:])
	var out [1]byte
	run.Answers = make([]RunAnswer, r.count(18))
	for i := range run.Answers {
		a := &run.Answers[i]
		fixed(out[:])
		a.Op = out[0]
		a.Arg = string(r.bytes())
		fixed(a.Digest[:])
		if r.err != nil {
			break
		}
	}
	fixed(out[:])
	run.Outcome = out[0]
	run.Stdout = r.bytes()
	run.Stderr = r.bytes()
	if r.err == nil && len(r.b) != 0 {
		r.err = errCorrupt
	}
	if r.err != nil {
		return nil, "", r.err
	}
	return run, tool, nil
}
