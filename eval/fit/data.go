package fit

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/parasol-lang/parasol/lang"
)

// Table is a set of measurements: named columns of numbers in SI base
// units, read from CSV or JSON lines.
type Table struct {
	Src     *lang.Source
	Columns []*Column
	Rows    int
	// Lines is the source line of each row, for residuals and errors.
	Lines []int
	// lineStart is the byte offset of each source line's start (line 1
	// at index 0), so that a cell's position is found without rescanning
	// the text.
	lineStart []int
}

// Column is one named quantity of every row.
type Column struct {
	Name string
	// Dim is the column's dimension; Unitless says no header or cell gave
	// a unit, so a model parameter declared with a unit takes the numbers
	// in that unit (a size column of plain numbers is bytes). A plain
	// number in a column with units is in the header's unit, or in the
	// SI base unit (s, B) when only cells give units.
	Dim      lang.Dim
	Unitless bool
	fixed    bool // Dim comes from the header or a cell with a unit
	Values   []float64
	Header   lang.Pos
	Cells    []lang.Pos
	scale    float64  // the header's unit, in SI, for plain cells
	dimAt    lang.Pos // where Dim was fixed: the header or the first cell with a unit
}

// Column returns the column of that name, or nil.
func (t *Table) Column(name string) *Column {
	for _, c := range t.Columns {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Names lists the columns in order.
func (t *Table) Names() []string {
	out := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = c.Name
	}
	return out
}

// Read parses measurements: JSON lines when the first non-blank character
// is '{', CSV (a header row naming the columns, '#' comment lines)
// otherwise. A header may give a unit, "time (us)" or "time [us]", that
// applies to the column's plain numbers; a cell may carry its own
// ("30.5us", "1KB", "0.7us/B").
func Read(name string, data []byte) (*Table, error) {
	t := &Table{Src: lang.NewSource(name, string(data))}
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	var err error
	if len(trimmed) > 0 && trimmed[0] == '{' {
		err = t.readJSON()
	} else {
		err = t.readCSV()
	}
	if err != nil {
		return nil, err
	}
	if t.Rows == 0 {
		return nil, lang.Errorf(lang.Pos{Src: t.Src}, "no measurements in %s: want a header row naming the columns and one row per measurement", name)
	}
	return t, nil
}

func (t *Table) pos(line, col int) lang.Pos {
	if line < 1 {
		return lang.Pos{Src: t.Src}
	}
	// csv and json report columns in bytes; the Source counts runes.
	if t.lineStart == nil {
		t.lineStart = []int{0}
		for i := 0; i < len(t.Src.Text); i++ {
			if t.Src.Text[i] == '\n' {
				t.lineStart = append(t.lineStart, i+1)
			}
		}
	}
	start := t.lineStart[min(line, len(t.lineStart))-1]
	return t.Src.PosAt(start + col - 1)
}

func (t *Table) readCSV() error {
	r := csv.NewReader(strings.NewReader(t.Src.Text))
	r.Comment = '#'
	r.TrimLeadingSpace = true
	r.FieldsPerRecord = -1 // a short row is reported with the header's columns
	header, err := r.Read()
	if err == io.EOF {
		return nil
	}
	if err != nil {
		return t.csvError(err)
	}
	for i, h := range header {
		line, col := r.FieldPos(i)
		c, err := t.newColumn(h, t.pos(line, col))
		if err != nil {
			return err
		}
		t.Columns = append(t.Columns, c)
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return t.csvError(err)
		}
		line, _ := r.FieldPos(0)
		if len(rec) != len(header) {
			return lang.Errorf(t.pos(line, 1), "%d cells in this row, %d columns in the header (%s)", len(rec), len(header), strings.Join(t.Names(), ", "))
		}
		for i, cell := range rec {
			_, col := r.FieldPos(i)
			if err := t.Columns[i].add(cell, t.pos(line, col)); err != nil {
				return err
			}
		}
		t.Rows++
		t.Lines = append(t.Lines, line)
	}
}

func (t *Table) csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return lang.Errorf(t.pos(pe.Line, pe.Column), "%v", pe.Err)
	}
	return err
}

