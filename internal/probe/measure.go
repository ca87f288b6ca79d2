package probe

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/parasol-lang/parasol/eval/fit"
)

// Options say what Measure measures.
type Options struct {
	Sizes      []int // ping-pong sizes, bytes
	Reps       int   // repetitions of each, the median kept
	TrainSizes []int // message sizes of the trains
	TrainCount int   // messages per train
	// Timeout bounds each pair's measurement (and each hello).
	Timeout time.Duration
	// MaxPairs bounds the pairs measured: beyond it a sample is taken,
	// every host in at least one pair, the rest at random (Seed).
	MaxPairs int
	Seed     uint64
	// Progress, when set, is called after each pair.
	Progress func(done, total int)
}

// DefaultOptions measures sizes from 1 byte to 1 MiB.
func DefaultOptions() Options {
	return Options{
		Sizes:      []int{1, 1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20},
		Reps:       15,
		TrainSizes: []int{1 << 10, 64 << 10},
		TrainCount: 16,
		Timeout:    30 * time.Second,
		MaxPairs:   200,
		Seed:       1,
	}
}

// Check says what makes the options unusable before any host is asked:
// what a server would refuse (see checkRequest), and too few sizes.
func (o Options) Check() error {
	if o.TrainCount > MaxTrain {
		return fmt.Errorf("trains of %d messages: a server takes at most %d", o.TrainCount, MaxTrain)
	}
	if o.Timeout > MaxTimeout {
		return fmt.Errorf("a timeout of %s: a server gives a request at most %s", o.Timeout, MaxTimeout)
	}
	if err := checkRequest(o.request("peer")); err != nil {
		return fmt.Errorf("a server refuses the request: %v", err)
	}
	return o.CheckSizes()
}

// CheckSizes says whether the ping-pong sizes can be fitted: a link's
// latency and speed come with standard errors, which a fit of two
// parameters can give from three different sizes, not two.
func (o Options) CheckSizes() error {
	distinct := map[int]bool{}
	for _, s := range o.Sizes {
		distinct[s] = true
	}
	if len(distinct) < 3 {
		return fmt.Errorf("ping-pong sizes %s: fitting a link's latency and speed with their errors takes at least 3 different sizes", sizeList(o.Sizes))
	}
	return nil
}

// request is the measure request of a pair whose second host is peer.
func (o Options) request(peer string) request {
	return request{Op: "measure", Peer: peer, Sizes: o.Sizes, Reps: o.Reps,
		TrainSizes: o.TrainSizes, TrainCount: o.TrainCount, TimeoutMS: o.Timeout.Milliseconds()}
}

// Pair is the measurement of one pair of hosts: A timed its messages to B.
type Pair struct {
	A, B     int
	PingPong []Sample
	Trains   []Sample
	// Fit is the linear model T = ts + tw m fitted to the ping-pong
	// medians; nil when the pair failed.
	Fit *fit.Result
	Err error
}

// Latency and Speed are the link's fitted start-up time and the inverse
// of its time per byte.
func (p *Pair) Latency() float64 { return p.Fit.Params[0].Value }
func (p *Pair) Speed() float64   { return 1 / p.Fit.Params[1].Value }

// Report is the outcome of Measure.
type Report struct {
	Hosts     []string
	Hostnames []string // as each server reported it
	// Unreachable maps a host's index to why it did not answer.
	Unreachable map[int]error
	Pairs       []*Pair
	// Sampled says the pairs are a sample of all pairs.
	Sampled bool
	Options Options
	Started time.Time
}

// Complete says every host answered and every pair was measured.
func (r *Report) Complete() bool {
	if len(r.Unreachable) > 0 {
		return false
	}
	for _, p := range r.Pairs {
		if p.Err != nil {
			return false
		}
	}
	return true
}

// Measured lists the pairs that were measured.
func (r *Report) Measured() []*Pair {
	var out []*Pair
	for _, p := range r.Pairs {
		if p.Err == nil {
			out = append(out, p)
		}
	}
	return out
}

