package lang

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
)

// Dim is a physical dimension as exponents of seconds and bytes: a time is
// {1,0}, a size {0,1}, a rate {-1,1}, a frequency {-1,0}.
type Dim struct{ Time, Size int8 }

// The dimensions Parasol names.
var (
	Dimensionless = Dim{}
	TimeDim       = Dim{Time: 1}
	SizeDim       = Dim{Size: 1}
	RateDim       = Dim{Time: -1, Size: 1}
	FreqDim       = Dim{Time: -1}
	// PerByteDim is a time per byte, LogGP's G and O: the inverse of a rate.
	PerByteDim = Dim{Time: 1, Size: -1}
)

// Mul is the dimension of a product.
func (d Dim) Mul(e Dim) Dim { return Dim{d.Time + e.Time, d.Size + e.Size} }

// Div is the dimension of a quotient.
func (d Dim) Div(e Dim) Dim { return Dim{d.Time - e.Time, d.Size - e.Size} }

// Pow is the dimension of d raised to an integer power.
func (d Dim) Pow(n int) Dim { return Dim{d.Time * int8(n), d.Size * int8(n)} }

// Name describes the dimension for messages: "time", "size", "rate", ….
func (d Dim) Name() string {
	switch d {
	case Dimensionless:
		return "number"
	case TimeDim:
		return "time"
	case SizeDim:
		return "size"
	case RateDim:
		return "rate"
	case FreqDim:
		return "frequency"
	case PerByteDim:
		return "time per byte"
	}
	return d.Unit()
}

// Unit is the SI base unit of d: "s", "B", "B/s", "Hz", "1", "s/B", ….
func (d Dim) Unit() string {
	switch d {
	case Dimensionless:
		return "1"
	case RateDim:
		return "B/s"
	case FreqDim:
		return "Hz"
	}
	var num, den []string
	add := func(sym string, e int8) {
		switch {
		case e == 1:
			num = append(num, sym)
		case e > 1:
			num = append(num, fmt.Sprintf("%s^%d", sym, e))
		case e == -1:
			den = append(den, sym)
		case e < -1:
			den = append(den, fmt.Sprintf("%s^%d", sym, -e))
		}
	}
	add("s", d.Time)
	add("B", d.Size)
	n := strings.Join(num, "*")
	if n == "" {
		n = "1"
	}
	if len(den) > 0 {
		return n + "/" + strings.Join(den, "/")
	}
	return n
}

// Kind says what a Value holds.
type Kind uint8

const (
	Number Kind = iota
	Bool
	String
)

func (k Kind) String() string {
	return [...]string{"number", "bool", "string"}[k]
}

// Value is a number with a dimension (in SI base units), a bool or a string.
// It is a 16-byte value type: evaluation copies it and never allocates.
// Strings are interned (they come from source text, so the table stays
// small), which keeps the value to a float and three small words.
type Value struct {
	Num  float64
	Dim  Dim
	Kind Kind
	sym  uint32 // index into the string table, for String values
}

var strtab = struct {
	sync.RWMutex
	ids  map[string]uint32
	strs []string
}{ids: map[string]uint32{"": 0}, strs: []string{""}}

func intern(s string) uint32 {
	strtab.RLock()
	id, ok := strtab.ids[s]
	strtab.RUnlock()
	if ok {
		return id
	}
	strtab.Lock()
	defer strtab.Unlock()
	if id, ok := strtab.ids[s]; ok {
		return id
	}
	id = uint32(len(strtab.strs))
	strtab.ids[s] = id
	strtab.strs = append(strtab.strs, s)
	return id
}

// Text is the string a String value holds ("" for other kinds).
func (v Value) Text() string {
	if v.sym == 0 {
		return ""
	}
	strtab.RLock()
	defer strtab.RUnlock()
	return strtab.strs[v.sym]
}

// Num returns a dimensionless number.
func Num(f float64) Value { return Value{Num: f} }

// Quantity returns f in SI base units of dimension d.
func Quantity(f float64, d Dim) Value { return Value{Num: f, Dim: d} }

// BoolValue returns a bool value.
func BoolValue(b bool) Value {
	if b {
		return Value{Num: 1, Kind: Bool}
	}
	return Value{Kind: Bool}
}

// StringValue returns a string value.
func StringValue(s string) Value { return Value{Kind: String, sym: intern(s)} }

// Truth is the bool a Bool value holds.
func (v Value) Truth() bool { return v.Num != 0 }

