package fit

import (
	"fmt"
	"math"
	"strings"

	"github.com/parasol-lang/parasol/lang"
)

// sig is the significant digits a fitted value prints with: more than any
// measurement supports, few enough to read.
const sig = 6

// Literal writes a value of dimension d as the machine language reads it:
// 30.5us, 100MB/s, 710ns/B, an exact size as 64KiB; a dimension without a
// unit of its own as a product of units (2 * 1s * 1s).
func Literal(v float64, d lang.Dim) string {
	switch {
	case d == lang.Dimensionless:
		return lang.FormatNumber(roundSig(v))
	case d == lang.SizeDim && v >= 0 && v == math.Trunc(v) && v < 1<<62:
		return SizeLiteral(int64(v))
	case d == lang.PerByteDim || d == lang.RateDim || d == lang.TimeDim || d == lang.SizeDim || d == lang.FreqDim:
		return lang.FormatQuantitySig(v, d, sig)
	}
	var b strings.Builder
	b.WriteString(lang.FormatNumber(roundSig(v)))
	writeUnits(&b, d)
	return b.String()
}

// SizeLiteral writes a byte count as every command prints a size
// (lang.FormatQuantity): 64KiB, 1KB, 1.5MB, 32B, so that sizes chosen as
// powers of two or ten read as they were written.
func SizeLiteral(n int64) string {
	return lang.FormatQuantity(float64(n), lang.SizeDim)
}

func roundSig(v float64) float64 {
	var f float64
	fmt.Sscanf(fmt.Sprintf("%.*g", sig, v), "%g", &f)
	return f
}

// ParamBlock is the fitted parameters as param declarations to paste into
// a machine, each with its standard error, then the fixed ones, under a
// comment saying what they were fitted to.
func (r *Result) ParamBlock(what string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: %d points, R² = %s\n", what, r.Points, lang.FormatNumber(roundSig(r.R2)))
	width := 0
	for _, p := range r.Params {
		width = max(width, len(p.Name)+len(Literal(p.Value, p.Dim)))
	}
	for _, p := range r.Fixed {
		width = max(width, len(p.Name)+len(Literal(p.Value, p.Dim)))
	}
	for _, p := range r.Params {
		lit := Literal(p.Value, p.Dim)
		fmt.Fprintf(&b, "param %s = %s%s # ± %s\n", p.Name, lit, strings.Repeat(" ", width-len(p.Name)-len(lit)), Literal(p.Stderr, p.Dim))
	}
	for _, p := range r.Fixed {
		lit := Literal(p.Value, p.Dim)
		fmt.Fprintf(&b, "param %s = %s%s # fixed, not fitted\n", p.Name, lit, strings.Repeat(" ", width-len(p.Name)-len(lit)))
	}
	return b.String()
}

// writeUnits writes dimension d as factors of a unit of 1 (" * 1s / 1B"),
// so that a number before it takes d exactly.
func writeUnits(b *strings.Builder, d lang.Dim) {
	for _, u := range []struct {
		n    int8
		unit string
	}{{d.Time, "1s"}, {d.Size, "1B"}} {
		for i := int8(0); i < u.n; i++ {
			b.WriteString(" * " + u.unit)
		}
		for i := u.n; i < 0; i++ {
			b.WriteString(" / " + u.unit)
		}
	}
}