// Failures describes every host that did not answer and every pair that
// failed, one a line.
func (r *Report) Failures() string {
	var b strings.Builder
	for i, h := range r.Hosts {
		if err, ok := r.Unreachable[i]; ok {
			var bad *BadAnswer
			if errors.As(err, &bad) {
				fmt.Fprintf(&b, "host %d (%s) %v\n", i, plain(h), err)
			} else {
				fmt.Fprintf(&b, "host %d (%s) unreachable: %v\n", i, plain(h), err)
			}
		}
	}
	for _, p := range r.Pairs {
		if p.Err != nil {
			var bad *BadAnswer
			who := ""
			if errors.As(p.Err, &bad) {
				who = "host " + strconv.Itoa(p.A) + " "
			}
			fmt.Fprintf(&b, "pair %d-%d (%s to %s) failed: %s%v\n", p.A, p.B, plain(r.Hosts[p.A]), plain(r.Hosts[p.B]), who, p.Err)
		}
	}
	return b.String()
}

// BadAnswer is a peer's answer that Measure refuses: a host name that is
// not one, or samples other than those asked for.
type BadAnswer struct {
	What string // what was wrong, e.g. `its host name "a\nb" is not a valid host name`
}

func (e *BadAnswer) Error() string { return "answered badly: " + e.What }

// checkHostname refuses a host name that could not name a host: one to
// 253 letters, digits, '-' and '_' in dot-separated labels of at most 63
// (the empty name of a server that does not know its own is allowed).
// It goes into the machine file's comments, so nothing else may.
func checkHostname(h string) error {
	ok := len(h) <= 253
	for _, label := range strings.Split(h, ".") {
		if h == "" {
			break
		}
		ok = ok && label != "" && len(label) <= 63
		for _, c := range label {
			ok = ok && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_')
		}
	}
	if !ok {
		return &BadAnswer{fmt.Sprintf("its host name %s is not a valid host name (dot-separated labels of letters, digits, '-' and '_', at most 253 characters)", quoteShort(h))}
	}
	return nil
}

// checkReply refuses an answer to a measure request that holds anything
// but what o asked for: a sample of each requested size in order, each
// of o.Reps times, every time positive and finite.
func (o Options) checkReply(rep reply) error {
	for _, l := range []struct {
		what    string
		samples []Sample
		sizes   []int
		count   int
	}{{"ping-pong", rep.PingPong, o.Sizes, 1}, {"train", rep.Trains, o.TrainSizes, max(o.TrainCount, 1)}} {
		if len(l.samples) != len(l.sizes) {
			return &BadAnswer{fmt.Sprintf("%d %s samples, %d asked for", len(l.samples), l.what, len(l.sizes))}
		}
		for i, s := range l.samples {
			if s.Size != l.sizes[i] {
				return &BadAnswer{fmt.Sprintf("%s sample %d is of %d bytes, not the %d asked for (sizes asked: %s)", l.what, i+1, s.Size, l.sizes[i], sizeList(l.sizes))}
			}
			if s.Count != l.count {
				return &BadAnswer{fmt.Sprintf("%s sample %d (%s) is of %d messages, not the %d asked for", l.what, i+1, fit.SizeLiteral(int64(s.Size)), s.Count, l.count)}
			}
			if len(s.Seconds) != max(o.Reps, 1) {
				return &BadAnswer{fmt.Sprintf("%s sample %d (%s) has %d times, not the %d repetitions asked for", l.what, i+1, fit.SizeLiteral(int64(s.Size)), len(s.Seconds), max(o.Reps, 1))}
			}
			for j, t := range s.Seconds {
				if !(t > 0) || math.IsInf(t, 0) {
					return &BadAnswer{fmt.Sprintf("%s sample %d (%s) time %d is %g s; a time must be positive and finite", l.what, i+1, fit.SizeLiteral(int64(s.Size)), j+1, t)}
				}
			}
		}
	}
	return nil
}

func sizeList(sizes []int) string {
	names := make([]string, len(sizes))
	for i, s := range sizes {
		names[i] = fit.SizeLiteral(int64(s))
	}
	return strings.Join(names, ", ")
}

