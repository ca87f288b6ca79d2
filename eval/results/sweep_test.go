package results

import (
	"strings"
	"testing"
)

func TestReadSweepRefusesOutputCutShort(t *testing.T) {
	tests := []struct{ name, data, want string }{
		{"a.jsonl", "{\"point\":0,\"points\":2}\n{\"point\":1,\"points\":2}", "a.jsonl:2: the last line is cut short"},
		{"a.txt", "point 0/2: size 32B\npoint 1/2: size", "a.txt:2: the last line is cut short"},
		{"a.csv", "point,points,size\n0,2,32\n1,2,6", "a.csv: the last line is cut short"},
		{"a.txt", "point zero: size 32B\n", "a.txt:1: not a point of a sweep's output"},
		{"a.jsonl", "{\"point\":0}\n", "a.jsonl:1: not a point of a sweep's JSON output"},
		{"a.csv", "point,points,size\n0,2\n", "a.csv: record on line 2: wrong number of fields"},
	}
	for _, tt := range tests {
		_, _, err := ReadSweep(tt.name, []byte(tt.data))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ReadSweep(%q) error = %v; want one containing %q", tt.data, err, tt.want)
		}
	}
}

func TestReadSweepKeepsEachPointsBytes(t *testing.T) {
	lines, header, err := ReadSweep("a.csv", []byte("point,points,size\n1,2,64\n0,2,\"3,2\"\n"))
	if err != nil || header != "point,points,size\n" || len(lines) != 2 || string(lines[1].Text) != "0,2,\"3,2\"\n" || lines[1].Point != 0 || lines[1].Where != "a.csv:3" {
		t.Errorf("ReadSweep of CSV = %+v, %q, %v", lines, header, err)
	}
	lines, header, err = ReadSweep("a.jsonl", []byte("{\"point\":3,\"points\":4,\"op\":\"send\"}\n"))
	if err != nil || header != "" || len(lines) != 1 || lines[0].Key != (Key{3, 4}) || lines[0].Where != "a.jsonl:1" {
		t.Errorf("ReadSweep of JSON = %+v, %q, %v", lines, header, err)
	}
	lines, _, err = ReadSweep("a.txt", []byte(SweepText(Key{2, 5})+"size 32B\n"))
	if err != nil || len(lines) != 1 || lines[0].Key != (Key{2, 5}) {
		t.Errorf("ReadSweep of text = %+v, %v", lines, err)
	}
}

func TestFormatOfTellsTheFormatsApart(t *testing.T) {
	for data, want := range map[string]Format{
		"":                      None,
		"point,points,size\n":   CSV,
		"{\"point\":0}\n":       JSON,
		"point 0/1: size 32B\n": Text,
		strings.Join(SweepHeader(nil), ",") + "\n": CSV,
	} {
		if got := FormatOf([]byte(data)); got != want {
			t.Errorf("FormatOf(%q) = %q, want %q", data, got, want)
		}
	}
}