// TypeName describes v's type for messages.
func (v Value) TypeName() string {
	if v.Kind == Number {
		return v.Dim.Name()
	}
	return v.Kind.String()
}

// Equal reports whether two values are the same (numbers exactly).
func (v Value) Equal(w Value) bool { return v == w }

// String formats v for people: a number in the largest unit that keeps it at
// or above 1 (940ns, 1.5us, 10MB/s), a string quoted.
func (v Value) String() string {
	switch v.Kind {
	case Bool:
		return strconv.FormatBool(v.Truth())
	case String:
		return strconv.Quote(v.Text())
	}
	return FormatQuantity(v.Num, v.Dim)
}

// FormatNumber prints f with up to 10 significant digits and no noise.
func FormatNumber(f float64) string {
	if math.IsInf(f, 1) {
		return "inf"
	}
	if math.IsInf(f, -1) {
		return "-inf"
	}
	return strconv.FormatFloat(f, 'g', 10, 64)
}

var displayUnits = map[Dim][]unitDef{
	TimeDim: {{"ps", 1e-12}, {"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1}},
	SizeDim: {{"B", 1}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}},
	RateDim: {{"B/s", 1}, {"KB/s", 1e3}, {"MB/s", 1e6}, {"GB/s", 1e9}},
	FreqDim: {{"Hz", 1}, {"KHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}},
	// Per byte only: 6ns/B reads as LogGP's G is written, where 6us/KB
	// would hide the per-byte figure.
	PerByteDim: {{"ps/B", 1e-12}, {"ns/B", 1e-9}, {"us/B", 1e-6}, {"ms/B", 1e-3}, {"s/B", 1}},
}

type unitDef struct {
	name  string
	scale float64
}

// FormatQuantity prints f (in SI base units of d) with a readable unit.
// Sizes are in decimal units (KB = 1000 B: 4000 is 4KB, 1500000 is
// 1.5MB), except a whole number of bytes that is a multiple of 1 KiB and
// not of 1 KB, which is in the largest binary unit (KiB = 1024 B) that
// holds it exactly: 4096 is 4KiB (not 4.096KB), 3 MiB is 3MiB, 1536 is
// 1.536KB. A size so printed reads back as the same number of bytes.
func FormatQuantity(f float64, d Dim) string { return formatQuantity(f, d, 12) }

// FormatQuantitySig is FormatQuantity rounded to sig significant digits,
// for tables.
func FormatQuantitySig(f float64, d Dim, sig int) string { return formatQuantity(f, d, sig) }

func formatQuantity(f float64, d Dim, sig int) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		if d == Dimensionless {
			return FormatNumber(f)
		}
		return FormatNumber(f) + " " + d.Unit()
	}
	if d == SizeDim {
		if s, ok := binarySize(f); ok {
			return s
		}
	}
	shown, ok := displayUnits[d]
	if !ok {
		if d == Dimensionless {
			return FormatNumber(roundSig(f, sig))
		}
		return FormatNumber(roundSig(f, sig)) + " " + d.Unit()
	}
	u := shown[0]
	a := math.Abs(f)
	for _, c := range shown {
		if a >= c.scale*(1-1e-12) {
			u = c
		}
	}
	if f == 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		u = shown[0]
		if d == TimeDim || d == PerByteDim {
			u = shown[4]
		}
	}
	return FormatNumber(roundSig(f/u.scale, sig)) + u.name
}

// binarySize writes f bytes in the largest binary unit that holds it
// exactly when f is a whole multiple of 1 KiB and not of 1 KB (see
// FormatQuantity).
func binarySize(f float64) (string, bool) {
	a := math.Abs(f)
	if a < 1024 || math.IsInf(a, 0) || a != math.Trunc(a) || math.Mod(a, 1024) != 0 || math.Mod(a, 1000) == 0 {
		return "", false
	}
	for _, u := range []unitDef{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if math.Mod(a, u.scale) == 0 {
			return strconv.FormatFloat(f/u.scale, 'f', -1, 64) + u.name, true
		}
	}
	return "", false
}

// roundSig rounds to sig significant digits, which also removes binary
// noise such as 1.2000000000000002.
func roundSig(f float64, sig int) float64 {
	if f == 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return f
	}
	s := strconv.FormatFloat(f, 'g', sig, 64)
	g, _ := strconv.ParseFloat(s, 64)
	return g
}

// units maps every unit name the language accepts to its scale and
// dimension; LookupUnit and UnitNames read it.
var units = map[string]Value{}