// plain is s when it is printable text of reasonable length, and
// otherwise s quoted (and cut short): what a peer says goes into
// messages and the machine file's comments, one line each.
func plain(s string) string {
	if len(s) <= 500 && !strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) {
		return s
	}
	return quoteShort(s)
}

// quoteShort quotes s, at most its first 80 bytes.
func quoteShort(s string) string {
	if len(s) > 80 {
		return strconv.Quote(s[:80]) + "..."
	}
	return strconv.Quote(s)
}

// WithPort adds the default port to a host given without one.
func WithPort(host string) string {
	if _, _, err := net.SplitHostPort(host); err == nil {
		return host
	}
	return net.JoinHostPort(strings.Trim(host, "[]"), DefaultPort)
}

// Measure checks that every host serves, then measures the pairs one at a
// time (so that pairs do not disturb each other). It fails only when
// ctx ends; unreachable hosts and failed pairs are in the report.
func Measure(ctx context.Context, hosts []string, opt Options) (*Report, error) {
	if len(hosts) < 2 {
		return nil, errors.New("need at least two hosts to measure between")
	}
	if err := opt.Check(); err != nil {
		return nil, err
	}
	r := &Report{Hosts: hosts, Hostnames: make([]string, len(hosts)), Unreachable: map[int]error{}, Options: opt, Started: time.Now()}
	for i, h := range hosts {
		rep, err := call(ctx, h, request{Op: "hello"}, opt.Timeout)
		if err != nil {
			r.Unreachable[i] = err
			continue
		}
		if err := checkHostname(rep.Hostname); err != nil {
			r.Unreachable[i] = err
			continue
		}
		r.Hostnames[i] = rep.Hostname
	}
	if err := ctx.Err(); err != nil {
		return r, err
	}
	var pairs [][2]int
	for a := range hosts {
		for b := a + 1; b < len(hosts); b++ {
			if r.Unreachable[a] == nil && r.Unreachable[b] == nil {
				pairs = append(pairs, [2]int{a, b})
			}
		}
	}
	if opt.MaxPairs > 0 && len(pairs) > opt.MaxPairs {
		pairs, r.Sampled = sample(pairs, len(hosts), opt.MaxPairs, opt.Seed), true
	}
	for i, pr := range pairs {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		p := &Pair{A: pr[0], B: pr[1]}
		rep, err := call(ctx, hosts[p.A], opt.request(hosts[p.B]), opt.Timeout+5*time.Second)
		if err == nil {
			err = opt.checkReply(rep)
		}
		if err == nil {
			p.PingPong, p.Trains = rep.PingPong, rep.Trains
			p.Fit, err = fitLink(p.PingPong)
		}
		p.Err = err
		r.Pairs = append(r.Pairs, p)
		if opt.Progress != nil {
			opt.Progress(i+1, len(pairs))
		}
	}
	return r, nil
}

// sample picks n pairs: a ring through the hosts first, so every host is
// measured, then pairs at random.
func sample(pairs [][2]int, hosts, n int, seed uint64) [][2]int {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	in := map[[2]int]bool{}
	var out [][2]int
	has := map[[2]int]bool{}
	for _, p := range pairs {
		has[p] = true
	}
	for a := 0; a < hosts && len(out) < n; a++ {
		p := [2]int{min(a, (a+1)%hosts), max(a, (a+1)%hosts)}
		if has[p] && !in[p] {
			in[p] = true
			out = append(out, p)
		}
	}
	rng.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
	for _, p := range pairs {
		if len(out) >= n {
			break
		}
		if !in[p] {
			in[p] = true
			out = append(out, p)
		}
	}
	return out
}

// PingPong measures the median one-way time of size-byte messages from
// this process to a serving host, as a pair's ping-pong does.
func PingPong(ctx context.Context, host string, size, reps int, timeout time.Duration) (float64, error) {
	d, err := dialData(ctx, WithPort(host), size, timeout)
	if err != nil {
		return 0, err
	}
	defer d.c.Close()
	s := Sample{Size: size, Count: 1}
	for i := -1; i < max(reps, 1); i++ {
		t, err := d.pingPong(size)
		if err != nil {
			return 0, timeoutError(err, timeout)
		}
		if i >= 0 {
			s.Seconds = append(s.Seconds, t)
		}
	}
	d.send('q', 0, 0)
	return s.Median(), nil
}

