-- Inlay hints where Neovim has no vim.lsp.inlay_hint (before 0.10): the plugin requests them and
-- draws them at the end of their line (0.7 has no inline virtual text).
--
-- The work follows the windows, not the file: typescript.js has 200,000 lines and about as many
-- hints, and asking for all of them, then drawing all of them again on each window event, froze
-- Neovim for seconds. So each window asks for the lines it shows plus a window height before and
-- after (a page scrolled shows its hints at once, and the page after is asked for meanwhile),
-- the answers are kept while the text and the server's settings stay the same, and a redraw
-- computes the rows of those ranges alone and sets an extmark only where its text changed.
-- Scrolling is followed through WinScrolled, debounced; an answer for an older text, settings or
-- range is dropped.
local M = {}

local uv = vim.uv or vim.loop
local api = vim.api

local ns = api.nvim_create_namespace('ssalens_inlay_hints')
M.namespace = ns

-- The priority of the hints' extmarks. Neovim orders the end-of-line texts of a line by
-- priority, and vim.diagnostic leaves its own at the default, 4096: below it, the hints come
-- right after the code they annotate, and a long diagnostic message cannot push them past the
-- window's edge, nor swap places with them depending on which was drawn first.
M.priority = 100

local EDIT_DELAY = 200 -- ms after the last change of the text before asking again
local SCROLL_DELAY = 80 -- ms after the last scroll before asking for the lines it brought

-- bufnr -> {
--   gen: bumped when the hints must be asked again for the same text (a refresh, the settings),
--   cache: { tick, gen, encoding, ranges = { { first, last, rows = nil (asked) or row -> hints } } },
--   drawn: extmark id -> the text it shows,
--   timer }
local state = {}

-- Rendering one line. -------------------------------------------------------------------------

local function label_text(label)
  if type(label) == 'string' then
    return label
  end
  local parts = {}
  for _, p in ipairs(label) do
    table.insert(parts, p.value)
  end
  return table.concat(parts)
end

local function is_phi(h)
  return label_text(h.label):find('φ', 1, true) ~= nil
end

--- The hints of one line in source order: by position, a version hint before a φ hint at the
--- same place, else in the order the server sent them (table.sort alone is not stable).
function M.in_source_order(hints)
  local keyed = {}
  for i, h in ipairs(hints) do
    keyed[i] = { h = h, i = i, phi = is_phi(h) and 1 or 0 }
  end
  table.sort(keyed, function(a, b)
    if a.h.position.character ~= b.h.position.character then
      return a.h.position.character < b.h.position.character
    end
    if a.phi ~= b.phi then
      return a.phi < b.phi
    end
    return a.i < b.i
  end)
  local out = {}
  for i, k in ipairs(keyed) do
    out[i] = k.h
  end
  return out
end

