" Parasol machine descriptions.
autocmd BufRead,BufNewFile *.machine setfiletype parasol
