// Package schema holds the JSON Schemas of memory frontmatter
// (memory.schema.json) and of the team configuration .memcite.yaml
// (memcite-config.schema.json), and of the findings report of --format json
// (report.schema.json), for editors (yaml-language-server), agents
// that write memories, and tools that check a file before use.
package schema

import _ "embed"

// Memory is the JSON Schema (draft 2020-12) of a memory file's frontmatter.
//
//go:embed memory.schema.json
var Memory []byte

// Config is the JSON Schema (draft 2020-12) of .memcite.yaml.
//
//go:embed memcite-config.schema.json
var Config []byte

// Report is the JSON Schema (draft 2020-12) of the findings report that
// --format json writes.
//
//go:embed report.schema.json
var Report []byte
