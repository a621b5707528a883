// Package schema holds the JSON Schema of memory frontmatter
// (memory.schema.json), for editors (yaml-language-server) and agents that
// write memories, and for tools that want to check a memory before use.
package schema

import _ "embed"

// Memory is the JSON Schema (draft 2020-12) of a memory file's frontmatter.
//
//go:embed memory.schema.json
var Memory []byte
