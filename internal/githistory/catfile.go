package githistory

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"

	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// catFile reads blobs through one long-running `git cat-file --batch`
// process: on long histories, inflating thousands of delta-compressed
// blob versions is where go-git spends its time, and git's own object
// reader is several times faster. It is an accelerator only: any failure
// turns it off and reads fall back to go-git.
type catFile struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startCatFile(gitDir string) (*catFile, error) {
	path, err := exec.LookPath("git")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, "--git-dir", gitDir, "cat-file", "--batch")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &catFile{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16)}, nil
}

// blob returns the content of blob h.
func (c *catFile) blob(h gitblame.Hash) ([]byte, error) {
	if _, err := io.WriteString(c.in, h.String()+"\n"); err != nil {
		return nil, err
	}
	header, err := c.out.ReadString('\n')
	if err != nil {
		return nil, err
	}
	f := strings.Fields(header)
	if len(f) != 3 || f[1] != "blob" {
		return nil, fmt.Errorf("git cat-file: unexpected header %q", strings.TrimSpace(header))
	}
	n, err := strconv.Atoi(f[2])
	if err != nil {
		return nil, fmt.Errorf("git cat-file: bad size in %q", strings.TrimSpace(header))
	}
	buf := make([]byte, n+1)
	if _, err := io.ReadFull(c.out, buf); err != nil {
		return nil, err
	}
	if !bytes.HasSuffix(buf, []byte("\n")) {
		return nil, fmt.Errorf("git cat-file: missing terminator")
	}
	return buf[:n], nil
}

func (c *catFile) close() error {
	c.in.Close()
	return c.cmd.Wait()
}
