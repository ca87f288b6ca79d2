package main

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"
)

// A sweep point's seed passes 2^53 (splitmix64 spreads them over 64
// bits), where JSON tools reading numbers as doubles round it and the
// rounded seed reproduces a different run: "seed_str" gives it exactly,
// and 'sim --seed SEED_STR' with the point's size reproduces the point.
func TestSweepSeedsAboveTwoTo53AreAlsoStrings(t *testing.T) {
	out := runInProcess(t, "sweep", "--json", "std:xmp64", "--op", "randperm", "--size", "32,64", "--seed", "7")
	type point struct {
		Latency struct{ Mean json.Number } `json:"latency"`
		Events  int64                      `json:"events"`
		Run     struct {
			Seed    json.Number `json:"seed"`
			SeedStr *string     `json:"seed_str"`
			Size    int         `json:"size"`
		} `json:"run"`
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	n, large := 0, 0
	for dec.More() {
		var p point
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		n++
		seed, err := strconv.ParseUint(p.Run.Seed.String(), 10, 64)
		if err != nil {
			t.Fatalf("seed %s: %v", p.Run.Seed, err)
		}
		if seed < 1<<53 {
			if p.Run.SeedStr != nil {
				t.Errorf("seed %d below 2^53 has seed_str %q", seed, *p.Run.SeedStr)
			}
			continue
		}
		if p.Run.SeedStr == nil || *p.Run.SeedStr != p.Run.Seed.String() {
			t.Fatalf("seed %d: seed_str %v, want the seed in decimal", seed, p.Run.SeedStr)
		}
		large++
		var sim point
		if err := json.Unmarshal(runInProcess(t, "sim", "--json", "std:xmp64", "--op", "randperm", "--size", strconv.Itoa(p.Run.Size), "--seed", *p.Run.SeedStr), &sim); err != nil {
			t.Fatal(err)
		}
		if sim.Latency.Mean != p.Latency.Mean || sim.Events != p.Events {
			t.Errorf("sim --seed %s --size %d: latency mean %s, %d events; the point had %s, %d", *p.Run.SeedStr, p.Run.Size, sim.Latency.Mean, sim.Events, p.Latency.Mean, p.Events)
		}
	}
	if n != 2 || large == 0 {
		t.Fatalf("%d points, %d of them with a seed of 2^53 or more; want 2, at least 1", n, large)
	}
}
