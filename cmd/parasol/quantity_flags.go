package main

import (
	"flag"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/parasol-lang/parasol/lang"
)

// quantityFlag is a flag that takes a size, time or rate written as in a
// machine file (4KB, 1MiB, 1.2us, 500MB/s), so a figure can be copied
// between the two. A plain number is in the dimension's base unit (bytes,
// seconds, bytes per second): --size 4096 stays 4096 bytes.
type quantityFlag struct {
	dim lang.Dim
	// least is the smallest value accepted: 0, or 1 for --max-memory,
	// where 0 would mean "the default".
	least float64
	// positive refuses 0, for a flag whose absence is its default (a
	// value of 0 would silently mean the default).
	positive bool
	v        float64 // in the dimension's base unit
	set      bool    // given on the command line
	// err is why the last value was refused, kept because package flag
	// flattens it into "invalid value … for flag -NAME: …", and the
	// message should read like the language's (see flagValueError).
	err error
	bad string // the value refused
}

// sizeFlag is a size in whole bytes, at least least, of def bytes until set.
func sizeFlag(def, least int64) quantityFlag {
	return quantityFlag{dim: lang.SizeDim, least: float64(least), v: float64(def)}
}

// examples are the values named in the message for a wrong dimension.
var quantityExamples = map[lang.Dim]string{lang.SizeDim: "4KB", lang.TimeDim: "1.2us", lang.RateDim: "500MB/s"}

func (q *quantityFlag) String() string {
	if q == nil || q.dim == (lang.Dim{}) || q.v == 0 && !q.set {
		return "" // no "(default 0)" for a flag whose absence means "unset"
	}
	if q.dim == lang.SizeDim {
		return fmt.Sprint(int64(q.v))
	}
	return lang.FormatQuantity(q.v, q.dim)
}

func (q *quantityFlag) Set(s string) error {
	q.err, q.bad = q.parse(s), s
	if q.err != nil {
		return q.err
	}
	q.set = true
	return nil
}

func (q *quantityFlag) parse(s string) error {
	v, err := lang.ParseQuantity(s)
	if t := strings.TrimSpace(s); err != nil && (t == "" || !strings.ContainsRune("0123456789.+-", rune(t[0]))) {
		// not even a number: say what is wanted rather than "not a number"
		return fmt.Errorf("expected a %s (e.g. %s), got %q", q.dim.Name(), quantityExamples[q.dim], s)
	}
	if err != nil {
		return err
	}
	if v.Kind == lang.Number && v.Dim == lang.Dimensionless {
		if q.dim == lang.TimeDim {
			// a size without a unit is bytes; a time could be seconds
			// or cycles, so it needs its unit
			return fmt.Errorf("a time needs its unit (e.g. %s; %ss in seconds), got the plain number %s", quantityExamples[q.dim], strings.TrimSpace(s), strings.TrimSpace(s))
		}
		v = lang.Quantity(v.Num, q.dim)
	}
	if v.Kind != lang.Number || v.Dim != q.dim {
		return fmt.Errorf("expected a %s (e.g. %s), got a %s", q.dim.Name(), quantityExamples[q.dim], v.TypeName())
	}
	if r := math.Round(v.Num); q.dim == lang.SizeDim && math.Abs(v.Num-r) <= 1e-9*math.Max(1, math.Abs(r)) {
		v.Num = r // 2.01MB is 2009999.9999999998 in binary floating point
	}
	switch {
	case v.Num < 0:
		return fmt.Errorf("must not be negative")
	case v.Num == 0 && q.positive:
		return fmt.Errorf("must be above 0 (leave the flag out for its default)")
	case v.Num < q.least:
		return fmt.Errorf("must be at least %s", lang.FormatQuantity(q.least, q.dim))
	case q.dim == lang.SizeDim && v.Num != math.Trunc(v.Num):
		return fmt.Errorf("must be a whole number of bytes, got %s bytes", lang.FormatNumber(v.Num))
	case q.dim == lang.SizeDim && v.Num >= math.MaxInt64:
		return fmt.Errorf("must be less than %d bytes", int64(math.MaxInt64))
	}
	q.v = v.Num
	return nil
}

// bytes is a size flag's value.
func (q *quantityFlag) bytes() int64 { return int64(q.v) }

// refusedValue is a flag value other than quantityFlag that keeps why it
// refused a value, for flagValueError.
type refusedValue interface {
	refused() (bad string, err error)
}

// flagValueError is the message for a flag whose value a quantityFlag
// refused: "--size 4us: expected a size (e.g. 4KB), got a time"; nil when
// the parse error came from elsewhere.
func flagValueError(fs *flag.FlagSet) error {
	var out error
	fs.VisitAll(func(f *flag.Flag) {
		if q, ok := f.Value.(*quantityFlag); ok && q.err != nil && out == nil {
			out = fmt.Errorf("--%s %s: %v", f.Name, q.bad, q.err)
		}
		if q, ok := f.Value.(refusedValue); ok && out == nil {
			if bad, err := q.refused(); err != nil {
				out = fmt.Errorf("--%s %s: %v", f.Name, bad, err)
			}
		}
	})
	return out
}

// durationFlag is a time flag written in Parasol units as the other TIME
// flags are (30s, 500ms, 2us, 1e-3s), that also takes a Go duration
// beyond those units (1m30s, 1h).
type durationFlag struct {
	quantityFlag
}

// timeoutFlag is a duration flag of def until set.
func timeoutFlag(def time.Duration) durationFlag {
	return durationFlag{quantityFlag{dim: lang.TimeDim, v: def.Seconds()}}
}

func (d *durationFlag) Set(s string) error {
	err := d.quantityFlag.Set(s)
	if err == nil {
		return nil
	}
	if g, gerr := time.ParseDuration(strings.TrimSpace(s)); gerr == nil && g >= 0 {
		d.v, d.set, d.err = g.Seconds(), true, nil
		return nil
	}
	return err
}

// duration is the flag's value, rounded to the nanosecond; at most the
// largest duration.
func (d *durationFlag) duration() time.Duration {
	if d.v >= math.MaxInt64/1e9 {
		return math.MaxInt64
	}
	return time.Duration(math.Round(d.v * 1e9))
}

func (d *durationFlag) refused() (string, error) { return d.bad, d.err }
