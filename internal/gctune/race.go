//go:build race

package gctune

// raceDetector: the race detector keeps shadow memory for every heap
// allocation, which HugePages' untouched one would make it write in full
// (0.9 s a command).
const raceDetector = true
