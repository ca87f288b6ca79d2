package fit

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
)

// Measured vs predicted: a primitive's cost beside every row of a table
// of measurements (CheckPrimitive, compare --measured), and a table's
// times by message size (MedianTimes) to set beside a sweep's points.

// Defaults feed the usual parameters of a primitive that no column
// feeds: the message size (n, m), the endpoints (src, dst), the group (p
// every processor, k the others).
type Defaults struct {
	Size     float64 // bytes
	Src, Dst int     // processor ids
	Procs    int
}

// values are d as the primitive's arguments, by parameter name.
func (d Defaults) values() map[string]lang.Value {
	return map[string]lang.Value{
		"n": lang.Quantity(d.Size, lang.SizeDim), "m": lang.Quantity(d.Size, lang.SizeDim),
		"src": lang.Num(float64(d.Src)), "dst": lang.Num(float64(d.Dst)),
		"p": lang.Num(float64(d.Procs)), "k": lang.Num(float64(d.Procs - 1)),
	}
}

// CheckPrimitive is Check of the primitive f (named name) against t's
// column time, its parameters fed by the columns primitiveColumns name
// or else by d. Unless a column feeds the primitive a count of messages,
// a row that times a train of them is refused (OneMessage).
func CheckPrimitive(f *eval.Func, name string, t *Table, d Defaults) (*Checked, error) {
	c, err := Check(f, name, t, "time", primitiveColumns, d.values())
	if err != nil {
		return nil, err
	}
	if !slices.Contains(c.Fed, "count") {
		if err := OneMessage(t, nil, name+" costs one"); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// OneMessage refuses a row (of those keep keeps; nil: all) whose count
// column, as probe --data writes it, says it timed a train: a train's time
// is not one message's, and set beside one it would read as a model off by
// the train's length. single says what takes the time as one message's
// ("MPI.send costs one").
func OneMessage(t *Table, keep func(int) bool, single string) error {
	c := t.Column("count")
	if c == nil {
		return nil
	}
	for r, v := range c.Values {
		if v != 1 && (keep == nil || keep(r)) {
			return lang.Errorf(c.Cells[r], "column count: this row times a train of %s messages; %s: keep the rows of count 1", lang.FormatNumber(v), single)
		}
	}
	return nil
}

// Medians are a table's measured times by message size.
type Medians struct {
	// Times is the median time (seconds) of the rows of each size (bytes).
	Times map[int64]float64
	// Pair are the endpoint columns that chose the rows, in the order
	// src, dst: none when every row counts.
	Pair []Endpoint
}

// Endpoint is a column naming a message's sender or receiver, and the
// processor whose rows count.
type Endpoint struct {
	Column string // src or dst
	ID     int
}

// Sizes are the sizes measured, smallest first.
func (m *Medians) Sizes() []int64 { return slices.Sorted(maps.Keys(m.Times)) }

// PairsError is a table of the times of several pairs of processors, of
// which none was chosen.
type PairsError struct {
	Columns []string // the endpoint columns: src, dst or both
	Pairs   []string // each pair's values ("0 1"), in the order of the rows
}

func (e *PairsError) Error() string {
	return fmt.Sprintf("the table holds times of %d pairs (%s): %s", len(e.Pairs), strings.Join(e.Columns, ", "), strings.Join(e.Pairs, ", "))
}

// MedianTimes reads t's measured times by message size: its column time
// (a time, or seconds) at the whole numbers of bytes of its column size
// (or n, or bytes), the median of the rows of each size. Where t has src
// and dst columns only the rows of src and dst count (nil: any), so that
// the times of several pairs are not mixed into one median; a table of
// several pairs of which neither is given is a *PairsError. A row that
// times a train of messages is refused (OneMessage; single says what
// takes each time as one message's).
func MedianTimes(t *Table, src, dst *int, single string) (*Medians, error) {
	start := lang.Pos{Src: t.Src, Line: 1, Col: 1}
	times := t.Column("time")
	if times == nil {
		return nil, lang.Errorf(start, "no column time of measured times; the columns are %s", strings.Join(t.Names(), ", "))
	}
	if !times.Unitless && times.Dim != lang.TimeDim {
		return nil, lang.Errorf(times.Header, "column time holds a %s, not a time", times.Dim.Name())
	}
	if err := positiveTimes(times); err != nil {
		return nil, err
	}
	var sizes *Column
	for _, n := range primitiveColumns["n"] {
		if sizes = t.Column(n); sizes != nil {
			break
		}
	}
	if sizes == nil {
		return nil, lang.Errorf(start, "no column of message sizes (size, n or bytes); the columns are %s", strings.Join(t.Names(), ", "))
	}
	keep, pair, err := pairRows(t, src, dst)
	if err != nil {
		return nil, err
	}
	if err := OneMessage(t, keep, single); err != nil {
		return nil, err
	}
	by := map[int64][]float64{}
	for r, v := range sizes.Values {
		if (!sizes.Unitless && sizes.Dim != lang.SizeDim) || v < 0 || v != float64(int64(v)) {
			return nil, lang.Errorf(sizes.Cells[r], "column %s: want a whole number of bytes", sizes.Name)
		}
		if keep(r) {
			by[int64(v)] = append(by[int64(v)], times.Values[r])
		}
	}
	out := &Medians{Times: map[int64]float64{}, Pair: pair}
	for size, ts := range by {
		sort.Float64s(ts)
		out.Times[size] = (ts[(len(ts)-1)/2] + ts[len(ts)/2]) / 2
	}
	return out, nil
}

// pairRows says which rows are of the pair src, dst: those whose src and
// dst columns match the ends given, or, without them, every row of a
// table that holds one pair.
func pairRows(t *Table, src, dst *int) (keep func(int) bool, pair []Endpoint, err error) {
	type end struct {
		col *Column
		id  *int
	}
	var ends []end
	for _, e := range []struct {
		name string
		id   *int
	}{{"src", src}, {"dst", dst}} {
		if c := t.Column(e.name); c != nil {
			ends = append(ends, end{c, e.id})
			if e.id != nil {
				pair = append(pair, Endpoint{e.name, *e.id})
			}
		}
	}
	all := func(int) bool { return true }
	if len(ends) == 0 {
		return all, nil, nil
	}
	if len(pair) == 0 {
		seen := map[string]bool{}
		e := &PairsError{}
		for r := 0; r < t.Rows; r++ {
			var key []string
			for _, end := range ends {
				key = append(key, lang.FormatNumber(end.col.Values[r]))
			}
			k := strings.Join(key, " ")
			if !seen[k] {
				seen[k] = true
				e.Pairs = append(e.Pairs, k)
			}
		}
		if len(e.Pairs) > 1 {
			for _, end := range ends {
				e.Columns = append(e.Columns, end.col.Name)
			}
			return nil, nil, e
		}
		return all, nil, nil
	}
	keep = func(r int) bool {
		for _, end := range ends {
			if end.id != nil && end.col.Values[r] != float64(*end.id) {
				return false
			}
		}
		return true
	}
	return keep, pair, nil
}
