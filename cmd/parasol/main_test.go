package main

import "testing"

func TestListWords(t *testing.T) {
	for _, tt := range []struct {
		words []string
		want  string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a or b"},
		{[]string{"a", "b", "c"}, "a, b or c"},
	} {
		if got := listWords(tt.words, "or"); got != tt.want {
			t.Errorf("listWords(%q) = %q; want %q", tt.words, got, tt.want)
		}
	}
}
