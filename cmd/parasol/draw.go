package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"strings"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/eval/draw"
	"github.com/parasol-lang/parasol/runtime"
	"github.com/parasol-lang/parasol/stdlib/topo"
)

// drawCmd is parasol draw.
var drawCmd = &command{
	name:    "draw",
	summary: "draw a topology as a Graphviz graph, hot links marked from a simulation",
	args:    "[flags] MACHINE",
	doc: fmt.Sprintf(`
Draw prints a topology of the machine as a Graphviz graph: processors are
green circles, switches purple boxes, a multilink is drawn as parallel lines
marked ×c (its channels), a bus as a grey node joined to its members, an
I/O link as a line to an I/O mark. Hover over a node or link in the SVG for
its type, latency and speed.

With --sim-result, each link is coloured and widened by how busy its
busier direction was, from the output of
  parasol sim MACHINE --op OP --json --link-loads > result.json
so hot spots stand out; a legend gives the bands.

A topology of more than %d nodes is summarised (node kinds and counts,
links between kinds, the generator, a degree histogram, and the busiest
links of a simulation) unless --full is given.

--format svg runs Graphviz's dot program, which must be installed
(apt-get install graphviz, brew install graphviz); --format dot prints
the graph for any Graphviz tool: dot -Tpng graph.dot > graph.png.

Examples:
  parasol draw examples/star.machine | dot -Tsvg > star.svg
  parasol draw std:xmp64 --format svg > xmp64.svg
  parasol sim std:xmp64 --op transpose --json --link-loads > t.json
  parasol draw std:xmp64 --sim-result t.json --format svg > hot.svg`, draw.SummaryNodes),
	flags: declareDraw,
}

// declareDraw declares draw's flags on fs and returns the function that runs it.
func declareDraw(e *env, fs *flag.FlagSet) func(pos []string) error {
	var mf machineFlags
	mf.register(fs, e)
	format := newChoiceFlag("dot", "dot", "svg")
	fs.Var(format, "format", "output format: dot (Graphviz's text) or svg (drawn by Graphviz's dot program)")
	simResult := fs.String("sim-result", "", "colour links by load from a `FILE` written by parasol sim --json --link-loads (- for standard input)")
	full := fs.Bool("full", false, fmt.Sprintf("draw every node and link, even of a topology of more than %d nodes", draw.SummaryNodes))
	return func(pos []string) error {
		var err error
		if len(pos) != 1 {
			return argsError("parasol draw: need exactly one MACHINE")
		}
		if pos[0] == eval.Stdin && *simResult == eval.Stdin {
			return usageError("parasol draw: the MACHINE and --sim-result cannot both be standard input (-)")
		}
		var dotPath string
		if format.value == "svg" {
			if dotPath, err = exec.LookPath("dot"); err != nil {
				return fmt.Errorf("parasol draw: --format svg needs Graphviz's dot program, which is not on PATH; install Graphviz (apt-get install graphviz, brew install graphviz) or use --format dot and render the graph elsewhere")
			}
		}
		m, err := mf.load(pos[0])
		if err != nil {
			return err
		}
		t, err := m.Topology("")
		if err != nil {
			return err
		}
		d := &draw.Drawing{Machine: m.Name(), Topology: t}
		if *simResult != "" {
			if d.Loads, err = readLoads(*simResult, t.Graph, mf.memory()); err != nil {
				return err
			}
		}
		write := func(w io.Writer) { d.Write(w, *full) }
		if dotPath == "" {
			w := bufio.NewWriter(e.stdout)
			write(w)
			return w.Flush()
		}
		return renderSVG(dotPath, e.stdout, write)
	}
}

// renderSVG pipes the graph through Graphviz's dot into w.
func renderSVG(dotPath string, w io.Writer, write func(io.Writer)) error {
	cmd := exec.Command(dotPath, "-Tsvg")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("parasol draw: running %s: %v", dotPath, err)
	}
	bw := bufio.NewWriter(in)
	write(bw)
	werr := bw.Flush()
	in.Close()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("parasol draw: %s -Tsvg failed (%v): %s", dotPath, err, strings.TrimSpace(stderr.String()))
	}
	return werr
}

// readLoads reads a `parasol sim --json --link-loads` result and checks
// that it was simulated on this topology.
func readLoads(path string, g *topo.Graph, maxMemory int64) (*draw.Loads, error) {
	name := eval.DisplayName(path)
	data, err := eval.ReadInput(path, maxMemory)
	if err != nil {
		return nil, err
	}
	var res runtime.Result
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&res); err != nil {
		return nil, fmt.Errorf("%s is not a simulation result (parasol sim --json): %v", name, err)
	}
	if len(res.Links) == 0 {
		return nil, fmt.Errorf("%s has no per-link loads; write it with: parasol sim MACHINE --op OP --json --link-loads > %s", name, name)
	}
	return draw.NewLoads(name, &res, g)
}
