package format_test

import (
	"strings"
	"testing"
)

// Each comment keeps its place: after the code of its line when code may
// follow it there, on a line of its own otherwise, and inside the body it
// was written in.
func TestFormatKeepsCommentsInPlace(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"after the brace of an empty then branch followed by else",
			`machine "m" {
  param fast = 1
  topology t = ring(4) {
    if fast { # c
    } else {
      link 0 -- 2
    }
  }
}
`,
			`machine "m" {
	param fast = 1
	topology t = ring(4) {
		if fast { # c
		} else {
			link 0 -- 2
		}
	}
}
`},
		{"before the closing brace of a block and of a machine",
			`machine "m" {
	processor p {
		clock = 1GHz
		# before the closing brace
	}
	# before the machine's closing brace
}
`,
			`machine "m" {
	processor p {
		clock = 1GHz
		# before the closing brace
	}
	# before the machine's closing brace
}
`},
		{"after the closing brace of a then branch followed by else",
			`machine "m" {
	topology t = ring(4) {
		if true {
			link 0 -- 1
		} # after the then branch
		else {
			link 1 -- 2
		}
	}
}
`,
			`machine "m" {
	topology t = ring(4) {
		if true {
			link 0 -- 1
		} else { # after the then branch
			link 1 -- 2
		}
	}
}
`},
		{"on a line of its own between a branch and else",
			`machine "m" {
	topology t = ring(4) {
		if true {
			link 0 -- 1
		}
		# between the branch and else
		else {
			link 1 -- 2
		}
	}
}
`,
			`machine "m" {
	topology t = ring(4) {
		if true {
			link 0 -- 1
		} else { # between the branch and else
			link 1 -- 2
		}
	}
}
`},
		{"inside empty blocks",
			`machine "m" { # on the machine line
	processor p {} # after an empty block
	processor q { # inside an empty block
	}
	processor r {
		# alone in an empty block
	}
}
`,
			`machine "m" { # on the machine line
	processor p {} # after an empty block
	processor q {  # inside an empty block
	}
	processor r {
		# alone in an empty block
	}
}
`},
		{"inside empty for, if and else bodies",
			`machine "m" {
	topology t = ring(4) {
		for i in 0 .. 3 { # inside an empty for
		}
		for i in 0 .. 3 {
			# alone in an empty for
		}
		if true {} else { # inside an empty else
		}
		if true {
			# alone in an empty then
		}
	}
}
`,
			`machine "m" {
	topology t = ring(4) {
		for i in 0 .. 3 { # inside an empty for
		}
		for i in 0 .. 3 {
			# alone in an empty for
		}
		if true {} else { # inside an empty else
		}
		if true {
			# alone in an empty then
		}
	}
}
`},
		{"in link and bus bodies",
			`machine "m" {
	topology t = ring(4) {
		link 0 -- 1 { # inside an empty link body
		}
		link 0 -- 2 {
			latency = 1ns # in a link body
			# before the link's closing brace
		}
		bus 0, 1, 2 {
			# in an empty bus body
		}
		link 1 -- 2 # after a link
	}
}
`,
			`machine "m" {
	topology t = ring(4) {
		link 0 -- 1 # inside an empty link body
		link 0 -- 2 {
			latency = 1ns # in a link body
			# before the link's closing brace
		}
		bus 0, 1, 2
		# in an empty bus body
		link 1 -- 2 # after a link
	}
}
`},
		{"after one-line blocks and statements sharing a line",
			`machine "m" {
	processor p { clock = 1GHz } # after a one-line block
	processor q { clock = 1GHz # after its only field
	}
	x = 1; y = 2 # after the second statement of a line
}
`,
			`machine "m" {
	processor p {
		clock = 1GHz
	} # after a one-line block
	processor q {
		clock = 1GHz # after its only field
	}
	x = 1
	y = 2 # after the second statement of a line
}
`},
		{"in parameter lists, multi-line expressions and block heads",
			`machine "m" {
	f(a, # in a parameter list
	  b) = a + b
	g = 1 +
	    # inside a multi-line expression
	    2
	h = max(1,
	        2) # after a multi-line call
	topology t = torus(4, # in generator arguments
	                   4) {
		node 0 .. # in a node range
		  3 = p
	}
}
`,
			`machine "m" {
	f(a, b) = a + b            # in a parameter list
	g = 1 + 2                  # inside a multi-line expression
	h = max(1, 2)              # after a multi-line call
	topology t = torus(4, 4) { # in generator arguments
		node 0 .. 3 = p # in a node range
	}
}
`},
		{"around else if",
			`machine "m" {
	topology t = ring(4) {
		if false {
			link 0 -- 1
		} else # on the else line
		if true { # on the else if line
			link 1 -- 2
		} else if false {
			# in the last branch
		}
	}
}
`,
			`machine "m" {
	topology t = ring(4) {
		if false {
			link 0 -- 1
		} else { # on the else line
			if true { # on the else if line
				link 1 -- 2
			} else if false {
				# in the last branch
			}
		}
	}
}
`},
		{"after one-line for, if and if-else",
			`machine "m" {
	topology t = ring(4) {
		for i in 0 .. 3 { link i -- i + 1 } # after a one-line for
		if true { link 0 -- 1 } # after a one-line if
		if true { link 0 -- 1 } else { link 1 -- 2 } # after a one-line if-else
	}
}
`,
			`machine "m" {
	topology t = ring(4) {
		for i in 0 .. 3 {
			link i -- i + 1
		} # after a one-line for
		if true {
			link 0 -- 1
		} # after a one-line if
		if true {
			link 0 -- 1
		} else {
			link 1 -- 2
		} # after a one-line if-else
	}
}
`},
		{"at the end of a file without a newline",
			`machine "m" {
	x = 1
} # after the machine
# at the end of the file`,
			`machine "m" {
	x = 1
} # after the machine
# at the end of the file
`},
		{"between top-level statements and machines, with blank lines",
			`# header

import "base.machine" // why
param shared = 1


# before m
machine "m" {

	x = 1

	# after a blank line
	y = 2

}
# between machines
machine "n" {}
`,
			`# header

import "base.machine" // why
param shared = 1

# before m
machine "m" {
	x = 1

	# after a blank line
	y = 2
}

# between machines
machine "n" {}
`},
		{"in a machine head and a link head",
			`machine "m" extends # in the head
	"b" {
	topology t = ring(4) {
		link 0 -- # in a link head
			1 {
			latency = 1ns
		}
		for i in 0 .. 1 # before the brace of a for
		{
			link i -- 3
		}
	}
}
machine "b" {}
`,
			`machine "m" extends "b" { # in the head
	topology t = ring(4) {
		link 0 -- 1 { # in a link head
			latency = 1ns
		}
		for i in 0 .. 1 { # before the brace of a for
			link i -- 3
		}
	}
}

machine "b" {}
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := formatChecked(t, strings.TrimLeft(tt.in, "\n")); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}
