//go:build !profile

// Package profile writes CPU and heap profiles of a run in builds with the
// profile tag; in this build it does nothing.
package profile

// Start does nothing without the profile build tag.
func Start() (stop func()) { return func() {} }
