-- Parasol's language server for Neovim: `parasol lsp` is started for each
-- buffer of filetype parasol (*.machine), one server per directory.
--
--   require('parasol').setup({ cmd = { 'parasol', 'lsp' } })
--
-- Works with Neovim 0.7 (vim.lsp.start_client) and later (vim.lsp.start).
local M = {}

M.config = {
  -- The command that starts the server; vim.g.parasol_lsp_cmd overrides it.
  cmd = { 'parasol', 'lsp' },
}

local clients = {} -- client id by root directory (Neovim 0.7)

-- start attaches buffer bufnr to a parasol lsp for its directory.
function M.start(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local cmd = vim.g.parasol_lsp_cmd or M.config.cmd
  local root = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':p:h')
  local config = { name = 'parasol', cmd = cmd, root_dir = root }
  if vim.lsp.start then
    return vim.lsp.start(config, { bufnr = bufnr })
  end
  local id = clients[root]
  if not id or not vim.lsp.get_client_by_id(id) then
    id = vim.lsp.start_client(config)
    clients[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

-- setup sets the options and starts the server for parasol buffers.
function M.setup(opts)
  M.config = vim.tbl_extend('force', M.config, opts or {})
  vim.cmd([[
    augroup parasol_lsp
      autocmd!
      autocmd FileType parasol lua require('parasol').start(tonumber(vim.fn.expand('<abuf>')))
    augroup END
  ]])
end

return M
