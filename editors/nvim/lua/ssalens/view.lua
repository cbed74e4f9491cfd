-- :SsaLensShow — the live Show SSA view: a scratch buffer in a split that shows the SSA form of
-- the function at the cursor of its source buffer (ssalens/functionGraph), in the hints'
-- notation, and follows the cursor and the edits. Each block lists its predecessors and
-- successors, then its φs, instructions and terminal, each after its source line; the rows of
-- the cursor's line are highlighted, and <CR> on a row jumps to its source.
local M = {}

local api = vim.api
local uv = vim.uv or vim.loop

local ns = api.nvim_create_namespace('ssalens_view')
local FOLLOW_DELAY = 150 -- ms after the cursor stops or an edit

-- The one view: its buffer, the buffer it follows, and each of its lines' source ranges.
local view = { bufnr = nil, source = nil, ranges = {}, rows = {}, timer = nil, group = nil }

local function window_of(bufnr)
  if bufnr and api.nvim_buf_is_valid(bufnr) then
    for _, win in ipairs(api.nvim_list_wins()) do
      if api.nvim_win_get_buf(win) == bufnr then
        return win
      end
    end
  end
end

--- The lines of a function graph and, by line (from 1), the range each one shows and the kind
--- of line it is (title, note, head, phi, instr, term).
function M.render(graph, file)
  local lines = { ('SSA of %s  (%s:%d)'):format(graph.name, file, graph.range.start.line + 1) }
  local ranges, kinds = {}, { 'title' }
  if not graph.analyzed then
    table.insert(lines, ('%s is not analyzed: %s.'):format(graph.name, graph.reason or ''))
    return lines, ranges, kinds
  end
  if graph.kept and graph.kept ~= vim.NIL then
    table.insert(lines, graph.kept)
    kinds[#lines] = 'note'
  end
  local preds, succs = {}, {}
  for _, e in ipairs(graph.edges) do
    preds[e.to] = preds[e.to] or {}
    table.insert(preds[e.to], 'bb' .. e.from)
    succs[e.from] = succs[e.from] or {}
    table.insert(succs[e.from], 'bb' .. e.to .. ((e.label and e.label ~= vim.NIL) and (' ' .. e.label) or '') .. (e.back and ' (back)' or ''))
  end
  for _, b in ipairs(graph.blocks) do
    local head = ('bb%d (%s)'):format(b.id, b.label)
    if preds[b.id] then
      head = head .. ' ← ' .. table.concat(preds[b.id], ', ')
    end
    if succs[b.id] then
      head = head .. ' → ' .. table.concat(succs[b.id], ', ')
    end
    table.insert(lines, head)
    ranges[#lines], kinds[#lines] = b.range, 'head'
    for _, l in ipairs(b.lines) do
      table.insert(lines, ('%5d │ %s'):format(l.range.start.line + 1, l.text))
      ranges[#lines], kinds[#lines] = l.range, l.kind
    end
  end
  return lines, ranges, kinds
end

local highlights = { title = 'Title', note = 'Comment', head = 'SsaLensBlock', phi = 'SsaLensPhi' }

--- Marks the rows of the source's cursor line.
local function mark_cursor()
  if not (view.bufnr and api.nvim_buf_is_valid(view.bufnr)) then
    return
  end
  api.nvim_buf_clear_namespace(view.bufnr, ns, 0, -1)
  for line, kind in pairs(view.kinds or {}) do
    if highlights[kind] then
      api.nvim_buf_add_highlight(view.bufnr, ns, highlights[kind], line - 1, 0, -1)
    end
  end
  local win = window_of(view.source)
  if not win then
    return
  end
  local row = api.nvim_win_get_cursor(win)[1] - 1
  local first
  for line, r in pairs(view.ranges) do
    if view.kinds[line] ~= 'head' and r.start.line == row then
      api.nvim_buf_add_highlight(view.bufnr, ns, 'SsaLensCurrent', line - 1, 0, -1)
      first = math.min(first or line, line)
    end
  end
  -- The view scrolls to the rows it marks when they are out of sight, and stays where the
  -- user scrolled it while they are in sight.
  local view_win = window_of(view.bufnr)
  if first and view_win then
    local top, bottom = unpack(api.nvim_win_call(view_win, function()
      return { vim.fn.line('w0'), vim.fn.line('w$') }
    end))
    if first < top or first > bottom then
      api.nvim_win_set_cursor(view_win, { first, 0 })
    end
  end
end

local function set_lines(lines)
  local buf = view.bufnr
  vim.bo[buf].modifiable = true
  api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].modified = false
end

--- Asks for the function at the source's cursor and shows it.
function M.update()
  local ssalens = require('ssalens')
  local source = view.source
  local win = window_of(source)
  if not (win and window_of(view.bufnr)) then
    return
  end
  local client = ssalens.get_clients(source)[1]
  if not client then
    return
  end
  local row, col = unpack(api.nvim_win_get_cursor(win))
  local character = col
  if client.offset_encoding ~= 'utf-8' then
    character = vim.lsp.util.character_offset(source, row - 1, col, client.offset_encoding)
  end
  local params = { textDocument = { uri = vim.uri_from_bufnr(source) }, position = { line = row - 1, character = character } }
  ssalens.request(client, 'ssalens/functionGraph', params, function(err, graph)
    if view.source ~= source or not (view.bufnr and api.nvim_buf_is_valid(view.bufnr)) then
      return
    end
    local file = vim.fn.fnamemodify(api.nvim_buf_get_name(source), ':t')
    local lines
    if err then
      lines, view.ranges, view.kinds = { '// ssalens/functionGraph failed: ' .. (err.message or vim.inspect(err)) }, {}, {}
    elseif graph == nil or graph == vim.NIL then
      lines, view.ranges, view.kinds = { ('// no function at %s:%d'):format(file, row) }, {}, {}
    else
      lines, view.ranges, view.kinds = M.render(graph, file)
    end
    view.encoding = client.offset_encoding
    set_lines(lines)
    mark_cursor()
  end, source)
end

local function schedule()
  view.timer = view.timer or uv.new_timer()
  view.timer:stop()
  view.timer:start(FOLLOW_DELAY, 0, vim.schedule_wrap(M.update))
end

--- Jumps from the row under the cursor of the view to its source, in the source's window.
function M.jump()
  local r = view.ranges[api.nvim_win_get_cursor(0)[1]]
  local win = window_of(view.source)
  if not (r and win) then
    return
  end
  local col = require('ssalens.lists').byte_col(view.source, r.start.line, r.start.character, view.encoding)
  api.nvim_set_current_win(win)
  api.nvim_win_set_cursor(win, { r.start.line + 1, col })
end

local function buffer()
  if view.bufnr and api.nvim_buf_is_valid(view.bufnr) then
    return view.bufnr
  end
  local buf = api.nvim_create_buf(false, true)
  vim.bo[buf].bufhidden = 'hide'
  vim.bo[buf].swapfile = false
  vim.bo[buf].filetype = 'ssalens-ssa'
  pcall(api.nvim_buf_set_name, buf, 'ssalens://SSA')
  vim.keymap.set('n', '<CR>', M.jump, { buffer = buf, desc = 'ssalens: jump to the source of this line' })
  vim.keymap.set('n', 'q', '<cmd>close<CR>', { buffer = buf, desc = 'ssalens: close the SSA view' })
  view.bufnr = buf
  return buf
end

--- Opens the view beside the current buffer, following it, or makes the open view follow it.
function M.show(split)
  local source = api.nvim_get_current_buf()
  if source == view.bufnr then
    return
  end
  view.source = source
  local buf = buffer()
  if view.group then
    pcall(api.nvim_del_augroup_by_id, view.group)
  end
  view.group = api.nvim_create_augroup('ssalens_view', { clear = true })
  api.nvim_create_autocmd({ 'CursorMoved', 'CursorMovedI' }, {
    group = view.group,
    buffer = source,
    callback = function()
      mark_cursor()
      schedule()
    end,
  })
  api.nvim_create_autocmd({ 'TextChanged', 'TextChangedI' }, { group = view.group, buffer = source, callback = schedule })
  if not window_of(buf) then
    local cur = api.nvim_get_current_win()
    vim.cmd(split == 'tab' and 'tab split' or (split == 'split' and 'belowright split' or 'belowright vsplit'))
    api.nvim_win_set_buf(0, buf)
    vim.wo.wrap = false
    vim.wo.number = false
    vim.wo.cursorline = true
    if split ~= 'tab' then
      api.nvim_set_current_win(cur)
    end
  end
  M.update()
end

M.namespace = ns

return M