--- The end-of-line text of the hints of one line, in source order, as virt_text chunks: a
--- version hint as the variable it follows with its version (`x₂`, `i₂→₃`, highlight
--- SsaLensVersion), a φ hint as it is (`x₃ ← φ(₁,₂)`, SsaLensPhi), two spaces apart.
function M.line_chunks(line_text, hints, offset_encoding)
  local chunks = {}
  for _, h in ipairs(M.in_source_order(hints)) do
    if #chunks > 0 then
      table.insert(chunks, { '  ', 'SsaLensVersion' })
    end
    local label = label_text(h.label)
    if is_phi(h) then
      table.insert(chunks, { label, 'SsaLensPhi' })
    else
      local col = h.position.character
      if offset_encoding ~= 'utf-8' then
        local ok, byte = pcall(vim.str_byteindex, line_text, col, offset_encoding == 'utf-16')
        col = ok and byte or math.min(col, #line_text)
      end
      local before = line_text:sub(1, col)
      local ident = before:match('[%w_$\128-\255]+$') or '' -- identifiers may be non-ASCII
      table.insert(chunks, { ident .. label, 'SsaLensVersion' })
    end
  end
  return chunks
end

--- The text of the hints of one line (line_chunks without highlights).
function M.render_line_hints(line_text, hints, offset_encoding)
  local texts = {}
  for _, c in ipairs(M.line_chunks(line_text, hints, offset_encoding)) do
    table.insert(texts, c[1])
  end
  return table.concat(texts)
end

--- Cuts chunks to width display cells, the last an ellipsis, if they are wider; nil if not even
--- the ellipsis fits.
function M.fit_chunks(chunks, width)
  local total = 0
  for _, c in ipairs(chunks) do
    total = total + vim.fn.strdisplaywidth(c[1])
  end
  if total <= width then
    return chunks
  elseif width < 1 then
    return nil
  end
  local out, room = {}, width - 1 -- a cell for the ellipsis
  for _, c in ipairs(chunks) do
    local w = vim.fn.strdisplaywidth(c[1])
    if w > room then
      local cut = ''
      for _, ch in ipairs(vim.fn.split(c[1], '\\zs')) do
        if vim.fn.strdisplaywidth(cut .. ch) > room then
          break
        end
        cut = cut .. ch
      end
      table.insert(out, { cut .. '…', c[2] })
      return out
    end
    table.insert(out, c)
    room = room - w
  end
  return out
end

-- What the windows show. ----------------------------------------------------------------------

--- The windows of the current tab page that show bufnr, each as the rows it shows (0-based),
--- its height (the margin asked for and drawn on each side) and how it lays a line out.
local function views(bufnr)
  local out = {}
  for _, win in ipairs(api.nvim_tabpage_list_wins(0)) do
    if api.nvim_win_get_buf(win) == bufnr then
      local info = vim.fn.getwininfo(win)[1]
      local wrap = vim.wo[win].wrap
      table.insert(out, {
        top = vim.fn.line('w0', win) - 1,
        bottom = vim.fn.line('w$', win) - 1,
        margin = api.nvim_win_get_height(win),
        width = api.nvim_win_get_width(win) - (info and info.textoff or 0),
        leftcol = not wrap and api.nvim_win_call(win, vim.fn.winsaveview).leftcol or nil,
      })
    end
  end
  return out
end

--- The rows of view with share × its margin on each side, within the buffer's count lines.
local function around(view, share, count)
  local m = math.floor(view.margin * share)
  return { first = math.max(0, view.top - m), last = math.min(count - 1, view.bottom + m) }
end

--- The display cells left after text on a row of view, where end-of-line text goes.
local function room_after(view, text)
  local used = vim.fn.strdisplaywidth(text)
  if view.leftcol then
    used = used - view.leftcol
  else
    used = used % view.width
  end
  return view.width - used - 1
end

--- The cache of bufnr if it holds hints of the current text and settings.
local function current_cache(bufnr)
  local st = state[bufnr]
  local c = st and st.cache
  if c and c.tick == api.nvim_buf_get_changedtick(bufnr) and c.gen == st.gen then
    return c
  end
end

-- Drawing. --------------------------------------------------------------------------------------

--- The hints of row from an answered range of cache ({} if none there), or nil if no answer
--- covers row.
local function hints_at(cache, row)
  for _, r in ipairs(cache.ranges) do
    if r.rows and r.first <= row and row <= r.last then
      return r.rows[row] or {}
    end
  end
end

local function text_of(chunks)
  local parts = {}
  for _, c in ipairs(chunks) do
    table.insert(parts, c[1] .. '\0' .. c[2])
  end
  return table.concat(parts, '\0')
end

--- Draws the hints of the rows bufnr's windows show and of their margins, from the cache, each
--- cut at the narrowest window's edge. An extmark is set only where its text changes, and the
--- extmarks of rows no window is near are deleted; rows the cache does not cover keep theirs
--- (of an older text) until the answer comes.
local function draw(bufnr)
  local st = state[bufnr]
  local cache = current_cache(bufnr)
  local vs = views(bufnr)
  if not cache or #vs == 0 or not require('ssalens').hints_enabled then
    return
  end
  local count = api.nvim_buf_line_count(bufnr)
  local rows = {} -- row -> { text, room }
  for _, view in ipairs(vs) do
    local r = around(view, 1, count)
    for i, text in ipairs(api.nvim_buf_get_lines(bufnr, r.first, r.last + 1, false)) do
      local row, room = r.first + i - 1, room_after(view, text)
      rows[row] = { text = text, room = rows[row] and math.min(rows[row].room, room) or room }
    end
  end
  local marks, drawn = {}, {}
  for _, m in ipairs(api.nvim_buf_get_extmarks(bufnr, ns, 0, -1, {})) do
    local id, row = m[1], m[2]
    if rows[row] and not marks[row] then
      marks[row], drawn[id] = id, st.drawn[id]
    else
      api.nvim_buf_del_extmark(bufnr, ns, id)
    end
  end
  for row, r in pairs(rows) do
    local hints = hints_at(cache, row)
    local id = marks[row]
    local chunks
    if hints and #hints > 0 then
      chunks = M.line_chunks(r.text, hints, cache.encoding)
      table.insert(chunks, 1, { '  ', 'SsaLensVersion' })
      chunks = M.fit_chunks(chunks, r.room)
    end
    if chunks then
      local text = text_of(chunks)
      if drawn[id] ~= text then
        id = api.nvim_buf_set_extmark(bufnr, ns, row, 0, { id = id, virt_text = chunks, virt_text_pos = 'eol', hl_mode = 'combine', priority = M.priority })
        drawn[id] = text
      end
    elseif hints and id then
      api.nvim_buf_del_extmark(bufnr, ns, id)
      drawn[id] = nil
    end
  end
  st.drawn = drawn
end

-- Requests. ---------------------------------------------------------------------------------

local function remove(list, item)
  for i, x in ipairs(list) do
    if x == item then
      table.remove(list, i)
      return true
    end
  end
end

--- Asks the server for the hints of range (rows first..last) for cache.
local function ask(bufnr, client, cache, range)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = { line = range.first, character = 0 }, ['end'] = { line = range.last + 1, character = 0 } },
  }
  require('ssalens').request(client, 'textDocument/inlayHint', params, function(err, result)
    local st = state[bufnr]
    if not st or st.cache ~= cache or not vim.tbl_contains(cache.ranges, range) then
      return -- superseded
    end
    if err or api.nvim_buf_get_changedtick(bufnr) ~= cache.tick then
      remove(cache.ranges, range) -- asked again by the next event
      return
    end
    local rows = {}
    for _, h in ipairs(result or {}) do
      local row = h.position.line
      if range.first <= row and row <= range.last then
        rows[row] = rows[row] or {}
        table.insert(rows[row], h)
      end
    end
    range.rows, cache.encoding = rows, client.offset_encoding
    draw(bufnr)
  end, bufnr)
