-- What the server says of each buffer's analysis, for statuslines. The server sends the
-- notification ssalens/status (server/progress.go) when an analysis it waits on runs long
-- ("analyzing") and after each publish of diagnostics (how many functions of the file are not
-- analyzed). Each change fires `User SsaLensStatus`, so that statuslines can redraw at once:
--
--   autocmd User SsaLensStatus redrawstatus
--
-- The plugin echoes nothing itself: a message for an analysis of a second or two would stay on
-- the command line long after it.
local M = {}

local api = vim.api

local state = {} -- bufnr -> { client_id, analyzing, not_analyzed }

--- The loaded buffer whose URI is uri, if any (vim.uri_to_bufnr would make one).
local function buffer_of(uri)
  for _, bufnr in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(bufnr) and vim.uri_from_bufnr(bufnr) == uri then
      return bufnr
    end
  end
end

--- The status of bufnr as a statusline shows it: 'analyzing…', '3 not analyzed', or ''.
function M.text(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and api.nvim_get_current_buf() or bufnr
  local s = state[bufnr]
  if not s or not vim.lsp.get_client_by_id(s.client_id) then
    return '' -- the server that said it has stopped
  end
  if s.analyzing then
    return 'analyzing…'
  end
  return s.not_analyzed > 0 and ('%d not analyzed'):format(s.not_analyzed) or ''
end

local function changed()
  api.nvim_exec_autocmds('User', { pattern = 'SsaLensStatus', modeline = false })
end

--- The client handler of ssalens/status.
function M.handler(_, result, ctx)
  local bufnr = result and result.textDocument and buffer_of(result.textDocument.uri)
  if not bufnr then
    return
  end
  local before = M.text(bufnr)
  state[bufnr] = { client_id = ctx.client_id, analyzing = result.analyzing, not_analyzed = result.notAnalyzed or 0 }
  if M.text(bufnr) ~= before then
    changed()
  end
end

-- A buffer unloaded is closed for the server, which says nothing more of it.
api.nvim_create_autocmd({ 'BufUnload', 'BufWipeout' }, {
  group = api.nvim_create_augroup('ssalens_status', { clear = true }),
  callback = function(args)
    if state[args.buf] then
      state[args.buf] = nil
      changed()
    end
  end,
})

return M
