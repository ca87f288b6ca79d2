package format

import (
	"fmt"
	"math"
	"reflect"

	"github.com/parasol-lang/parasol/lang"
)

// Check reports, as a diagnostic positioned in orig, the first way in
// which formatted (the parse of File(orig)) differs from orig: a
// statement or expression that is not the same apart from positions and the
// spelling of booleans (yes, true), or a comment dropped, added or moved
// past another. Whoever writes formatted text over a user's file checks it
// first, so that no formatter bug can lose the user's work.
func Check(orig, formatted *lang.File) error {
	d := &treeDiff{at: lang.Pos{Src: orig.Src}}
	if len(orig.Stmts) != len(formatted.Stmts) {
		return lang.Errorf(d.at, "formatting would change the meaning: %d statements at the top level became %d", len(orig.Stmts), len(formatted.Stmts))
	}
	if !d.equal(reflect.ValueOf(orig.Stmts), reflect.ValueOf(formatted.Stmts)) {
		return lang.Errorf(d.at, "formatting would change the meaning here: %s", d.what)
	}
	return checkComments(orig, formatted)
}

// treeDiff compares syntax trees, remembering the last position it passed
// in the first tree so that a difference can be shown in the source.
type treeDiff struct {
	at    lang.Pos
	what  string
	named bool // what names the field that differs
}

var (
	posType     = reflect.TypeFor[lang.Pos]()
	sourceType  = reflect.TypeFor[*lang.Source]()
	boolLitType = reflect.TypeFor[lang.BoolLit]()
	paramsType  = reflect.TypeFor[[]*lang.Param]()
	opType      = reflect.TypeFor[lang.Op]()
)

func (d *treeDiff) equal(a, b reflect.Value) bool {
	if a.Type() == opType {
		if x, y := a.Interface().(lang.Op), b.Interface().(lang.Op); x != y {
			d.what = fmt.Sprintf("%q became %q", x, y)
			return false
		}
		return true
	}
	switch a.Kind() {
	case reflect.Interface, reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				d.what = fmt.Sprintf("%s became %s", describe(a), describe(b))
				return false
			}
			return true
		}
		if a.Elem().Type() != b.Elem().Type() {
			d.what = fmt.Sprintf("%s became %s", describe(a), describe(b))
			return false
		}
		return d.equal(a.Elem(), b.Elem())
	case reflect.Slice:
		// An empty list is no list, except for parameters: f() = … is a
		// function, f = … a field.
		if a.Type() == paramsType && a.IsNil() != b.IsNil() {
			d.what = "a parameter list was added or dropped"
			return false
		}
		if a.Len() != b.Len() {
			d.what = fmt.Sprintf("%d items became %d", a.Len(), b.Len())
			return false
		}
		for i := range a.Len() {
			if !d.equal(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		t := a.Type()
		if f := a.FieldByName("Pos"); f.IsValid() && f.Type() == posType && f.CanInterface() {
			if pos := f.Interface().(lang.Pos); pos.IsValid() {
				d.at = pos
			}
		}
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Type == posType || f.Type == sourceType || t == boolLitType && f.Name == "Text" {
				continue
			}
			if !d.equal(a.Field(i), b.Field(i)) {
				if !d.named {
					d.what = t.Name() + "." + f.Name + ": " + d.what
					d.named = true
				}
				return false
			}
		}
		return true
	case reflect.String:
		if a.String() != b.String() {
			d.what = fmt.Sprintf("%q became %q", a.String(), b.String())
			return false
		}
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			d.what = fmt.Sprintf("%v became %v", a.Bool(), b.Bool())
			return false
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			d.what = fmt.Sprintf("%d became %d", a.Int(), b.Int())
			return false
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if a.Uint() != b.Uint() {
			d.what = fmt.Sprintf("%d became %d", a.Uint(), b.Uint())
			return false
		}
	case reflect.Float32, reflect.Float64:
		if x, y := a.Float(), b.Float(); x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
			d.what = fmt.Sprintf("%v became %v", x, y)
			return false
		}
	default:
		d.what = "a " + a.Type().String() + " that cannot be compared"
		return false
	}
	return true
}

// describe names a node for a message: "nothing" or its Go type without the
// package.
func describe(v reflect.Value) string {
	if v.IsNil() {
		return "nothing"
	}
	t := v.Elem().Type()
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return "a " + t.Name()
}

// checkComments requires formatted to hold orig's comments in the same
// order. Comments are compared as printed: a NUL byte prints as U+FFFD.
func checkComments(orig, formatted *lang.File) error {
	i := 0
	for _, c := range orig.Comments {
		if i >= len(formatted.Comments) || formatted.Comments[i].Text != commentText(c) {
			return lang.Errorf(c.Pos, "formatting would lose or move this comment")
		}
		i++
	}
	if i < len(formatted.Comments) {
		c := formatted.Comments[i]
		return lang.Errorf(lang.Pos{Src: orig.Src}, "formatting would add a comment: %s", lang.Excerpt(c.Text))
	}
	return nil
}