end

--- Asks for the rows of each window of bufnr with a margin of a window height on each side,
--- unless the cache holds (or has asked for) them with half that margin; forgets the ranges no
--- window is near.
local function request_missing(bufnr)
  local st = state[bufnr]
  local client = st and require('ssalens').get_clients(bufnr)[1]
  if not client or not require('ssalens').hints_enabled then
    return
  end
  local vs = views(bufnr)
  if #vs == 0 then
    return -- asked for when a window shows it
  end
  local cache = current_cache(bufnr)
  if not cache then
    cache = { tick = api.nvim_buf_get_changedtick(bufnr), gen = st.gen, ranges = {} }
    st.cache = cache
  end
  local count = api.nvim_buf_line_count(bufnr)
  cache.ranges = vim.tbl_filter(function(r)
    for _, view in ipairs(vs) do
      local near = around(view, 1, count)
      if r.first <= near.last and near.first <= r.last then
        return true
      end
    end
    return false
  end, cache.ranges)
  for _, view in ipairs(vs) do
    local need = around(view, 0.5, count)
    local held = false
    for _, r in ipairs(cache.ranges) do
      held = held or (r.first <= need.first and need.last <= r.last)
    end
    if not held then
      local range = around(view, 1, count)
      table.insert(cache.ranges, range)
      ask(bufnr, client, cache, range)
    end
  end
