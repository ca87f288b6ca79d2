package eval_test

import (
	"fmt"
	"math"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
)

// notFinite describes a query answer that is ±Inf or NaN, which no query
// may give (a division by zero, a domain error or an overflow is an error
// instead), or returns "".
func notFinite(what string, v lang.Value, err error) string {
	if err == nil && v.Kind == lang.Number && (math.IsInf(v.Num, 0) || math.IsNaN(v.Num)) {
		return fmt.Sprintf("%s = %v, not a finite number", what, v)
	}
	return ""
}

// firstNotFinite checks every listed field and param of a machine, and
// that every link of its topologies is within the bounds loading holds
// fields to (runtime.TimeBound, runtime.LinkSpeedBound): a machine that loads
// gives the simulator nothing that overflows.
func firstNotFinite(m *eval.Machine) string {
	for _, t := range m.Topologies() {
		for i := range int32(t.Graph.NumLinks()) {
			if msg := runtime.TimeBound.Check("latency", t.LinkLatency(i)); msg != "" {
				return fmt.Sprintf("topology %s, link %d: %s", t.Label, i, msg)
			}
			if msg := runtime.LinkSpeedBound.Check("speed", t.LinkSpeed(i)); msg != "" {
				return fmt.Sprintf("topology %s, link %d: %s", t.Label, i, msg)
			}
		}
	}
	for _, f := range m.Fields() {
		if msg := notFinite(f.Path, f.Value, nil); !f.Func && msg != "" {
			return msg
		}
	}
	for _, p := range m.Params() {
		v, err := m.Param(p.Path)
		if msg := notFinite(p.Path, v, err); msg != "" {
			return msg
		}
	}
	return ""
}
