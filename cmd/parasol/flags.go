package main

import (
	"errors"
	"flag"
	"io"
	"os"

	"github.com/chzyer/readline"
	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/internal/limits"
)

// newFlagSet makes the flag set a command declares its flags on. Help is
// printed by command.exec, and only when asked for: the flag package calls
// Usage itself on -h and on every flag error.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseInterspersed parses flags that may stand before, between or after
// the positional arguments (parasol sim std:xmp64 --op transpose).
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return nil, err
			}
			if qe := flagValueError(fs); qe != nil {
				err = qe
			}
			return nil, usageError("parasol %s: %v\nRun 'parasol %s --help' for usage.", fs.Name(), err, fs.Name())
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil // everything after -- is an argument
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// machineFlags are the flags every command that loads a machine shares.
type machineFlags struct {
	cmd       string // the command, for messages
	machine   string
	topology  string // the machine's topology (eval.WithTopology)
	sets      setList
	maxMemory memoryLimit
	env       *env
}

// register declares the flags on fs; e is where the command reads and
// writes, for the REPL's machine and progress on a terminal.
func (mf *machineFlags) register(fs *flag.FlagSet, e *env) {
	mf.env, mf.cmd = e, fs.Name()
	mf.maxMemory = memoryFlag()
	fs.StringVar(&mf.machine, "machine", "", "select a machine of a file with several (default: the first)")
	fs.StringVar(&mf.topology, "topology", "", topologyUsage)
	fs.Var(&mf.sets, "set", "override a field or param, PATH=VALUE (repeatable), e.g. --set 'topology(100).link(0).linkspeed=5MB/s'")
	fs.Var(&mf.maxMemory, "max-memory", maxMemoryUsage)
}

const topologyUsage = "make the topology labelled `NAME` the machine's topology for every answer: the network simulated, the processors ranks run on, and the derived indexes (diameter, avgdist, nodes, …) and hops the analytic answer reads (default: the first)"

const maxMemoryUsage = "bound the memory loading and simulating may use, a `SIZE` such as 512MB or 4GB: a topology, a simulation or a check whose estimate exceeds it is refused with the figure, and Go's garbage collector works harder as the process nears it (a soft limit on all the Go runtime's memory, not a cap the kernel enforces) (default: $" + limits.EnvVar + ", else the smallest of a quarter of physical memory, what ulimit -v leaves and the cgroup's memory limit, checked by the estimates only; a limit above what the process may allocate is refused)"

// memory is the --max-memory limit in bytes, 0 for the default.
func (mf *machineFlags) memory() int64 { return mf.maxMemory.bytes() }

func (mf *machineFlags) load(spec string) (*eval.Machine, error) {
	if e := mf.env; e != nil && e.session != nil && spec == sessionMachine {
		return mf.fromSession(e.session)
	}
	opts := []eval.Option{eval.WithMachine(mf.machine), eval.WithTopology(mf.topology), eval.WithMaxMemory(mf.memory())}
	for _, s := range mf.sets {
		opts = append(opts, eval.WithSet(s.Path, s.Value))
	}
	if e := mf.env; e != nil && e.isTerminal {
		var bar *progress
		opts = append(opts, eval.WithProgress(func(what string, done, total int) {
			if bar == nil {
				bar = newProgress(e.stderr, total, what)
			}
			bar.update(done, total)
			if done == total {
				bar.done()
				bar = nil
			}
		}))
	}
	load := func() (*eval.Machine, error) { return mf.topologyUsage(eval.Load(spec, opts...)) }
	if e := mf.env; e != nil && e.machines != nil {
		return e.machines.load(cacheKey(spec, mf.machine, mf.topology, mf.sets, mf.memory()), load)
	}
	return load()
}

// topologyUsage makes a --topology the machine does not have a usage
// error naming the flag, with the closest label or the machine's labels.
func (mf *machineFlags) topologyUsage(m *eval.Machine, err error) (*eval.Machine, error) {
	var nt *eval.NoTopologyError
	if errors.As(err, &nt) {
		return nil, usageError("parasol %s: --topology %s: %s", mf.cmd, mf.topology, nt.Message())
	}
	return m, err
}

type setList []eval.Set

func (s *setList) String() string { return "" }

func (s *setList) Set(v string) error {
	set, err := eval.ParseSet(v)
	if err != nil {
		return err
	}
	*s = append(*s, set)
	return nil
}

// isTerminal asks the terminal driver, so that /dev/null (a character
// device too) does not count.
func isTerminal(f *os.File) bool { return readline.IsTerminal(int(f.Fd())) }
