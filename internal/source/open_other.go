//go:build !unix && !windows

package source

import (
	"os"
	"path/filepath"
)

func openRead(name string) (*os.File, error)     { return os.Open(name) }
func openNoFollow(name string) (*os.File, error) { return openSameFile(name) }
func evalLinks(name string) (string, error)      { return filepath.EvalSymlinks(name) }
