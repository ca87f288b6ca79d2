package parser

import (
	"math"

	"github.com/parasol-lang/parasol/lang"
)

// fastLine reads, in one pass over its bytes, a line of a rank block
// written as schedgen writes every one:
//
//	l12: send 8b to 3 tag 0
//	l13: recv 8b from -1 tag -1
//	l14: calc 100
//	l14 requires l13
//
// (an operation optionally followed by " cpu N" and " nic N"; irequires
// as requires). The general reader takes each of its words as a token
// and each token through a comparison per keyword it might be, which was
// two thirds of the instructions of reading a schedule and a third of
// a whole `run --analytic` of one. fastLine reads nothing and returns
// false for any other line (another spacing, a comment, a ';', a label
// not l<digits>), and for one whose values need a check that can fail (a
// negative size, a peer out of range, a tag beyond an int32, a number of
// 19 digits or more, a cpu or nic above 255): the general reader then
// reads it and reports what it always has. What it stores, it stores
// through the general reader's own functions (labelID, addOp, addDep), so
// the schedule is the same either way.
func (g *goalReader) fastLine() bool {
	b := g.line
	i := fastLabel(b, 0)
	if i < 0 || i == len(b) {
		return false
	}
	label := gtok{kind: goalIdent, s: 0, e: i}
	if b[i] == ':' {
		return g.fastOp(label, i+1)
	}
	if b[i] != ' ' {
		return false
	}
	i++
	start := false
	if i < len(b) && b[i] == 'i' {
		start = true
		i++
	}
	if !hasWord(b, i, "requires ") {
		return false
	}
	i += len("requires ")
	e := fastLabel(b, i)
	if e != len(b) {
		return false
	}
	g.addDep(label, gtok{kind: goalIdent, s: i, e: e}, start)
	return true
}

// fastOp reads the operation after "lN:" (from byte i), as fastLine.
func (g *goalReader) fastOp(label gtok, i int) bool {
	b := g.line
	if i+6 > len(b) || b[i] != ' ' || b[i+5] != ' ' {
		return false
	}
	kw := gtok{kind: goalIdent, s: i + 1, e: i + 5}
	op := lang.SchedOp{Label: -1, Line: int32(min(g.lineNo, math.MaxInt32))}
	i += 6
	var n int64
	switch string(b[kw.s:kw.e]) {
	case "calc":
		op.Kind = lang.OpCalc
		if n, i = fastUint(b, i); i < 0 {
			return false
		}
		op.Time = float64(n) / 1e9
	case "send", "recv":
		op.Kind = lang.OpSend
		dir := "b to "
		if b[kw.s] == 'r' {
			op.Kind, dir = lang.OpRecv, "b from "
		}
		if op.Bytes, i = fastDigits(b, i); i < 0 || !hasWord(b, i, dir) {
			return false
		}
		if n, i = fastInt(b, i+len(dir), op.Kind == lang.OpRecv); i < 0 || n >= int64(g.numRanks) {
			return false
		}
		op.Peer = int32(n)
	default:
		return false
	}
	// Optional suffixes, in txt2bin's order, as opStmt reads them.
	for stage := 0; i < len(b); {
		if i+5 > len(b) || b[i] != ' ' || b[i+4] != ' ' {
			return false
		}
		switch w := string(b[i+1 : i+4]); {
		case stage == 0 && op.Kind != lang.OpCalc && w == "tag":
			if n, i = fastInt(b, i+5, op.Kind == lang.OpRecv); i < 0 || n > math.MaxInt32 {
				return false
			}
			op.Tag, stage = int32(n), 1
		case stage <= 1 && w == "cpu", stage <= 2 && w == "nic":
			if n, i = fastUint(b, i+5); i < 0 || n > math.MaxUint8 {
				return false
			}
			if w == "cpu" {
				op.CPU, stage = uint8(n), 2
			} else {
				op.NIC, stage = uint8(n), 3
			}
		default:
			return false
		}
	}
	id := g.labelID(label)
	if g.stop {
		return true
	}
	g.addOp(kw, op, id)
	g.brokenLabel(id)
	return true
}

// fastLabel is the end of a label l<digits> at b[i:] that a space, a
// ':' or the end of the line ends, or -1.
func fastLabel(b []byte, i int) int {
	if i >= len(b) || b[i] != 'l' {
		return -1
	}
	e := i + 1
	for e < len(b) && isDigit(b[e]) {
		e++
	}
	if e == i+1 || e < len(b) && b[e] != ':' && b[e] != ' ' {
		return -1
	}
	return e
}

// hasWord says whether b[i:] starts with w.
func hasWord(b []byte, i int, w string) bool {
	return len(b)-i >= len(w) && string(b[i:i+len(w)]) == w
}

// fastDigits reads 1 to 18 digits at b[i:] (so no overflow to check);
// the index after them, or -1.
func fastDigits(b []byte, i int) (int64, int) {
	var n int64
	e := i
	for e < len(b) && isDigit(b[e]) {
		n = n*10 + int64(b[e]-'0')
		e++
	}
	if e == i || e-i > 18 {
		return 0, -1
	}
	return n, e
}

// fastUint is fastDigits that a space or the end of the line ends.
func fastUint(b []byte, i int) (int64, int) {
	n, e := fastDigits(b, i)
	if e < 0 || e < len(b) && b[e] != ' ' {
		return 0, -1
	}
	return n, e
}

// fastInt is fastUint, or -1 when any says -1 (any rank, any tag) may
// stand there.
func fastInt(b []byte, i int, any bool) (int64, int) {
	if any && hasWord(b, i, "-1") && (i+2 == len(b) || b[i+2] == ' ') {
		return -1, i + 2
	}
	return fastUint(b, i)
}
