package runtime

import (
	"fmt"
	"reflect"
	"testing"
	"unsafe"
)

// The score-based adaptive routings break ties at random (seed 003
// §2.4.2) with the run's generator: on an idle 4-node hypercube both
// minimal first links from 0 to 3 are equally good, so over seeds both
// are taken, and a seed always takes the same one.
func TestAdaptiveTiesRandom(t *testing.T) {
	spec := basic(mustGen(t, "hypercube", 2), 1e-8, 1e8)
	for _, r := range []string{"least-used", "quiet", "short-queue", "first-ready"} {
		first := func(seed uint64) int32 { // the node 0 -> 3 went through
			s, res := runOnce(t, spec, Options{Op: "send", Src: Node(0), Dst: Node(3), Size: 32, Seed: seed, Routing: r})
			if len(res.lat) != 1 {
				t.Fatalf("%s: %d messages", r, len(res.lat))
			}
			for _, a := range s.net.g.Adj(0) {
				if s.wire(s.net.wire(a.Link, 0)).load > 0 {
					return a.Node
				}
			}
			t.Fatalf("%s: no load out of node 0", r)
			return -1
		}
		seen := map[int32]int{}
		for seed := range uint64(40) {
			v := first(seed)
			seen[v]++
			if w := first(seed); w != v {
				t.Fatalf("%s seed %d: via %d, then via %d", r, seed, v, w)
			}
		}
		if len(seen) != 2 {
			t.Errorf("%s: first hops over 40 seeds %v, want both 1 and 2", r, seen)
		}
	}
}

// TestNewPacketSetsEveryFieldButTheRing: newPacket sets a reused record
// field by field (not the ring, whose places a packet writes before it
// reads them); every field, those added later included, must come out as
// on a fresh record. A record whose every field but the ring holds junk
// (numbers, flags, a spilled path of hops) is made the next packet of a
// part, data and acknowledgement, and compared with the same packet made
// on a zeroed record, field by field as reflect lists them.
func TestNewPacketSetsEveryFieldButTheRing(t *testing.T) {
	spec := basic(mustGen(t, "hypercube", 3), 1e-8, 1e8)
	spec.Switching = Wormhole
	n, err := compile(spec, "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, ack := range []bool{false, true} {
		make1 := func(junk bool) packet {
			s := newSim(n, &Options{})
			s.reset(1)
			s.parts = append(s.parts, part{src: 1, dst: 6, npk: 3, sent: 2, bytes: 100, last: 40})
			s.pkts = append(s.pkts, packet{})
			if junk {
				v := reflect.ValueOf(&s.pkts[0]).Elem()
				for i := range v.NumField() {
					f := reflect.NewAt(v.Field(i).Type(), unsafe.Pointer(v.Field(i).UnsafeAddr())).Elem()
					switch f.Kind() {
					case reflect.Int32, reflect.Int64:
						f.SetInt(int64(7 + i))
					case reflect.Float64:
						f.SetFloat(float64(3 + i))
					case reflect.Bool:
						f.SetBool(true)
					case reflect.Slice:
						f.Set(reflect.ValueOf([]hop{{end: 1, ch: 2, seq: 3}}))
					}
				}
				s.free = append(s.free, 0)
			}
			id := s.newPacket(0, 1, 6, ack)
			return s.pkts[id]
		}
		fresh, reused := make1(false), make1(true)
		fv, rv := reflect.ValueOf(fresh), reflect.ValueOf(reused)
		for i := range fv.NumField() {
			name := fv.Type().Field(i).Name
			a, b := fv.Field(i), rv.Field(i)
			switch {
			case name == "ring":
			case a.Kind() == reflect.Slice:
				if a.Len() != 0 || b.Len() != 0 {
					t.Errorf("ack %v: %s has %d and %d elements, want none", ack, name, a.Len(), b.Len())
				}
			case fmt.Sprint(a) != fmt.Sprint(b): // (fmt reads unexported fields)
				t.Errorf("ack %v: %s is %v on a reused record, %v on a fresh one", ack, name, b, a)
			}
		}
	}
}
