-- Parasol machine descriptions.
vim.cmd([[autocmd BufRead,BufNewFile *.machine setfiletype parasol]])
