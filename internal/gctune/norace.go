//go:build !race

package gctune

const raceDetector = false
