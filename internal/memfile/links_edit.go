package memfile

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/git-memcite/git-memcite/internal/yamledit"
)

// AppendLink adds a typed link ("- related: target") at the end of the
// links list, creating the list when there is none. The rest of the
// frontmatter and the body are kept as they are.
func (f *File) AppendLink(typ, target string) ([]Edit, error) {
	if err := f.nodes(); err != nil {
		return nil, err
	}
	typ = strings.ToLower(strings.TrimSpace(typ))
	if !isLinkType(typ) {
		return nil, fmt.Errorf("%s: unknown link type %q", f.Name, typ)
	}
	if err := checkFields([]Field{{Key: typ, Value: target}}); err != nil {
		return nil, err
	}
	nl := f.nl
	var k, v *yaml.Node
	if f.root != nil {
		k, v = yamledit.Lookup(f.root, "links")
	}
	if v != nil && v.Kind == yaml.AliasNode {
		return nil, fmt.Errorf("%s: links is a YAML alias; edit it by hand", f.Name)
	}
	if v != nil && v.Kind == yaml.SequenceNode && v.Style&yaml.FlowStyle != 0 {
		end, err := f.flowEnd(f.offset(v), '[', ']')
		if err != nil {
			return nil, err
		}
		item := "{" + typ + ": " + yamledit.QuoteString(target, true) + "}"
		if len(v.Content) > 0 {
			item = ", " + item
		}
		return []Edit{{Start: end - 1, End: end - 1, New: item}}, nil
	}
	item := func(dashCol int) string {
		return strings.Repeat(" ", dashCol) + "- " + typ + ": " + yamledit.QuoteString(target, false) + nl
	}
	if v != nil && v.Kind == yaml.SequenceNode && len(v.Content) > 0 {
		dashCol := v.Column - 1
		last := v.Content[len(v.Content)-1]
		at := f.insertionEnd(f.lineOf(last), dashCol)
		return []Edit{{Start: at, End: at, New: item(dashCol)}}, nil
	}
	if v == nil {
		return []Edit{f.insertTop("links:" + nl + item(2))}, nil
	}
	if !isNull(v) && !(v.Kind == yaml.SequenceNode && len(v.Content) == 0) {
		return nil, fmt.Errorf("%s: links is not a list; edit it by hand", f.Name)
	}
	if k.Column != 1 {
		return nil, fmt.Errorf("%s: links key is nested; edit it by hand", f.Name)
	}
	// null or an empty list: rewrite the key's line(s) as a block list
	keyLine := f.lineOf(k)
	start := f.fmStart + f.lineStarts[keyLine]
	end := f.blockEnd(keyLine, k.Column-1)
	return []Edit{{Start: start, End: end, New: "links:" + nl + item(2)}}, nil
}
