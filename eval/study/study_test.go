package study

import (
	"reflect"
	"testing"
)

func TestCrossProductVariesTheLastAxisFastest(t *testing.T) {
	axes := []Axis{{Path: "a", Values: []string{"1", "2"}}}
	points, err := CrossProduct(axes, []string{"ecube", "random"}, nil, []int64{32, 64}, nil)
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		a, routing string
		size       int64
	}
	var got []key
	for i, p := range points {
		if p.Index != i {
			t.Errorf("point %d has index %d", i, p.Index)
		}
		got = append(got, key{p.Sets[0].Value, p.Routing, p.Size})
	}
	want := []key{{"1", "ecube", 32}, {"1", "ecube", 64}, {"1", "random", 32}, {"1", "random", 64},
		{"2", "ecube", 32}, {"2", "ecube", 64}, {"2", "random", 32}, {"2", "random", 64}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("points = %v\nwant %v", got, want)
	}
	if _, err := CrossProduct([]Axis{{Path: "a", Values: make([]string, 2000)}, {Path: "b", Values: make([]string, 2000)}}, nil, nil, []int64{1}, nil); err == nil {
		t.Errorf("a cross product of 4000000 points accepted")
	}
}

func TestMachineSetsSplitsArgumentsFromTheMachinesValues(t *testing.T) {
	axes := []Axis{{Path: "delta", Values: []string{"1us"}}, {Path: "n", Values: []string{"4KB"}, Arg: true}}
	points, err := CrossProduct(axes, nil, nil, []int64{0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sets, args := points[0].MachineSets(axes)
	if len(sets) != 1 || sets[0].Path != "delta" || sets[0].Value != "1us" || !reflect.DeepEqual(args, map[string]string{"n": "4KB"}) {
		t.Errorf("MachineSets = %v, %v", sets, args)
	}
	if got := Columns(axes); !reflect.DeepEqual(got, []string{"delta", "arg:n"}) {
		t.Errorf("Columns = %q", got)
	}
}

func TestPointSeedsDifferByPointAndBaseSeed(t *testing.T) {
	seen := map[uint64]bool{}
	for base := uint64(0); base < 4; base++ {
		for i := 0; i < 256; i++ {
			s := PointSeed(base, i)
			if seen[s] {
				t.Fatalf("PointSeed(%d, %d) = %d repeats an earlier seed", base, i, s)
			}
			seen[s] = true
		}
	}
}
