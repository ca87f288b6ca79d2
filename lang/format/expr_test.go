package format_test

import "testing"

// A name written as a string keeps its quotes unless it reads back as the
// same plain name or number.
func TestFormatQuotesLabelsAndNodeTypes(t *testing.T) {
	tests := []struct{ in, want string }{
		{`processor "0x1p3" {}`, `processor "0x1p3" {}`},
		{`processor "+5" {}`, `processor "+5" {}`},
		{`processor "1." {}`, `processor "1." {}`},
		{`processor "x y" {}`, `processor "x y" {}`},
		{`processor "in" {}`, `processor "in" {}`},
		{`processor "12" {}`, `processor 12 {}`},
		{`processor "2.5e-3" {}`, `processor 2.5e-3 {}`},
		{`processor "p" {}`, `processor p {}`},
		{`topology t = ring(2) { node 0 = "q{" }`, "topology t = ring(2) {\n\t\tnode 0 = \"q{\"\n\t}"},
		{`topology t = ring(2) { node 0 = "link" }`, "topology t = ring(2) {\n\t\tnode 0 = \"link\"\n\t}"},
		{`topology t = ring(2) { node 0 = "1.5" }`, "topology t = ring(2) {\n\t\tnode 0 = 1.5\n\t}"},
		{`topology t = ring(2) { node 0 = "p" }`, "topology t = ring(2) {\n\t\tnode 0 = p\n\t}"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := formatChecked(t, "machine \"m\" {\n\t"+tt.in+"\n}\n")
			if want := "machine \"m\" {\n\t" + tt.want + "\n}\n"; got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}
