package lsp

import (
	"path/filepath"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/lang/format"
	"github.com/parasol-lang/parasol/parser"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Symbols, definitions and references are read from the AST. A name's
// definition is found by its spelling and where it is written: a param,
// field or function of a machine by its name, a model section's
// primitive as SECTION.NAME, a processor or switch type, topology or
// model section by its label, a machine by its name (extends), an import
// by its file. References are the names written the same way in the
// document, but where a function's parameter or a program's variable of
// that name hides it.

// symbols lists the document's machines with their params, functions,
// blocks (processors, switches, topologies, model sections with their
// primitives) and programs, as a tree.
func (d *document) symbols() []protocol.DocumentSymbol {
	out := []protocol.DocumentSymbol{}
	if d.file == nil {
		return out
	}
	for i, st := range d.file.Stmts {
		switch st := st.(type) {
		case *lang.Machine:
			end := st.End
			if !end.IsValid() { // Parasol I: to the next statement or the end
				end = lang.Pos{Src: st.Pos.Src, Offset: len(d.text)}
				if i+1 < len(d.file.Stmts) {
					end = d.file.Stmts[i+1].StmtPos()
				}
			} else {
				end.Offset++
			}
			sym := d.symbol(st.Name, protocol.SymbolKindModule, st.Pos, end, machineNamePos(st), len(st.Name))
			if st.Extends != "" {
				sym.Detail = ptr("extends " + st.Extends)
			}
			sym.Children = d.stmtSymbols(st.Body)
			out = append(out, sym)
		default:
			out = append(out, d.stmtSymbols([]lang.Stmt{st})...)
		}
	}
	return out
}

func (d *document) stmtSymbols(list []lang.Stmt) []protocol.DocumentSymbol {
	var out []protocol.DocumentSymbol
	for _, st := range list {
		switch st := st.(type) {
		case *lang.Field:
			kind := protocol.SymbolKindField
			detail := ""
			switch {
			case st.IsFunc():
				kind = protocol.SymbolKindFunction
				var ps []string
				for _, p := range st.Params {
					ps = append(ps, p.Name+unitSuffix(p.Unit))
				}
				detail = "(" + strings.Join(ps, ", ") + ")"
			case st.IsParam:
				kind = protocol.SymbolKindConstant
				detail = "param"
			}
			if !st.IsFunc() && !st.IsParam {
				continue // a block's settings are not symbols
			}
			end := lang.End(st.Value)
			sym := d.symbol(st.Name, kind, st.Pos, end, st.Pos, len(st.Name))
			if detail != "" {
				sym.Detail = &detail
			}
			out = append(out, sym)
		case *lang.Block:
			name := st.Label
			if name == "" {
				name = st.Kind
			}
			kind := protocol.SymbolKindClass
			switch st.Kind {
			case "topology":
				kind = protocol.SymbolKindStruct
			case "modelsection":
				kind = protocol.SymbolKindNamespace
			case "processor", "switch":
				kind = protocol.SymbolKindClass
			default:
				kind = protocol.SymbolKindObject
			}
			sel, n := st.Pos, len(st.Kind)
			if st.Label != "" && st.LabelPos.IsValid() {
				sel, n = st.LabelPos, len(st.Label)
			}
			sym := d.symbol(name, kind, st.Pos, past(st.End), sel, n)
			sym.Detail = ptr(st.Kind)
			sym.Children = d.stmtSymbols(st.Body)
			out = append(out, sym)
		case *lang.Program:
			sym := d.symbol(st.Name, protocol.SymbolKindEvent, st.Pos, past(st.End), st.NamePos, len(st.Name))
			sym.Detail = ptr("program")
			out = append(out, sym)
		case *lang.Import:
			out = append(out, d.symbol(st.Path, protocol.SymbolKindFile, st.Pos, lang.Pos{}, st.Pos, len("import")))
		case *lang.For:
			out = append(out, d.stmtSymbols(st.Body)...)
		case *lang.If:
			out = append(out, d.stmtSymbols(st.Then)...)
			out = append(out, d.stmtSymbols(st.Else)...)
		}
	}
	return out
}

// symbol makes a document symbol spanning start..end (to the end of the
// line when end is unknown), selecting n bytes at sel.
func (d *document) symbol(name string, kind protocol.SymbolKind, start, end, sel lang.Pos, n int) protocol.DocumentSymbol {
	a := d.offsetOf(start)
	b := a
	if end.Src != nil && end.Offset >= a {
		b = min(end.Offset, len(d.text))
	} else {
		for b < len(d.text) && d.text[b] != '\n' {
			b++
		}
	}
	s := d.offsetOf(sel)
	selEnd := min(max(s+n, s), b)
	if s < a || s > b {
		s, selEnd = a, a
	}
	if name == "" {
		name = "?"
	}
	return protocol.DocumentSymbol{Name: name, Kind: kind,
		Range: d.lines.span(d.text, a, b), SelectionRange: d.lines.span(d.text, s, selEnd)}
}

// offsetOf is p's byte offset in the document.
func (d *document) offsetOf(p lang.Pos) int {
	if p.Src != nil && p.Src.Text == d.text {
		return p.Offset
	}
	return d.lines.offset(d.text, d.lines.fromPos(d.text, p))
}

// target is a name to find: its spelling as a key (NAME, SECTION.NAME,
// or a machine's name for extends) and the function or program in whose
// scope it is local, if it is.
type target struct {
	key   string
	local *lang.Field // a function whose parameter it is
}

// targetAt is the name at off, if any.
func (d *document) targetAt(sp *spot) (target, bool) {
	switch {
	case sp.field != nil && sp.onName:
		if n := len(sp.blocks); n > 0 && sp.blocks[n-1].Kind == "modelsection" {
			return target{key: sp.blocks[n-1].Label + "." + sp.field.Name}, true
		}
		return target{key: sp.field.Name}, true
	case sp.label != nil:
		return target{key: sp.label.Label}, true
	case sp.node != nil:
		return target{key: sp.node.Type}, true
	case sp.extends:
		return target{key: sp.machine.Extends}, true
	case sp.expr != nil:
		e := sp.expr
		if c, ok := e.(*lang.Call); ok {
			e = c.Fn
		}
		switch e := e.(type) {
		case *lang.Ident:
			t := target{key: e.Name}
			if sp.field != nil && sp.field.IsFunc() {
				for _, p := range sp.field.Params {
					if p.Name == e.Name {
						t.local = sp.field
					}
				}
			}
			return t, true
		case *lang.Select:
			return target{key: format.Expr(e)}, true
		}
	}
	return target{}, false
}

// occurrence is a place a name is written.
type occurrence struct {
	pos lang.Pos
	n   int  // its length in bytes
	def bool // where it is defined
}

// occurrences lists where f writes the names: every definition and use.
func occurrences(f *lang.File, visit func(key string, o occurrence, scope *lang.Field)) {
	exprs := func(e lang.Expr, fn *lang.Field) {
		lang.Inspect(e, func(x lang.Expr) bool {
			switch x := x.(type) {
			case *lang.Ident:
				visit(x.Name, occurrence{pos: x.Pos, n: len(x.Name)}, fn)
			case *lang.Select:
				if _, ok := x.X.(*lang.Ident); ok {
					visit(format.Expr(x), occurrence{pos: x.Pos, n: len(x.Name)}, fn)
				}
			}
			return true
		})
	}
	var stmts func(list []lang.Stmt, section string)
	stmts = func(list []lang.Stmt, section string) {
		for _, st := range list {
			switch st := st.(type) {
			case *lang.Machine:
				visit(st.Name, occurrence{pos: machineNamePos(st), n: len(st.Name), def: true}, nil)
				if st.Extends != "" {
					p := st.ExtendsPos
					p.Offset++ // inside the quotes
					visit(st.Extends, occurrence{pos: p, n: len(st.Extends)}, nil)
				}
				stmts(st.Body, "")
			case *lang.Field:
				key := st.Name
				if section != "" {
					key = section + "." + st.Name
				}
				if st.IsParam || st.IsFunc() || section != "" {
					visit(key, occurrence{pos: st.Pos, n: len(st.Name), def: true}, nil)
				}
				var fn *lang.Field
				if st.IsFunc() {
					fn = st
				}
				if st.Value != nil {
					exprs(st.Value, fn)
				}
			case *lang.Block:
				if st.Label != "" && st.LabelPos.IsValid() {
					visit(st.Label, occurrence{pos: st.LabelPos, n: len(st.Label), def: true}, nil)
				}
				if st.Gen != nil {
					exprs(st.Gen, nil)
				}
				sec := ""
				if st.Kind == "modelsection" {
					sec = st.Label
				}
				stmts(st.Body, sec)
			case *lang.Node:
				visit(st.Type, occurrence{pos: st.TypePos, n: len(st.Type)}, nil)
				exprs(st.From, nil)
				if st.To != nil {
					exprs(st.To, nil)
				}
			case *lang.Link:
				for _, e := range st.Ends {
					exprs(e, nil)
				}
				stmts(st.Body, section)
			case *lang.For:
				exprs(st.From, nil)
				exprs(st.To, nil)
				stmts(st.Body, section)
			case *lang.If:
				exprs(st.Cond, nil)
				stmts(st.Then, section)
				stmts(st.Else, section)
			case *lang.Program:
				visit(st.Name, occurrence{pos: st.NamePos, n: len(st.Name), def: true}, nil)
				// A program's names are its own: its calls are written
				// with the machine's names, which are references.
				locals := map[string]bool{"rank": true, "ranks": true}
				for _, p := range st.Params {
					locals[p.Name] = true
				}
				bound(st.Body, func(name, _ string) { locals[name] = true })
				programExprs(st.Body, func(e lang.Expr) {
					lang.Inspect(e, func(x lang.Expr) bool {
						switch x := x.(type) {
						case *lang.Ident:
							if !locals[x.Name] {
								visit(x.Name, occurrence{pos: x.Pos, n: len(x.Name)}, nil)
							}
						case *lang.Select:
							if _, ok := x.X.(*lang.Ident); ok {
								visit(format.Expr(x), occurrence{pos: x.Pos, n: len(x.Name)}, nil)
							}
						}
						return true
					})
				})
			}
		}
	}
	stmts(f.Stmts, "")
}

// programExprs calls f on every expression of a program's statements.
func programExprs(list []lang.Stmt, f func(lang.Expr)) {
	for _, st := range list {
		switch st := st.(type) {
		case *lang.Let:
			f(st.Value)
		case *lang.Do:
			f(st.Call)
		case *lang.For:
			f(st.From)
			f(st.To)
			programExprs(st.Body, f)
		case *lang.If:
			f(st.Cond)
			programExprs(st.Then, f)
			programExprs(st.Else, f)
		}
	}
}

// matches reports whether an occurrence of key in scope is the target's.
func (t target) matches(key string, scope *lang.Field) bool {
	if key != t.key {
		return false
	}
	if t.local != nil {
		return scope == t.local
	}
	if scope != nil {
		for _, p := range scope.Params {
			if p.Name == key {
				return false // the function's parameter hides it
			}
		}
	}
	return true
}

// definition is where the name at off is defined: in the document or a
// file it imports; an import's file.
func (s *server) definition(d *document, off int) []protocol.Location {
	out := []protocol.Location{}
	sp := locate(d.file, off)
	if sp.imp != nil {
		if path := resolveImport(d, sp.imp.Path); path != "" {
			out = append(out, protocol.Location{URI: pathURI(path)})
		}
		return out
	}
	t, ok := d.targetAt(sp)
	if !ok {
		return out
	}
	if t.local != nil {
		for _, p := range t.local.Params {
			if p.Name == t.key {
				out = append(out, d.location(d.file, p.Pos, len(p.Name)))
			}
		}
		return out
	}
	for _, f := range d.filesSeen() {
		occurrences(f, func(key string, o occurrence, scope *lang.Field) {
			if o.def && t.matches(key, scope) {
				out = append(out, d.location(f, o.pos, o.n))
			}
		})
		if len(out) > 0 {
			break // the nearest file that defines it
		}
	}
	return out
}

// references are the places that write the name at off: in the document,
// the files it imports and the open files that import it.
func (s *server) references(d *document, off int, withDecl bool) []protocol.Location {
	out := []protocol.Location{}
	t, ok := d.targetAt(locate(d.file, off))
	if !ok || d.file == nil {
		return out
	}
	files := []*lang.File{d.file}
	if t.local != nil {
		for _, p := range t.local.Params {
			if p.Name == t.key && withDecl {
				out = append(out, d.location(d.file, p.Pos, len(p.Name)))
			}
		}
	} else {
		// A name of the machine may be written in the files this one
		// imports and in the open files that import this one.
		files = d.filesSeen()
		for _, o := range d.s.docs {
			if o != d && o.file != nil && o.imports(d.path) {
				files = append(files, o.file)
			}
		}
	}
	for _, f := range files {
		occurrences(f, func(key string, o occurrence, scope *lang.Field) {
			if t.matches(key, scope) && (withDecl || !o.def) {
				out = append(out, d.location(f, o.pos, o.n))
			}
		})
	}
	return out
}

// location is the protocol location of n bytes at p in file f.
func (d *document) location(f *lang.File, p lang.Pos, n int) protocol.Location {
	if f == d.file {
		a := d.offsetOf(p)
		return protocol.Location{URI: d.uri, Range: d.lines.span(d.text, a, a+n)}
	}
	ls := lineStarts(f.Src.Text)
	return protocol.Location{URI: pathURI(f.Src.Name), Range: ls.span(f.Src.Text, p.Offset, p.Offset+n)}
}

// filesSeen are the document's file and the files it imports, in that
// order (imports of imports after), each parsed once; standard machines
// are left out (they have no file to open).
func (d *document) filesSeen() []*lang.File {
	if d.file == nil {
		return nil
	}
	out := []*lang.File{d.file}
	seen := map[string]bool{filepath.Clean(d.path): true}
	for i := 0; i < len(out); i++ {
		for _, st := range out[i].Stmts {
			im, ok := st.(*lang.Import)
			if !ok {
				continue
			}
			path := resolveImportFrom(out[i].Src.Name, im.Path)
			if path == "" || seen[path] {
				continue
			}
			seen[path] = true
			var text string
			if o := d.s.openAt(path); o != nil {
				text = o.text
			} else if data, err := eval.ReadInput(path, d.s.opts.MaxMemory); err == nil {
				text = string(data)
			} else {
				continue
			}
			if f, err := parser.ParseFile(path, text); err == nil {
				out = append(out, f)
			}
		}
	}
	return out
}

// imports reports whether the document imports the file at path itself.
func (d *document) imports(path string) bool {
	if d.file == nil {
		return false
	}
	for _, st := range d.file.Stmts {
		if im, ok := st.(*lang.Import); ok && resolveImport(d, im.Path) == filepath.Clean(path) {
			return true
		}
	}
	return false
}

// resolveImport is the file an import of the document names, "" for a
// standard machine.
func resolveImport(d *document, path string) string {
	return resolveImportFrom(d.path, path)
}

// resolveImportFrom is the file an import in file from names, as the
// loader resolves it: relative to from's directory.
func resolveImportFrom(from, path string) string {
	if strings.HasPrefix(path, "std:") {
		return ""
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(from), path)
	}
	return filepath.Clean(path)
}

// machineNamePos is where a machine's name is written (inside its
// quotes), or the machine's position when it is not found there (Parasol
// I writes machinename = "NAME" on a line of its own).
func machineNamePos(m *lang.Machine) lang.Pos {
	src := m.Pos.Src
	if src == nil {
		return m.Pos
	}
	rest := src.Text[m.Pos.Offset:]
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
		rest = rest[:nl]
	}
	if i := strings.Index(rest, `"`+m.Name+`"`); i >= 0 {
		return src.PosAt(m.Pos.Offset + i + 1)
	}
	return m.Pos
}
