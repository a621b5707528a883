package yamledit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ErrUnsupported marks a file laid out in a way line edits do not change
// (flow style, aliases, several documents, tab indentation): the caller
// shows the lines to add by hand instead.
var ErrUnsupported = errors.New("laid out in a way git-memcite does not edit")

// ParseMapping parses a single YAML document whose top level is a block
// mapping (or empty) and returns that mapping (nil when the file is empty
// or holds only comments). A file indented with tabs, with a carriage
// return that is not part of CRLF, with several documents, or whose top
// level is not a block mapping is ErrUnsupported.
func ParseMapping(b []byte) (*yaml.Node, error) {
	if bytes.Contains(b, []byte("\t")) {
		// tabs are legal in places but make line-based edits guesswork
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimLeft(l, " "), "\t") {
				return nil, fmt.Errorf("tab indentation: %w", ErrUnsupported)
			}
		}
	}
	if bytes.Count(b, []byte("\r")) != bytes.Count(b, []byte("\r\n")) {
		// YAML breaks lines at a lone CR too; lines here end in LF
		return nil, fmt.Errorf("carriage return without line feed: %w", ErrUnsupported)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, fmt.Errorf("not valid YAML: %w", err)
	}
	var more yaml.Node
	if err := dec.Decode(&more); err == nil {
		return nil, fmt.Errorf("several YAML documents: %w", ErrUnsupported)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	root := doc.Content[0]
	switch {
	case root.Kind == yaml.ScalarNode && root.Tag == "!!null":
		return nil, nil
	case root.Kind != yaml.MappingNode:
		return nil, fmt.Errorf("the top level is not a mapping: %w", ErrUnsupported)
	case root.Style&yaml.FlowStyle != 0:
		return nil, fmt.Errorf("flow style: %w", ErrUnsupported)
	}
	return root, nil
}

// Lookup returns the key and value nodes of the first key in a mapping
// node (nil, nil when m is not a mapping or has no such key).
func Lookup(m *yaml.Node, key string) (k, v *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// Scalar returns the value of key in a mapping when it is a scalar.
func Scalar(m *yaml.Node, key string) (string, bool) {
	_, v := Lookup(m, key)
	if v == nil || v.Kind != yaml.ScalarNode {
		return "", false
	}
	return v.Value, true
}

// Keys lists the keys of a mapping node.
func Keys(m *yaml.Node) []string {
	var out []string
	if m != nil && m.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(m.Content); i += 2 {
			out = append(out, m.Content[i].Value)
		}
	}
	return out
}

// IsBlock reports whether n is a non-empty block collection of the kind
// (mapping or sequence) that line edits can extend.
func IsBlock(n *yaml.Node, kind yaml.Kind) bool {
	return n != nil && n.Kind == kind && n.Style&yaml.FlowStyle == 0 && len(n.Content) > 0 && n.Anchor == "" && n.Alias == nil
}

// SameMeaning checks an edit: out, with the edit's additions taken out by
// strip, must decode to the same values as src, so that inserting lines
// never changed what the lines around them mean.
func SameMeaning(src, out []byte, strip func(map[string]any)) error {
	var a, b map[string]any
	if err := yaml.Unmarshal(src, &a); err != nil {
		return fmt.Errorf("not valid YAML: %w", err)
	}
	if err := yaml.Unmarshal(out, &b); err != nil {
		return fmt.Errorf("the edit would not be valid YAML (%v): %w", err, ErrUnsupported)
	}
	if b == nil {
		b = map[string]any{}
	}
	strip(b)
	if a == nil {
		a = map[string]any{}
	}
	if !reflect.DeepEqual(a, b) {
		return fmt.Errorf("the edit would change other settings: %w", ErrUnsupported)
	}
	return nil
}