func (t *Table) readJSON() error {
	lines := strings.Split(t.Src.Text, "\n")
	for n, text := range lines {
		if strings.TrimSpace(text) == "" {
			continue
		}
		line := n + 1
		dec := json.NewDecoder(strings.NewReader(text))
		dec.UseNumber()
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return lang.Errorf(t.pos(line, 1), "want one JSON object per line, {\"size\": 1024, \"time\": \"31us\"}")
		}
		seen := map[string]bool{}
		for dec.More() {
			keyAt := int(dec.InputOffset())
			tok, err := dec.Token()
			if err != nil {
				return lang.Errorf(t.pos(line, keyAt+1), "not JSON: %v", err)
			}
			key := tok.(string)
			after := int(dec.InputOffset())
			valAt := after + strings.IndexFunc(text[after:], func(r rune) bool { return r != ':' && r != ' ' && r != '\t' })
			tok, err = dec.Token()
			if err != nil {
				return lang.Errorf(t.pos(line, valAt+1), "not JSON: %v", err)
			}
			var cell string
			switch v := tok.(type) {
			case json.Number:
				cell = v.String()
			case string:
				cell = v
			default:
				return lang.Errorf(t.pos(line, valAt+1), "%s: want a number or a quantity such as \"31us\"", key)
			}
			at := t.pos(line, valAt+1)
			c := t.Column(key)
			if c == nil {
				if t.Rows > 0 {
					return lang.Errorf(at, "column %q is not in the first line (%s)", lang.Excerpt(key), strings.Join(t.Names(), ", "))
				}
				if c, err = t.newColumn(key, at); err != nil {
					return err
				}
				t.Columns = append(t.Columns, c)
			}
			seen[key] = true
			if err := c.add(cell, at); err != nil {
				return err
			}
		}
		for _, c := range t.Columns {
			if !seen[c.Name] {
				return lang.Errorf(t.pos(line, 1), "no %q in this line; every line needs the columns of the first (%s)", c.Name, strings.Join(t.Names(), ", "))
			}
		}
		t.Rows++
		t.Lines = append(t.Lines, line)
	}
	return nil
}

// newColumn reads a header cell: a name and an optional unit in
// parentheses or brackets.
func (t *Table) newColumn(h string, at lang.Pos) (*Column, error) {
	name, unit := strings.TrimSpace(h), ""
	for _, br := range []string{"()", "[]"} {
		if i := strings.IndexByte(name, br[0]); i > 0 && strings.HasSuffix(name, br[1:]) {
			name, unit = strings.TrimSpace(name[:i]), strings.TrimSpace(name[i+1:len(name)-1])
			break
		}
	}
	if name == "" {
		return nil, lang.Errorf(at, "a column without a name: the header row names every column (size, hops, time (us), …)")
	}
	if c := t.Column(name); c != nil {
		return nil, lang.Errorf(at, "column %q twice (first at %s)", lang.Excerpt(name), lang.PosString(c.Header))
	}
	c := &Column{Name: name, Unitless: true, Header: at}
	if unit != "" {
		v, err := parseCell("1" + unit)
		if err != nil {
			return nil, lang.Errorf(at, "the unit of column %s: %v", lang.Excerpt(name), err)
		}
		c.Dim, c.Unitless, c.fixed = v.Dim, false, true
		c.scale, c.dimAt = v.Num, at
	} else {
		c.scale = 1
	}
	return c, nil
}

// add appends one cell: a plain number takes the header's unit, a number
// with a unit must have the column's dimension.
func (c *Column) add(cell string, at lang.Pos) error {
	cell = strings.TrimSpace(cell)
	if cell == "" {
		return lang.Errorf(at, "empty cell in column %s: want a number", lang.Excerpt(c.Name))
	}
	v, err := parseCell(cell)
	if err != nil {
		return lang.Errorf(at, "column %s: %v", lang.Excerpt(c.Name), err)
	}
	if math.IsInf(v.Num, 0) || math.IsNaN(v.Num) {
		return lang.Errorf(at, "column %s: %s is not a finite number", lang.Excerpt(c.Name), lang.Excerpt(cell))
	}
	x := v.Num
	bare := v.Dim == lang.Dimensionless && !strings.HasSuffix(cell, "%")
	switch {
	case bare:
		x *= c.scale
	case !c.fixed:
		c.Dim, c.Unitless, c.fixed = v.Dim, false, true
		c.dimAt = at
	case v.Dim != c.Dim:
		return lang.Errorf(at, "column %s holds a %s (%s), this cell is a %s", lang.Excerpt(c.Name), c.Dim.Name(), c.Dim.Unit(), v.Dim.Name())
	}
	c.Values = append(c.Values, x)
	c.Cells = append(c.Cells, at)
	return nil
}

// parseCell reads a number with an optional unit, and a unit per size or
// per time ("0.7us/B", "2ns/KB") that the language writes as a quotient.
func parseCell(s string) (lang.Value, error) {
	s = strings.TrimSpace(s)
	v, err := lang.ParseQuantity(s)
	if err == nil {
		return v, nil
	}
	if i := strings.LastIndexByte(s, '/'); i > 0 {
		n, nerr := lang.ParseQuantity(s[:i])
		d, derr := lang.ParseQuantity("1" + strings.TrimSpace(s[i+1:]))
		if nerr == nil && derr == nil {
			return lang.Quantity(n.Num/d.Num, n.Dim.Div(d.Dim)), nil
		}
	}
	return lang.Value{}, fmt.Errorf("%v (want a number, with a unit if it has one: 31us, 1KB, 0.7us/B)", err)
}
