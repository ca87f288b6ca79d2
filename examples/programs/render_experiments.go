package programs

// Seed 003 chapter 4's rendering application, run from render.machine:
// shared by this package's tests and validation/.

import (
	_ "embed"
	"fmt"
	"math"
	"os"
	"strconv"

	"github.com/parasol-lang/parasol/eval"
)

//go:embed render.machine
var renderFile []byte

// RenderFile is the name render.machine is loaded under.
const RenderFile = "examples/programs/render.machine"

func readRenderFile(p string) ([]byte, error) {
	if p == RenderFile {
		return renderFile, nil
	}
	return nil, os.ErrNotExist
}

// RenderTime simulates one frame of the rendering program on P render
// tasks with ns spheres and returns its makespan in seconds.
func RenderTime(P, ns int) (float64, error) {
	m, err := eval.Load(RenderFile, eval.WithReadFile(readRenderFile))
	if err != nil {
		return 0, err
	}
	p, err := eval.LoadProgram(RenderFile, eval.WithReadFile(readRenderFile), eval.WithProgram("render"))
	if err != nil {
		return 0, err
	}
	s, err := p.Schedule(m, eval.ScheduleOptions{Args: map[string]string{"renders": strconv.Itoa(P), "spheres": strconv.Itoa(ns)}})
	if err != nil {
		return 0, err
	}
	res, err := simulate(m, s, 1)
	if err != nil {
		return 0, err
	}
	return res.Makespan, nil
}

// InverseFit is the least-squares fit of times T(P) to a + b/P (seed 003
// Figure 4.6), and the largest relative distance of a time from it.
type InverseFit struct {
	A, B, MaxResidual float64
}

// FitInverse fits times[i] at renders[i] to a + b/P.
func FitInverse(renders []int, times []float64) (InverseFit, error) {
	if len(renders) != len(times) || len(renders) < 2 {
		return InverseFit{}, fmt.Errorf("FitInverse needs two or more points, with as many times as render counts")
	}
	var sx, sy, sxx, sxy float64
	for i, P := range renders {
		x := 1 / float64(P)
		sx, sy, sxx, sxy = sx+x, sy+times[i], sxx+x*x, sxy+x*times[i]
	}
	n := float64(len(renders))
	d := n*sxx - sx*sx
	if d == 0 {
		return InverseFit{}, fmt.Errorf("FitInverse needs two or more different render counts")
	}
	f := InverseFit{B: (n*sxy - sx*sy) / d}
	f.A = (sy - f.B*sx) / n
	for i, P := range renders {
		fit := f.A + f.B/float64(P)
		f.MaxResidual = max(f.MaxResidual, math.Abs(times[i]-fit)/fit)
	}
	return f, nil
}