end

--- Asks for what is missing after delay ms without another call for bufnr (a debounce).
local function schedule(bufnr, delay)
  local st = state[bufnr]
  if not st then
    return
  end
  st.timer = st.timer or uv.new_timer()
  st.timer:stop()
  st.timer:start(delay, 0, vim.schedule_wrap(function()
    if state[bufnr] == st then
      request_missing(bufnr)
    end
  end))
end

--- A window of bufnr scrolled, changed size or came into view: draws what the cache has for it
--- once the command is done (BufWinEnter comes before :buffer puts the cursor back, so the view
--- is not known yet), and asks for the rest once the scrolling pauses.
local function on_view(bufnr)
  local st = state[bufnr]
  if st then
    vim.schedule(function()
      if state[bufnr] == st and api.nvim_buf_is_loaded(bufnr) then
        draw(bufnr)
        schedule(bufnr, SCROLL_DELAY)
      end
    end)
  end
end

-- Window events reach one autocommand for every buffer; each looks only at the buffer of the
-- window concerned (every buffer for VimResized).
local function create_window_autocmds()
  local group = api.nvim_create_augroup('ssalens_eol_hints', { clear = true })
  api.nvim_create_autocmd({ 'VimResized', 'BufWinEnter', 'WinEnter', 'WinScrolled' }, {
    group = group,
    callback = function(args)
      if args.event == 'VimResized' then
        for bufnr in pairs(state) do
          on_view(bufnr)
        end
        return
      end
      local win = args.event == 'WinScrolled' and tonumber(args.match) or nil
      if not (win and api.nvim_win_is_valid(win)) then
        win = api.nvim_get_current_win()
      end
      on_view(api.nvim_win_get_buf(win))
    end,
  })
end

-- The public side. --------------------------------------------------------------------------

--- Draws the hints of bufnr from now on, following its edits and its windows; if it already
--- does, asks for them again.
function M.attach(bufnr)
  if state[bufnr] then
    M.refresh(bufnr)
    return
  end
  if next(state) == nil then
    create_window_autocmds()
  end
  local st = { gen = 0, drawn = {} }
  state[bufnr] = st
  local group = api.nvim_create_augroup('ssalens_hints_' .. bufnr, { clear = true })
  api.nvim_create_autocmd({ 'TextChanged', 'TextChangedI', 'InsertLeave' }, {
    group = group,
    buffer = bufnr,
    callback = function()
      schedule(bufnr, EDIT_DELAY)
    end,
  })
  api.nvim_create_autocmd({ 'BufUnload', 'BufWipeout' }, {
    group = group,
    buffer = bufnr,
    callback = function()
      if st.timer then
        st.timer:stop()
        st.timer:close()
      end
      state[bufnr] = nil
      pcall(api.nvim_del_augroup_by_id, group)
    end,
  })
  schedule(bufnr, 0)
end

--- Asks for the hints of what the windows of bufnr show again now, and draws them.
function M.refresh(bufnr)
  local st = state[bufnr]
  if st then
    st.gen = st.gen + 1
    request_missing(bufnr)
  end
end

--- Removes the hints drawn in bufnr and forgets those held.
function M.clear(bufnr)
  api.nvim_buf_clear_namespace(bufnr, ns, 0, -1)
  local st = state[bufnr]
  if st then
    st.cache, st.drawn = nil, {}
  end
end

--- The client handler of workspace/inlayHint/refresh: the hints of the client's buffers are
--- asked for again (those no window shows, when one does).
function M.on_refresh(_, _, ctx)
  for bufnr, st in pairs(state) do
    for _, c in ipairs(require('ssalens').get_clients(bufnr)) do
      if c.id == ctx.client_id then
        st.gen = st.gen + 1
        schedule(bufnr, 0)
      end
    end
  end
  return vim.NIL
end

return M
