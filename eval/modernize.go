package eval

import (
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
)

// Modernize rewrites a Parasol I file in the modern syntax with the same
// meaning (parser.Modernize, which reads this package's schema). A modern
// file is returned unchanged.
func Modernize(f *lang.File) *lang.File { return parser.Modernize(f, legacySchema{}) }

// legacySchema is the schema as parser.Modernize asks about it.
type legacySchema struct{}

func (legacySchema) Field(kind, name string) parser.FieldType {
	switch t := fieldTypeOf(kind, name); t {
	case tAny:
		return parser.FieldType{Kind: parser.FieldAny}
	case tBool:
		return parser.FieldType{Kind: parser.FieldBool}
	case tString:
		return parser.FieldType{Kind: parser.FieldString}
	case tSymbol:
		return parser.FieldType{Kind: parser.FieldSymbol}
	case tPercent:
		return parser.FieldType{Kind: parser.FieldPercent, Dim: lang.Dimensionless}
	default:
		d, _ := t.dim()
		return parser.FieldType{Kind: parser.FieldNumber, Dim: d, Unit: legacyUnit(t)}
	}
}

func (legacySchema) KnownKind(kind string) bool { return knownKind(kind) }

func (legacySchema) Builtin(name string) bool {
	_, ok := builtins[name]
	return ok
}

func (legacySchema) Label(v lang.Value) string { return labelOf(v) }

// legacyUnit is the unit a plain number of a field type carries in Parasol I.
func legacyUnit(t fieldType) string {
	switch t {
	case tTime:
		return "ns"
	case tRate:
		return "B/s"
	case tSize:
		return "B"
	case tFreq:
		return "Hz"
	case tTimePerByte:
		return "ns/B"
	}
	return ""
}
