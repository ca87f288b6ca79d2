-- Start Parasol's language server for *.machine buffers (editors/nvim).
-- Set vim.g.parasol_lsp_cmd = { '/path/to/parasol', 'lsp' } to choose the
-- binary; call require('parasol').setup({...}) for other options.
if vim.g.loaded_parasol_lsp then
  return
end
vim.g.loaded_parasol_lsp = true
require('parasol').setup()
