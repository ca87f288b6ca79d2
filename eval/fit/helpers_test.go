package fit

import "testing"

// mustRead reads text as the table of a file points.csv.
func mustRead(t *testing.T, text string) *Table {
	t.Helper()
	tb, err := Read("points.csv", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return tb
}
