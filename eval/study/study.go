// Package study runs parameter studies: a sweep is the cross product of
// lists of parameters (--set values of the machine, a program's
// arguments, routings, switchings, message sizes, offered loads), each
// point an experiment on the machine derived from one loaded machine with
// the point's values (eval.Machine.Derive), run over all cores and handed
// back in point order. Points are numbered in a fixed order and each has
// a seed derived from the sweep's and its index alone, so a point's result
// depends on neither the worker count nor the other points: a sweep can
// be split into shards (Shard) that run on different machines and be
// merged (Merge) into exactly the whole sweep's output. The records the
// results are written in, and read back by Merge, are package results'.
//
// A sweep runs an operation (runtime.Simulate), an open-loop load
// (runtime.Offered), a comparison of a model primitive with its
// simulation (eval.Compare) or a program (program.Run) at every point.
//
// A load–latency curve (LoadCurve) is the open-loop study of one network:
// a traffic pattern at each of a list of offered loads (ParseLoads), the
// points spread over the cores, and the saturation throughput the largest
// load the network accepted (SaturationThroughput).
package study

import (
	"fmt"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/runtime"
)

// MaxPoints bounds a sweep's cross product, so that a mistyped range is
// a message rather than a run that never ends.
const MaxPoints = 1_000_000

// Axis is one --set of a sweep, or with Arg one --arg of a program
// sweep: a path (or parameter name) and the values it takes.
type Axis struct {
	Path   string
	Values []string
	Arg    bool // a program's parameter, not the machine's
}

// Column names the axis in CSV headers and plot legends.
func (ax Axis) Column() string {
	if ax.Arg {
		return "arg:" + ax.Path
	}
	return ax.Path
}

// Columns are the axes' Columns.
func Columns(axes []Axis) []string {
	out := make([]string, len(axes))
	for i, ax := range axes {
		out[i] = ax.Column()
	}
	return out
}

// Point is one point of a sweep's cross product.
type Point struct {
	Index              int
	Sets               []eval.Set // one per axis, in the axes' order, Arg axes included
	Routing, Switching string     // "": the machine's
	Size               int64      // the message size in bytes
	Load               *runtime.Load
}

// MachineSets are the point's values of the machine's axes; args the
// values of its Arg axes, by parameter name (nil when there are none).
func (p Point) MachineSets(axes []Axis) (sets []eval.Set, args map[string]string) {
	for i, ax := range axes {
		if ax.Arg {
			if args == nil {
				args = map[string]string{}
			}
			args[ax.Path] = p.Sets[i].Value
		} else {
			sets = append(sets, p.Sets[i])
		}
	}
	return sets, args
}

// Values are the point's values of every axis, in the axes' order.
func (p Point) Values() []string {
	out := make([]string, len(p.Sets))
	for i, s := range p.Sets {
		out[i] = s.Value
	}
	return out
}

// CrossProduct enumerates the points in their fixed order: the axes in
// the order given, then routing, then switching, then size, then load,
// the last varying fastest (as nested loops written in that order). An
// empty list of routings or switchings is the machine's own; sizes must
// have at least one.
func CrossProduct(axes []Axis, routings, switchings []string, sizes []int64, loads []runtime.Load) ([]Point, error) {
	if len(routings) == 0 {
		routings = []string{""}
	}
	if len(switchings) == 0 {
		switchings = []string{""}
	}
	dims := []int{}
	total := 1
	for _, ax := range axes {
		dims = append(dims, len(ax.Values))
	}
	dims = append(dims, len(routings), len(switchings), len(sizes), max(len(loads), 1))
	for _, d := range dims {
		if total > MaxPoints/max(d, 1) {
			return nil, fmt.Errorf("the sweep has more than %d points", MaxPoints)
		}
		total *= d
	}
	points := make([]Point, total)
	idx := make([]int, len(dims))
	for i := range points {
		// idx is i in the mixed radix of dims, the last digit fastest.
		r := i
		for d := len(dims) - 1; d >= 0; d-- {
			idx[d] = r % dims[d]
			r /= dims[d]
		}
		p := Point{Index: i}
		for a, ax := range axes {
			p.Sets = append(p.Sets, eval.Set{Path: ax.Path, Value: ax.Values[idx[a]]})
		}
		n := len(axes)
		p.Routing, p.Switching, p.Size = routings[idx[n]], switchings[idx[n+1]], sizes[idx[n+2]]
		if len(loads) > 0 {
			p.Load = &loads[idx[n+3]]
		}
		points[i] = p
	}
	return points, nil
}

// PointSeed derives point i's base seed from the sweep's (splitmix64), so
// a point's result depends on neither the worker count nor the other
// points, and a simulation with the seed its "run" names reproduces it.
func PointSeed(seed uint64, i int) uint64 {
	z := seed + uint64(i+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