func init() {
	def := func(scale float64, d Dim, names ...string) {
		for _, n := range names {
			units[n] = Quantity(scale, d)
		}
	}
	def(1e-12, TimeDim, "ps")
	def(1e-9, TimeDim, "ns")
	def(1e-6, TimeDim, "us", "µs", "μs")
	def(1e-3, TimeDim, "ms")
	def(1, TimeDim, "s")
	def(1, SizeDim, "B")
	def(0.125, SizeDim, "bit")
	for _, p := range []struct {
		pre       string
		dec, bin2 float64
	}{{"K", 1e3, 1 << 10}, {"M", 1e6, 1 << 20}, {"G", 1e9, 1 << 30}} {
		def(p.dec, SizeDim, p.pre+"B")
		def(p.bin2, SizeDim, p.pre+"iB")
		def(p.dec/8, SizeDim, p.pre+"bit")
		def(p.dec, RateDim, p.pre+"B/s")
		def(p.bin2, RateDim, p.pre+"iB/s")
		def(p.dec/8, RateDim, p.pre+"bit/s")
		def(p.dec, FreqDim, p.pre+"Hz")
	}
	def(1e3, FreqDim, "kHz")
	def(1e3, SizeDim, "kB")
	def(1e3, RateDim, "kB/s")
	def(1e3/8, RateDim, "kbit/s")
	def(1, RateDim, "B/s")
	def(0.125, RateDim, "bit/s")
	def(1, FreqDim, "Hz")
	def(0.01, Dimensionless, "%")
	// Times per size (LogGP's G and O): every time unit over B, KB, MB,
	// GB and their binary forms, as 6ns/B or 1us/KB.
	for _, t := range []struct {
		name  string
		scale float64
	}{{"ps", 1e-12}, {"ns", 1e-9}, {"us", 1e-6}, {"µs", 1e-6}, {"μs", 1e-6}, {"ms", 1e-3}, {"s", 1}} {
		def(t.scale, PerByteDim, t.name+"/B")
		for _, p := range []struct {
			pre       string
			dec, bin2 float64
		}{{"K", 1e3, 1 << 10}, {"k", 1e3, 1 << 10}, {"M", 1e6, 1 << 20}, {"G", 1e9, 1 << 30}} {
			def(t.scale/p.dec, PerByteDim, t.name+"/"+p.pre+"B")
			if p.pre != "k" {
				def(t.scale/p.bin2, PerByteDim, t.name+"/"+p.pre+"iB")
			}
		}
	}
}

// LookupUnit is the unit the language accepts by that name: its scale
// (the value of one of it, in SI base units) and dimension.
func LookupUnit(name string) (Value, bool) {
	u, ok := units[name]
	return u, ok
}

// UnitNames lists the accepted unit names, in no particular order.
func UnitNames() []string {
	out := make([]string, 0, len(units))
	for k := range units {
		out = append(out, k)
	}
	return out
}

// ParseQuantity reads a number with an optional unit suffix ("1.2us",
// "20Mbit/s", "30%", "1024").
func ParseQuantity(s string) (Value, error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == '-' || s[i] == '+' ||
		(s[i] == 'e' || s[i] == 'E') && i > 0 && i+1 < len(s) && (s[i+1] >= '0' && s[i+1] <= '9' || s[i+1] == '-' || s[i+1] == '+')) {
		i++
	}
	f, err := strconv.ParseFloat(s[:i], 64)
	if errors.Is(err, strconv.ErrRange) {
		return Value{}, fmt.Errorf("the number %s is too large (the largest is about 1.8e308)", Excerpt(s[:i]))
	}
	if err != nil {
		return Value{}, fmt.Errorf("%q is not a number", Excerpt(s))
	}
	unit := strings.TrimSpace(s[i:])
	if unit == "" {
		return Num(f), nil
	}
	u, ok := units[unit]
	if !ok {
		return Value{}, fmt.Errorf("unknown unit %q%s", Excerpt(unit), DidYouMean(unit, UnitNames()))
	}
	// A large number in a small unit (1e305 GB/s) can leave the range
	// even though the number alone fits.
	if v := f * u.Num; math.Abs(v) <= math.MaxFloat64 {
		return Quantity(v, u.Dim), nil
	}
	return Value{}, fmt.Errorf("%s is too large (the largest %s is about 1.8e308 %s)", Excerpt(s), u.Dim.Name(), u.Dim.Unit())
}
