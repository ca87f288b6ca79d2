package fit

import "testing"

// mustRead reads text as the table of a file points.csv.
func mustRead(t testing.TB, text string) *Table {
	t.Helper()
	tb, err := Read("points.csv", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// mustModel is the fitting problem of the named model.
func mustModel(t testing.TB, name string) *Problem {
	t.Helper()
	md, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := md.Problem()
	if err != nil {
		t.Fatal(err)
	}
	return p
}