// call sends one control request and reads its reply.
func call(ctx context.Context, host string, req request, timeout time.Duration) (reply, error) {
	deadline := time.Now().Add(timeout)
	d := net.Dialer{Deadline: deadline}
	c, err := d.DialContext(ctx, "tcp", host)
	if err != nil {
		return reply{}, dialError(err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.SetDeadline(time.Now()) })
	defer stop()
	c.SetDeadline(deadline)
	b, _ := json.Marshal(req)
	if _, err := c.Write(append(b, '\n')); err != nil {
		return reply{}, err
	}
	rep, err := decodeReply(bufio.NewReader(io.LimitReader(c, maxReply)).ReadBytes('\n'))
	if err != nil && ctx.Err() != nil {
		return reply{}, ctx.Err()
	}
	return rep, timeoutError(err, timeout)
}

// decodeReply reads a reply line; the error of one that failed is the
// server's own message, quoted if it is not plain text.
func decodeReply(line []byte, err error) (reply, error) {
	if err != nil {
		return reply{}, err
	}
	var rep reply
	if err := json.Unmarshal(line, &rep); err != nil {
		return reply{}, fmt.Errorf("not a parasol probe server (its answer is not a probe reply)")
	}
	if rep.Error != "" {
		return rep, errors.New(plain(rep.Error))
	}
	return rep, nil
}

// dialError drops the "dial tcp ADDR:" prefix the report already gives.
func dialError(err error) error {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		var se *os.SyscallError
		if errors.As(oe.Err, &se) {
			return se.Err
		}
		return oe.Err
	}
	return err
}

func hostname() string {
	h, _ := os.Hostname()
	return h
}

// fitLink fits T = ts + tw m to the ping-pong medians. A start-up time
// cannot be negative, yet on a loaded host the small sizes' medians can
// sit below the line the large ones draw, and the free fit's ts falls
// under zero: a machine with that latency would not load. The best fit
// with ts ≥ 0 then has ts = 0, so tw is refitted with ts held there.
func fitLink(samples []Sample) (*fit.Result, error) {
	r, err := fitMedians(samples, false)
	if err != nil {
		return nil, err
	}
	if r.Params[0].Value < 0 {
		ts := fit.Param{Name: r.Params[0].Name, Dim: r.Params[0].Dim}
		if r, err = fitMedians(samples, true); err != nil {
			return nil, err
		}
		r.Params = append([]fit.Param{ts}, r.Params...)
	}
	if r.Params[1].Value <= 0 {
		return nil, fmt.Errorf("the ping-pong times do not grow with the message size (t_w = %s): measure larger sizes", fit.Literal(r.Params[1].Value, r.Params[1].Dim))
	}
	return r, nil
}

// fitMedians fits the linear model to the medians, ts free or held at 0.
func fitMedians(samples []Sample, noStartup bool) (*fit.Result, error) {
	var b strings.Builder
	b.WriteString("size,time")
	if noStartup {
		b.WriteString(",ts")
	}
	b.WriteString("\n")
	for _, s := range samples {
		fmt.Fprintf(&b, "%d,%gs", s.Size, s.Median())
		if noStartup {
			b.WriteString(",0s")
		}
		b.WriteString("\n")
	}
	md, err := fit.Lookup("linear")
	if err != nil {
		return nil, err
	}
	p, err := md.Problem()
	if err != nil {
		return nil, err
	}
	if noStartup {
		p.Free = slices.DeleteFunc(p.Free, func(f fit.Free) bool { return f.Name == "ts" })
	}
	// Timing noise grows with the time: without weights the largest
	// message would decide the start-up time of the smallest.
	p.Relative = true
	t, err := fit.Read("ping-pong", []byte(b.String()))
	if err != nil {
		return nil, err
	}
	return fit.Fit(p, t)
}
