-- The code lens of a buffer (why variables show no versions; server/codelens.go).
--
-- vim.lsp.codelens.on_codelens fails when the buffer is wiped while the request is out: on
-- Neovim 0.7 with "Invalid buffer id" from nvim_buf_attach or nvim_buf_line_count, in a scheduled
-- callback the user sees. So M.handler, the client's handler of textDocument/codeLens (init.lua's
-- client config, lsp/ssalens.lua), drops an answer for a buffer no longer loaded. The plugin asks
-- for the lens itself rather than with vim.lsp.codelens.refresh(), which passes on_codelens to
-- the request, and a handler given to a request is called instead of the client's.
local M = {}

local api = vim.api

-- bufnr -> the request out for it: { client_id, again = true when asked again meanwhile }
local out = {}

--- The client handler of textDocument/codeLens: vim.lsp.codelens.on_codelens for a loaded buffer.
function M.handler(err, result, ctx, config)
  if api.nvim_buf_is_loaded(ctx.bufnr) then
    return vim.lsp.codelens.on_codelens(err, result, ctx, config)
  end
end

--- Asks the ssalens client of bufnr for its code lens and draws it. While a request is out, asks
--- once more when its answer comes (for the newest text), as long as its client runs.
function M.refresh(bufnr)
  local o = out[bufnr]
  if o and vim.lsp.get_client_by_id(o.client_id) then
    o.again = true
    return
  end
  local ssalens = require('ssalens')
  local client = ssalens.get_clients(bufnr)[1]
  if not client then
    return
  end
  local this = { client_id = client.id }
  out[bufnr] = this
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }
  ssalens.request(client, 'textDocument/codeLens', params, function(...)
    if out[bufnr] == this then
      out[bufnr] = nil
    end
    M.handler(...)
    if this.again and api.nvim_buf_is_loaded(bufnr) then
      M.refresh(bufnr)
    end
  end, bufnr)
end

return M
