-- ssalens' own answers, never merged with another server's: hover, the definitions that reach
-- a value and its references as location lists whose entries say which version each place is
-- (x₂ — defined on line 4), and why variables of a file have no versions.
local M = {}

local api = vim.api

--- The position of the cursor of the current window, in the client's offset encoding.
function M.cursor_params(client, bufnr)
  local row, col = unpack(api.nvim_win_get_cursor(0))
  local character = col
  if client.offset_encoding ~= 'utf-8' then
    character = vim.lsp.util.character_offset(bufnr, row - 1, col, client.offset_encoding)
  end
  return { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = row - 1, character = character } }
end

--- The byte column of character (in encoding) on line (0-based) of bufnr.
function M.byte_col(bufnr, line, character, encoding)
  if encoding == 'utf-8' then
    return character
  end
  local text = api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1] or ''
  local ok, byte = pcall(vim.str_byteindex, text, character, encoding == 'utf-16')
  return ok and byte or #text
end

--- Turns ssalens' located items into location-list entries.
function M.to_entries(items, encoding)
  local entries = {}
  for _, it in ipairs(items) do
    local bufnr = vim.uri_to_bufnr(it.uri)
    vim.fn.bufload(bufnr)
    local text = it.label
    if it.detail and it.detail ~= '' then
      text = text .. '  │ ' .. it.detail
    end
    table.insert(entries, {
      bufnr = bufnr,
      lnum = it.range.start.line + 1,
      col = M.byte_col(bufnr, it.range.start.line, it.range.start.character, encoding) + 1,
      text = text,
    })
  end
  return entries
end

--- Shows items in the window's location list, titled title, and opens it; with jump_if_one, a
--- single item is jumped to instead.
function M.show(items, title, encoding, jump_if_one)
  if jump_if_one and #items == 1 then
    local location = { uri = items[1].uri, range = items[1].range }
    if vim.lsp.util.show_document then -- 0.10+; jump_to_location is deprecated there
      vim.lsp.util.show_document(location, encoding, { focus = true })
    else
      vim.lsp.util.jump_to_location(location, encoding)
    end
    return
  end
  vim.fn.setloclist(0, {}, ' ', { title = title, items = M.to_entries(items, encoding) })
  vim.cmd('lopen')
end

--- Sends method at the cursor to the ssalens client of the current buffer and calls
--- on_result(result, client) with its answer.
local function at_cursor(method, on_result)
  local ssalens = require('ssalens')
  local bufnr = api.nvim_get_current_buf()
  local client = ssalens.get_clients(bufnr)[1]
  if not client then
    vim.notify('ssalens: no ssalens server is attached to this buffer', vim.log.levels.WARN)
    return
  end
  ssalens.request(client, method, M.cursor_params(client, bufnr), function(err, result)
    if err then
      vim.notify(('ssalens: %s failed: %s'):format(method, err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return
    end
    on_result(result ~= vim.NIL and result or nil, client)
  end, bufnr)
end

local function word()
  return vim.fn.expand('<cword>')
end

--- The definitions that reach the value at the cursor (ssalens/reachingDefinitions): one is
--- jumped to, several go to the location list.
function M.reaching_definitions()
  local name = word()
  at_cursor('ssalens/reachingDefinitions', function(items, client)
    if not items or #items == 0 then
      vim.notify('ssalens: no reaching definitions here')
      return
    end
    M.show(items, 'ssalens: reaching definitions of ' .. name, client.offset_encoding, true)
  end)
end

--- The definition and uses of the value at the cursor (ssalens/valueReferences), in the
--- location list.
function M.value_references()
  local name = word()
  at_cursor('ssalens/valueReferences', function(items, client)
    if not items or #items == 0 then
      vim.notify('ssalens: no value references here')
      return
    end
    M.show(items, 'ssalens: value references of ' .. name, client.offset_encoding, false)
  end)
end

--- ssalens' hover alone, in a floating window.
function M.hover()
  local bufnr = api.nvim_get_current_buf()
  at_cursor('textDocument/hover', function(result, client)
    if not result then
      vim.notify('ssalens: nothing to show here')
      return
    end
    vim.lsp.handlers['textDocument/hover'](nil, result, { bufnr = bufnr, client_id = client.id, method = 'textDocument/hover' }, {})
  end)
end

--- Why variables of bufnr have no versions (ssalens/unrenamed), in the location list: the
--- command of the code lens on the file's first line.
function M.unrenamed(bufnr)
  local ssalens = require('ssalens')
  bufnr = (bufnr == nil or bufnr == 0) and api.nvim_get_current_buf() or bufnr
  local client = ssalens.get_clients(bufnr)[1]
  if not client then
    return
  end
  ssalens.request(client, 'ssalens/unrenamed', { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }, function(err, result)
    if err or not result or #result.items == 0 then
      vim.notify('ssalens: every variable of this file has versions')
      return
    end
    M.show(result.items, 'ssalens: no versions for ' .. result.summary, client.offset_encoding, false)
  end, bufnr)
end

return M
