" Parasol machine descriptions: comments start with # (or //), and
" `parasol fmt` indents with tabs.
if exists("b:did_ftplugin")
  finish
endif
let b:did_ftplugin = 1
setlocal comments=:#,:// commentstring=#\ %s
setlocal noexpandtab tabstop=8 shiftwidth=0
let b:undo_ftplugin = "setlocal comments< commentstring< expandtab< tabstop< shiftwidth<"
