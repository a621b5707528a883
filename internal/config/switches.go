package config

import "strings"

// Switches are the environment variables that switch git-memcite's own
// machinery, as opposed to the settings of Keys (which the configuration
// layers resolve): main reads them once and passes them down.
type Switches struct {
	// Debug is MEMCITE_DEBUG: traces on stderr (set, and not "0").
	Debug bool
	// ConfigFile is MEMCITE_CONFIG: a team configuration file read in
	// place of .memcite.yaml ("" for none).
	ConfigFile string
	// Cache is MEMCITE_CACHE as set: off, 0, false or no turn the
	// verification cache off (vcache.OffReason).
	Cache string
	// GitBinary is MEMCITE_BACKEND=git: the index, HEAD and revisions
	// read by git's commands instead of in-process (a debugging switch;
	// see docs/repositories.md).
	GitBinary bool
}

// ReadSwitches reads the switches from the environment.
func ReadSwitches(getenv func(string) string) Switches {
	d := getenv("MEMCITE_DEBUG")
	return Switches{
		Debug:      d != "" && d != "0",
		ConfigFile: getenv("MEMCITE_CONFIG"),
		Cache:      getenv("MEMCITE_CACHE"),
		GitBinary:  strings.TrimSpace(getenv("MEMCITE_BACKEND")) == "git",
	}
}
