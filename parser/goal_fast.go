package parser

import (
	"encoding/binary"
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
//	}
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
// through the general reader's own functions (labelID, addOp, addDep,
// closeRank; fastRank through openRank), so the schedule is the same
// either way.
func (g *goalReader) fastLine() bool {
	b := g.line
	if len(b) == 1 && b[0] == '}' {
		g.closeRank()
		return true
	}
	i, num := fastLabel(b, 0)
	if i < 0 || i == len(b) {
		return false
	}
	label := gtok{kind: goalIdent, s: 0, e: i}
	if b[i] == ':' {
		return g.fastOp(label, num, i+1)
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
	e, tnum := fastLabel(b, i)
	if e != len(b) {
		return false
	}
	target := gtok{kind: goalIdent, s: i, e: e}
	// A dependency on an operation before it, both labels defined in
	// this rank, is stored at once, as addDep stores it.
	if op, ok := g.fastLookup(num); ok {
		if to, ok := g.fastLookup(tnum); ok && 0 <= to && to < op {
			if g.room("dependencies", len(g.deps) == cap(g.deps)) {
				g.deps = append(g.deps, goalDep{op: op, target: to, kept: -1, start: start, opRes: true, targetRes: true})
			}
			return true
		}
	}
	g.addDep(label, target, start)
	return true
}

// fastLookup is lookup of the label l<num> (num from fastLabel, -1 for
// none): the operation it labels in the open rank.
func (g *goalReader) fastLookup(num int) (int32, bool) {
	if num < 0 || num >= len(g.labelByNum) || g.labelByNum[num] == 0 {
		return 0, false
	}
	id := g.labelByNum[num] - 1
	return g.labelOp[id], g.labelRank[id] == int32(g.rank)
}

// fastRank reads, outside a rank block, a line "rank N {" that opens
// the block of the next rank, as schedgen writes it; it reads nothing
// and returns false for any other line, and for a rank out of order or
// out of range, which the general reader reports.
func (g *goalReader) fastRank() bool {
	b := g.line
	if !hasWord(b, 0, "rank ") || g.numRanks < 0 {
		return false
	}
	r, i := fastDigits(b, 5)
	if i < 0 || i+2 != len(b) || b[i] != ' ' || b[i+1] != '{' || r >= int64(g.numRanks) || r <= int64(g.lastRank) {
		return false
	}
	g.openRank(int(r))
	return true
}

// fastOp reads the operation after "lN:" (from byte i), as fastLine;
// num is the label's number (fastLabel). Words are compared four bytes
// at a time (word4).
func (g *goalReader) fastOp(label gtok, num, i int) bool {
	b := g.line
	if i+6 > len(b) || b[i] != ' ' || b[i+5] != ' ' {
		return false
	}
	kw := gtok{kind: goalIdent, s: i + 1, e: i + 5}
	op := lang.SchedOp{Label: -1, Line: int32(min(g.lineNo, math.MaxInt32))}
	var n int64
	switch w := word4(b, i+1); w {
	case wordCalc:
		op.Kind = lang.OpCalc
		if n, i = fastDigits(b, i+6); !fastEnd(b, i) {
			return false
		}
		op.Time = float64(n) / 1e9
	case wordSend, wordRecv:
		if op.Bytes, i = fastDigits(b, i+6); i < 0 || i+5 > len(b) {
			return false
		}
		switch d := word4(b, i); {
		case w == wordSend && d == wordBTo && b[i+4] == ' ':
			op.Kind = lang.OpSend
			n, i = fastDigits(b, i+5)
		case w == wordRecv && d == wordBFr && hasWord(b, i+4, "om "):
			op.Kind = lang.OpRecv
			n, i = fastAny(b, i+7)
		default:
			return false
		}
		if !fastEnd(b, i) || n >= int64(g.numRanks) {
			return false
		}
		op.Peer = int32(n)
	default:
		return false
	}
	// Optional suffixes, in txt2bin's order, as opStmt reads them.
	for stage := 0; i < len(b); {
		if i+5 > len(b) || b[i+4] != ' ' {
			return false
		}
		switch w := word4(b, i); {
		case stage == 0 && op.Kind != lang.OpCalc && w == wordTag:
			if op.Kind == lang.OpRecv {
				n, i = fastAny(b, i+5)
			} else {
				n, i = fastDigits(b, i+5)
			}
			if !fastEnd(b, i) || n > math.MaxInt32 {
				return false
			}
			op.Tag, stage = int32(n), 1
		case stage <= 1 && w == wordCPU, stage <= 2 && w == wordNIC:
			if n, i = fastDigits(b, i+5); !fastEnd(b, i) || n > math.MaxUint8 {
				return false
			}
			if w == wordCPU {
				op.CPU, stage = uint8(n), 2
			} else {
				op.NIC, stage = uint8(n), 3
			}
		default:
			return false
		}
	}
	var id int32
	if num >= 0 && num < len(g.labelByNum) && g.labelByNum[num] > 0 {
		id = g.labelByNum[num] - 1 // as labelID finds it
	} else if id = g.labelID(label); g.stop {
		return true
	}
	g.addOp(kw, op, id)
	g.brokenLabel(id)
	return true
}

// word4 is the four bytes at b[i:] as one number, to compare with the
// words' (wordCalc, …); b has them.
func word4(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[i:]) }

var (
	wordCalc = word4([]byte("calc"), 0)
	wordSend = word4([]byte("send"), 0)
	wordRecv = word4([]byte("recv"), 0)
	wordBTo  = word4([]byte("b to"), 0)
	wordBFr  = word4([]byte("b fr"), 0)
	wordTag  = word4([]byte(" tag"), 0)
	wordCPU  = word4([]byte(" cpu"), 0)
	wordNIC  = word4([]byte(" nic"), 0)
)

// fastLabel is the end of a label l<digits> at b[i:] that a space, a
// ':' or the end of the line ends, or -1; and its number where labelNum
// gives one (labelByNum finds it), else -1.
func fastLabel(b []byte, i int) (int, int) {
	if i >= len(b) || b[i] != 'l' {
		return -1, -1
	}
	e, n := i+1, 0
	for e < len(b) && isDigit(b[e]) {
		n = n*10 + int(b[e]-'0')
		e++
	}
	if e == i+1 || e < len(b) && b[e] != ':' && b[e] != ' ' {
		return -1, -1
	}
	if d := e - i - 1; d > 5 || d > 1 && b[i+1] == '0' || n >= maxLabelNum {
		n = -1
	}
	return e, n
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

// fastAny is fastDigits, or -1 (any rank, any tag) for "-1".
func fastAny(b []byte, i int) (int64, int) {
	if i+1 < len(b) && b[i] == '-' && b[i+1] == '1' {
		return -1, i + 2
	}
	return fastDigits(b, i)
}

// fastEnd says whether a number read up to i (-1: none) ends there, at a
// space or the end of the line.
func fastEnd(b []byte, i int) bool { return i >= 0 && (i == len(b) || b[i] == ' ') }
