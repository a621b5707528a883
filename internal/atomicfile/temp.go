package atomicfile

import (
	"os"
	"sync"
)

// temps are the temporary files CreateTemp made that Replace has not yet
// moved into place.
var temps struct {
	sync.Mutex
	names map[string]struct{}
}

// CreateTemp makes a temporary file as os.CreateTemp does, and remembers
// it until Replace moves it into place, so that RemoveTemps can remove it
// when the process is stopped halfway through a write.
func CreateTemp(dir, pattern string) (*os.File, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	temps.Lock()
	if temps.names == nil {
		temps.names = map[string]struct{}{}
	}
	temps.names[f.Name()] = struct{}{}
	temps.Unlock()
	return f, nil
}

// forget drops name from the temporary files RemoveTemps removes.
func forget(name string) {
	temps.Lock()
	delete(temps.names, name)
	temps.Unlock()
}

// RemoveTemps removes every temporary file CreateTemp made that is still
// there (not moved into place by Replace): what an interrupted process
// calls before it exits without finishing its writes. A write that was
// renamed meanwhile is whole, and no longer at its temporary name.
func RemoveTemps() {
	temps.Lock()
	defer temps.Unlock()
	for name := range temps.names {
		os.Remove(name)
		delete(temps.names, name)
	}
}
