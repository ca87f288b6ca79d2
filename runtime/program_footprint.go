package runtime

import (
	"unsafe"

	"github.com/parasol-lang/parasol/internal/limits"
	"github.com/parasol-lang/parasol/lang"
)

// Footprint is the memory something computed from a schedule takes per
// item of the schedule, beyond the schedule itself: the simulation's
// (ProgramFootprint) or the analytic answer's. Both are counted against
// the machine's memory limit while a program is instantiated.
type Footprint struct {
	Op, Send, Dep, Rank int64 // bytes per operation, send, dependency and rank
}

// Bytes is the footprint for a schedule of so many items.
func (f Footprint) Bytes(ops, sends, deps, ranks int64) int64 {
	return limits.Add(limits.Mul(ops, f.Op), limits.Mul(sends, f.Send), limits.Mul(deps, f.Dep), limits.Mul(ranks, f.Rank))
}

// Max is f or g item by item, whichever is larger: at least what either
// takes, as when one answer is computed and then the other.
func (f Footprint) Max(g Footprint) Footprint {
	return Footprint{Op: max(f.Op, g.Op), Send: max(f.Send, g.Send), Dep: max(f.Dep, g.Dep), Rank: max(f.Rank, g.Rank)}
}

// ScheduleBytes is what s holds in memory, beyond its labels.
func ScheduleBytes(s *lang.Schedule) int64 {
	return limits.Add(limits.Mul(int64(len(s.Ops)), int64(unsafe.Sizeof(lang.SchedOp{}))),
		limits.Mul(int64(len(s.Deps)), int64(unsafe.Sizeof(lang.SchedDep{}))),
		limits.Mul(int64(len(s.DepStart)+len(s.RankStart)), 4))
}
