package symdef

import (
	"go/ast"
	"go/parser"
	"go/token"
)

// goDefs reads Go through go/parser: functions, methods (their receiver's
// type as container), types, constants and variables of the package,
// fields of structs and methods of interfaces (their type as container).
// A file with syntax errors gives what the parser recovered.
func goDefs(src []byte) []Def {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if f == nil {
		return nil
	}
	var out []Def
	add := func(id *ast.Ident, container, kind string) {
		if id == nil || id.Name == "_" || id.Name == "" {
			return
		}
		out = append(out, Def{Name: id.Name, Line: fset.Position(id.Pos()).Line, Container: container, Kind: kind})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			recv := ""
			if d.Recv != nil && len(d.Recv.List) > 0 {
				recv = recvType(d.Recv.List[0].Type)
			}
			add(d.Name, recv, KindFunc)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					add(s.Name, "", KindType)
					members(s, add)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						add(n, "", KindValue)
					}
				}
			}
		}
	}
	return out
}

// members adds the fields of a struct type and the methods of an
// interface type, with the type as their container.
func members(s *ast.TypeSpec, add func(*ast.Ident, string, string)) {
	var fields *ast.FieldList
	kind := KindValue
	switch t := s.Type.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields, kind = t.Methods, KindFunc
	}
	if fields == nil {
		return
	}
	for _, f := range fields.List {
		for _, n := range f.Names {
			add(n, s.Name.Name, kind)
		}
	}
}

// recvType is the name of a receiver's type: T for T, *T, T[K], *T[K].
func recvType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}
