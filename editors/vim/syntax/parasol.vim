" Vim syntax file
" Language:   Parasol machine descriptions (.machine)
" Maintainer: the Parasol authors
" The words and units here are those of lang's keyword and unit tables; a Go
" test (editors/grammar_test.go) holds them to it.

if exists("b:current_syntax")
  finish
endif
scriptencoding utf-8

syn keyword parasolConditional if then else
syn keyword parasolRepeat      for in sum
syn keyword parasolOperator    and or not
syn keyword parasolBoolean     true false
syn keyword parasolKeyword     machine extends import param node link bus program let
syn keyword parasolType        processor nic switch topology modelsection
syn keyword parasolGenerator   chain dragonfly fattree flatfly full hamiltonian hypercube hyperx mesh ring star torus tree xgft
syn keyword parasolBuiltin     min max ceil floor round abs log2 log exp sqrt mod hops implied
syn keyword parasolIndex       diameter avgdist bisection nodes switches links maxtotalspeed compcomm

" A number and, right after it, its unit: 70ns, 400Mbit/s, 1.5e3KiB, 30%.
syn match parasolNumber "\v%(<\d+%(\.\d+)?|\.\d+)%([eE][+-]?\d+)?" nextgroup=parasolUnit
syn match parasolUnit contained "\v%(µs\/GiB|µs\/KiB|µs\/MiB|μs\/GiB|μs\/KiB|μs\/MiB|Gbit\/s|Kbit\/s|Mbit\/s|kbit\/s|ms\/GiB|ms\/KiB|ms\/MiB|ns\/GiB|ns\/KiB|ns\/MiB|ps\/GiB|ps\/KiB|ps\/MiB|us\/GiB|us\/KiB|us\/MiB|µs\/GB|µs\/KB|µs\/MB|µs\/kB|μs\/GB|μs\/KB|μs\/MB|μs\/kB|GiB\/s|KiB\/s|MiB\/s|bit\/s|ms\/GB|ms\/KB|ms\/MB|ms\/kB|ns\/GB|ns\/KB|ns\/MB|ns\/kB|ps\/GB|ps\/KB|ps\/MB|ps\/kB|s\/GiB|s\/KiB|s\/MiB|us\/GB|us\/KB|us\/MB|us\/kB|µs\/B|μs\/B|GB\/s|Gbit|KB\/s|Kbit|MB\/s|Mbit|kB\/s|ms\/B|ns\/B|ps\/B|s\/GB|s\/KB|s\/MB|s\/kB|us\/B|B\/s|GHz|GiB|KHz|KiB|MHz|MiB|bit|kHz|s\/B|µs|μs|GB|Hz|KB|MB|kB|ms|ns|ps|us|\%|B|s)"

syn region parasolString start=+"+ skip=+\\.+ end=+"+ end=+$+ oneline
syn keyword parasolTodo contained TODO FIXME XXX NOTE
syn match parasolComment "#.*$" contains=parasolTodo,@Spell
syn match parasolComment "//.*$" contains=parasolTodo,@Spell

hi def link parasolConditional Conditional
hi def link parasolRepeat      Repeat
hi def link parasolOperator    Operator
hi def link parasolBoolean     Boolean
hi def link parasolKeyword     Keyword
hi def link parasolType        Structure
hi def link parasolGenerator   Function
hi def link parasolBuiltin     Function
hi def link parasolIndex       Identifier
hi def link parasolNumber      Number
hi def link parasolUnit        Type
hi def link parasolString      String
hi def link parasolTodo        Todo
hi def link parasolComment     Comment

let b:current_syntax = "parasol"
