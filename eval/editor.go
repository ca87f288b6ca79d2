package eval

import (
	"sort"
	"strings"

	"github.com/parasol-lang/parasol/registry"
)

// What an editor shows of the language (the language server's hover and
// completion): the schema's fields with their documentation, type and
// unit, and the derived indexes with theirs. They are read from the same
// tables the resolver checks files against, so what the editor says is
// what loading does.

// SchemaField is what the schema says of one field of a kind of block.
type SchemaField struct {
	Name string
	Type string           // "time", "size", "rate", "name", …
	Unit string           // the SI unit of its values ("s", "B/s"), "" when it has none
	Doc  string           // one line
	Own  bool             // a name of the user's own, in a block that takes any name
	Enum []registry.Entry // the words a name-valued field may take, nil for any
}

// FieldOf returns what the schema says of field name in a block of kind
// ("processor", "topology", "link", "modelsection", …), and whether the
// block may hold it.
func FieldOf(kind, name string) (SchemaField, bool) {
	s, ok := fieldSpecOf(kind, name)
	if !ok {
		return SchemaField{}, false
	}
	b := blockOf(kind)
	_, known := b.fields[name]
	if !known {
		_, known = b.fields[strings.ReplaceAll(name, "_", " ")]
	}
	return schemaField(name, s, !known && b.own), true
}

// FieldsOf lists the fields the schema knows for a kind of block, sorted
// by name; nil for a kind it does not know.
func FieldsOf(kind string) []SchemaField {
	var out []SchemaField
	for _, n := range schemaNames(kind) {
		out = append(out, schemaField(n, blocks[kind].fields[n], false))
	}
	return out
}

// BlockKinds lists the kinds of block a machine may hold, sorted.
func BlockKinds() []string {
	out := append([]string(nil), blockKinds...)
	sort.Strings(out)
	return out
}

func schemaField(name string, s fieldSpec, own bool) SchemaField {
	f := SchemaField{Name: name, Type: s.typ.String(), Doc: s.doc, Own: own}
	if d, ok := s.typ.dim(); ok && s.typ != tNumber && s.typ != tCount {
		f.Unit = d.Unit()
		if s.typ == tPercent {
			f.Unit = "%"
		}
	}
	if s.enum != nil {
		f.Enum = s.enum.Entries
	}
	return f
}

// IndexDoc returns the documentation of a derived index (diameter,
// bisection, …), and whether name is one.
func IndexDoc(name string) (string, bool) {
	ix, ok := indexes[name]
	return ix.doc, ok
}

// BlockDoc is what the schema says of a kind of block, "" for a kind it
// does not know.
func BlockDoc(kind string) string {
	if b := blocks[kind]; b != nil {
		return b.doc
	}
	return ""
}
