package program

import (
	"reflect"
	"testing"

	"github.com/parasol-lang/parasol/runtime"
)

// A rank's sums are made the answer's runtime.RankTimes in place
// (result), so the two must be laid out alike: as many fields, each at
// the same offset, of the same size, integers where RankTimes has
// integers and picoseconds (integers) where it has seconds.
func TestRankSumsAreLaidOutAsRankTimes(t *testing.T) {
	sums, times := reflect.TypeFor[rankSums](), reflect.TypeFor[runtime.RankTimes]()
	if sums.Size() != times.Size() || sums.NumField() != times.NumField() {
		t.Fatalf("rankSums is %d bytes in %d fields, runtime.RankTimes %d in %d", sums.Size(), sums.NumField(), times.Size(), times.NumField())
	}
	for i := range sums.NumField() {
		s, r := sums.Field(i), times.Field(i)
		if s.Offset != r.Offset || s.Type.Size() != r.Type.Size() {
			t.Errorf("field %d: rankSums.%s at %d, %d bytes; RankTimes.%s at %d, %d bytes", i, s.Name, s.Offset, s.Type.Size(), r.Name, r.Offset, r.Type.Size())
		}
		if want := map[reflect.Kind]reflect.Kind{reflect.Int: reflect.Int, reflect.Float64: reflect.Int64}[r.Type.Kind()]; s.Type.Kind() != want {
			t.Errorf("field %d: rankSums.%s is %v, want %v for RankTimes.%s (%v)", i, s.Name, s.Type.Kind(), want, r.Name, r.Type.Kind())
		}
	}
}
