-- Headless test of the Neovim plugin against the real server. Run by test/run.sh.
-- Prints one line per check and 'N passed, N failed'; exits non-zero on any failure.
local api = vim.api
local ssalens = require('ssalens')
local eol = require('ssalens.eol_hints')

local here = debug.getinfo(1, 'S').source:sub(2)
local fixture = vim.fn.fnamemodify(here, ':p:h:h:h') .. '/testdata/sample.js'
local ts_fixture = vim.fn.fnamemodify(here, ':p:h:h:h') .. '/testdata/sample.ts'

-- Headless Neovim ends a print() with a newline only when the next message comes, and not at
-- all after some redraws: each line of the report is written to stderr whole.
local function say(line)
  io.stderr:write(line, '\n')
end
-- The plugin's messages go the same way, indented under the check that caused them.
vim.notify = function(msg)
  say('    ' .. msg)
end

local passed, failed = 0, 0
local function check(name, fn)
  local ok, err = xpcall(fn, debug.traceback)
  if ok then
    passed = passed + 1
    say('ok   ' .. name)
  else
    failed = failed + 1
    say('FAIL ' .. name .. '\n' .. tostring(err))
  end
end

local function eq(got, want, what)
  if not vim.deep_equal(got, want) then
    error(('%s:\n  got  %s\n  want %s'):format(what or 'mismatch', vim.inspect(got), vim.inspect(want)), 2)
  end
end

local function contains(s, needle, what)
  if type(s) ~= 'string' or not s:find(needle, 1, true) then
    error(('%s: %q not found in:\n%s'):format(what or 'text', needle, tostring(s)), 2)
  end
end

local function wait(ms, cond, what)
  if not vim.wait(ms, cond, 20) then
    error('timed out waiting for ' .. what, 2)
  end
end

--- The 0-based column of the `nth` `needle` on 0-based line `row` of the buffer.
local function col_of(bufnr, row, needle, nth)
  local line = api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1]
  local from = 1
  local s
  for _ = 1, nth or 1 do
    s = line:find(needle, from, true)
    assert(s, needle .. ' on line ' .. row .. ': ' .. line)
    from = s + 1
  end
  return s - 1
end

local function pos_params(bufnr, row, col)
  return { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = row, character = col } }
end

--- The one ssalens result of a buf_request_sync.
local function request(bufnr, method, params)
  local responses, err = vim.lsp.buf_request_sync(bufnr, method, params, 5000)
  assert(responses, 'no response to ' .. method .. ': ' .. tostring(err))
  for id, r in pairs(responses) do
    local c = vim.lsp.get_client_by_id(id)
    if c and c.name == 'ssalens' then
      assert(not r.err, method .. ': ' .. vim.inspect(r.err))
      return r.result
    end
  end
  error('no ssalens response to ' .. method)
end

--- Checks the hover of the `x` on row of bufnr: the φ that defines it, with heading, and its
--- operands x₁ and x₂.
local function phi_hover(bufnr, row, heading)
  local result = request(bufnr, 'textDocument/hover', pos_params(bufnr, row, col_of(bufnr, row, 'x')))
  local md = type(result.contents) == 'table' and result.contents.value or result.contents
  contains(md, heading, 'hover')
  contains(md, 'φ', 'hover')
  contains(md, '`x₁`', 'hover')
  contains(md, '`x₂`', 'hover')
end

local function eol_hints(bufnr)
  local out = {}
  for _, m in ipairs(api.nvim_buf_get_extmarks(bufnr, ssalens.hint_namespace, 0, -1, { details = true })) do
    local text = {}
    for _, chunk in ipairs(m[4].virt_text or {}) do
      table.insert(text, chunk[1])
    end
    out[m[2]] = vim.trim(table.concat(text))
  end
  return out
end

local function label(h)
  if type(h.label) == 'string' then
    return h.label
  end
  local s = ''
  for _, p in ipairs(h.label) do
    s = s .. p.value
  end
  return s
end

--- Calls fn with the fields of t replaced by those of stubs (false removes one), puts the
--- originals back, and returns what fn returns or raises its error.
local function with_stubs(t, stubs, fn)
  local saved = {}
  for k, v in pairs(stubs) do
    saved[k] = rawget(t, k)
    t[k] = v or nil
  end
  local res = { pcall(fn) }
  for k in pairs(stubs) do
    t[k] = saved[k]
  end
  if not res[1] then
    error(res[2], 0)
  end
  return unpack(res, 2, table.maxn(res))
end

check('a missing server gives a message that says how to fix it', function()
  local saved = ssalens.config.cmd
  ssalens.config.cmd = { '/nonexistent/ssalens', 'serve' }
  local cmd, msg = ssalens.server_cmd()
  ssalens.config.cmd = saved
  eq(cmd, nil, 'cmd')
  contains(msg, '/nonexistent/ssalens', 'message')
  contains(msg, 'go install github.com/ssalens/ssalens/cmd/ssalens@latest', 'message')
  contains(msg, 'server_path', 'message')
end)

check('render_line_hints turns hints into end-of-line text', function()
  local line = '  while (i < n) {'
  local hints = {
    { position = { line = 0, character = 10 }, label = '₂' },
    { position = { line = 0, character = 14 }, label = '₁' },
    { position = { line = 0, character = 17 }, label = { { value = 'i₂' }, { value = ' ← φ(' }, { value = '₁' }, { value = ',' }, { value = '₃' }, { value = ')' } } },
  }
  eq(eol.render_line_hints(line, hints, 'utf-16'), 'i₂  n₁  i₂ ← φ(₁,₃)', 'rendered')
  -- UTF-16 positions after a non-ASCII character map to the right bytes.
  eq(eol.render_line_hints('let é = 1, b = é;', { { position = { line = 0, character = 16 }, label = '₁' } }, 'utf-16'), 'é₁', 'utf-16')
end)

check('the SSA view says when a graph is of the last version that parsed', function()
  local range = { start = { line = 1, character = 0 }, ['end'] = { line = 5, character = 1 } }
  local graph = { name = 'f', range = range, analyzed = true, blocks = {}, edges = {} }
  local view = require('ssalens.view')
  local lines, _, kinds = view.render(graph, 'a.js')
  eq(lines, { 'SSA of f  (a.js:2)' }, 'without a note')
  graph.kept = 'From the last version that parsed: function f has a syntax error now, at 7:2.'
  lines, _, kinds = view.render(graph, 'a.js')
  eq(lines, { 'SSA of f  (a.js:2)', graph.kept }, 'with the note')
  eq(kinds, { 'title', 'note' }, 'kinds')
end)

check('end-of-line hints are in source order, whatever order they come in', function()
  local line = '  setOrders((prev) => prev.map((o) => o));'
  local hint = function(char, label)
    return { position = { line = 0, character = char }, label = label }
  end
  -- Scrambled, with a φ hint and a version hint at one position.
  local hints = { hint(33, '₁'), hint(39, { { value = 'o₂' }, { value = ' ← φ(₁,₃)' } }), hint(11, '₁'), hint(39, '₁'), hint(26, '₁'), hint(17, '₁') }
  eq(eol.render_line_hints(line, hints, 'utf-8'), 'setOrders₁  prev₁  prev₁  o₁  o₁  o₂ ← φ(₁,₃)', 'rendered')
  -- Highlight groups users can link: versions and φs apart.
  local chunks = eol.line_chunks(line, { hint(11, '₁'), hint(39, { { value = 'o₂ ← φ(₁,₃)' } }) }, 'utf-8')
  eq(chunks, { { 'setOrders₁', 'SsaLensVersion' }, { '  ', 'SsaLensVersion' }, { 'o₂ ← φ(₁,₃)', 'SsaLensPhi' } }, 'chunks')
end)

check('end-of-line hints are cut with an ellipsis at the given width', function()
  local chunks = { { '  ', 'SsaLensVersion' }, { 'x₃', 'SsaLensVersion' }, { '  ', 'SsaLensVersion' }, { 'x₃ ← φ(₁,₂)', 'SsaLensPhi' } }
  eq(eol.fit_chunks(chunks, 17), chunks, 'fits exactly')
  eq(eol.fit_chunks(chunks, 14), { { '  ', 'SsaLensVersion' }, { 'x₃', 'SsaLensVersion' }, { '  ', 'SsaLensVersion' }, { 'x₃ ← φ(…', 'SsaLensPhi' } }, 'cut in the φ')
  eq(eol.fit_chunks(chunks, 4), { { '  ', 'SsaLensVersion' }, { 'x…', 'SsaLensVersion' } }, 'cut in the version')
  eq(eol.fit_chunks(chunks, 1), { { '…', 'SsaLensVersion' } }, 'only the ellipsis')
  eq(eol.fit_chunks(chunks, 0), nil, 'no room')
end)

check('highlight groups are defined, linked to Comment unless the user links them', function()
  eq(vim.fn.hlexists('SsaLensVersion'), 1, 'SsaLensVersion')
  eq(vim.fn.hlexists('SsaLensPhi'), 1, 'SsaLensPhi')
  eq(vim.fn.synIDattr(vim.fn.synIDtrans(vim.fn.hlID('SsaLensPhi')), 'name'), 'Comment', 'SsaLensPhi links to Comment')
  vim.cmd('highlight link SsaLensPhi Special')
  vim.cmd('doautocmd ColorScheme')
  eq(vim.fn.synIDattr(vim.fn.synIDtrans(vim.fn.hlID('SsaLensPhi')), 'name'), 'Special', "the user's link stays")
  vim.cmd('highlight link SsaLensPhi Comment')
end)

local ok, err = xpcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(fixture))
  local bufnr = api.nvim_get_current_buf()
  eq(vim.bo.filetype, 'javascript', 'filetype')

  local client
  check('the server starts and attaches to the JavaScript buffer', function()
    wait(10000, function()
      client = ssalens.get_clients(bufnr)[1]
      return client ~= nil and client.initialized
    end, 'the client to initialize')
    eq(client.name, 'ssalens', 'client name')
    eq(client.offset_encoding, 'utf-16', 'offset encoding')
  end)
  if not client then
    return
  end

  check('hover on a φ value lists its operands', function()
    phi_hover(bufnr, 6, 'x₃') -- `  return x;`
  end)

  check('definition of a φ value gives every definition that reaches it', function()
    local row = 6
    local result = request(bufnr, 'textDocument/definition', pos_params(bufnr, row, col_of(bufnr, row, 'x')))
    if result.uri or result.targetUri then
      result = { result }
    end
    local got = {}
    for _, loc in ipairs(result) do
      local range = loc.range or loc.targetSelectionRange
      eq(loc.uri or loc.targetUri, vim.uri_from_bufnr(bufnr), 'definition uri')
      table.insert(got, { range.start.line, range.start.character })
    end
    table.sort(got, function(a, b)
      return a[1] < b[1]
    end)
    eq(got, { { 2, col_of(bufnr, 2, 'x') }, { 4, col_of(bufnr, 4, 'x') } }, 'definitions')
  end)

  check('references of one SSA value', function()
    local row = 11 -- `  while (i < n) {`: i₂
    local params = pos_params(bufnr, row, col_of(bufnr, row, 'i <'))
    params.context = { includeDeclaration = false }
    local result = request(bufnr, 'textDocument/references', params)
    local got = {}
    for _, loc in ipairs(result) do
      table.insert(got, loc.range.start.line)
    end
    table.sort(got)
    eq(got, { 11, 12, 14 }, 'reference lines')
  end)

  check('inlay hints through the client: versions and φs with exact labels', function()
    local lines = api.nvim_buf_line_count(bufnr)
    local result = request(bufnr, 'textDocument/inlayHint', {
      textDocument = { uri = vim.uri_from_bufnr(bufnr) },
      range = { start = { line = 0, character = 0 }, ['end'] = { line = lines, character = 0 } },
    })
    local got = {}
    for _, h in ipairs(result) do
      table.insert(got, ('%d %s'):format(h.position.line, label(h)))
    end
    eq(got, {
      '1 ₁', '2 ₁', '3 ₁', '4 ₂', '5 x₃ ← φ(₁,₂)', '6 ₃',
      '9 ₁', '10 ₁', '11 ₂', '11 ₁', '11 i₂ ← φ(₁,₃)', '12 ₂→₃', '14 ₂',
      '18 ₁', '19 ₂', '20 ₂',
    }, 'hints')
  end)

  -- typescript.js of the npm corpus (treesitter/corpus), when it is fetched.
  local typescript = (os.getenv('SSALENS_CORPUS_DIR') or (os.getenv('HOME') .. '/.cache/ssalens-corpus')) .. '/typescript@6.0.3/lib/typescript.js'

  if vim.lsp.inlay_hint == nil then
    check('hints are drawn at the end of each line (Neovim < 0.10)', function()
      local hints
      wait(5000, function()
        hints = eol_hints(bufnr)
        return hints[5] ~= nil
      end, 'end-of-line hints')
      eq(hints[1], 'c₁', 'line 2')
      eq(hints[3], 'c₁', 'line 4')
      eq(hints[5], 'x₃ ← φ(₁,₂)', 'line 6')
      eq(hints[6], 'x₃', 'line 7')
      eq(hints[11], 'i₂  n₁  i₂ ← φ(₁,₃)', 'line 12')
      eq(hints[12], 'i₂→₃', 'line 13')
    end)

    check('end-of-line hints come before the virtual text of a diagnostic on their line', function()
      local diagnostics = api.nvim_create_namespace('ssalens_test_diagnostics')
      vim.diagnostic.set(diagnostics, bufnr, { { lnum = 5, col = 0, message = 'a long message', severity = vim.diagnostic.severity.WARN } },
        { virtual_text = true })
      local function priority(namespace)
        local marks = api.nvim_buf_get_extmarks(bufnr, namespace, { 5, 0 }, { 5, -1 }, { details = true })
        return marks[1] and marks[1][4].priority
      end
      local hint, message = priority(ssalens.hint_namespace), priority(vim.diagnostic.get_namespace(diagnostics).user_data.virt_text_ns)
      vim.diagnostic.reset(diagnostics, bufnr)
      if not (hint and message and hint < message) then
        error(string.format('the hint of line 6 has priority %s, the diagnostic %s: Neovim puts the lower first', hint, message))
      end
    end)

    check(':SsaLensToggleHints hides and shows the hints', function()
      vim.cmd('SsaLensToggleHints')
      eq(next(eol_hints(bufnr)), nil, 'no hints after toggling off')
      vim.cmd('SsaLensToggleHints')
      wait(5000, function()
        return eol_hints(bufnr)[5] ~= nil
      end, 'hints to come back')
    end)

    check('workspace/inlayHint/refresh after a settings change redraws the hints', function()
      vim.lsp.buf_notify(bufnr, 'workspace/didChangeConfiguration', { settings = { ssalens = { inlayHints = { versions = false } } } })
      wait(5000, function()
        local h = eol_hints(bufnr)
        return h[1] == nil and h[5] == 'x ← φ(L3,L5)'
      end, 'only φ hints, naming their operands\' lines, after the server asked for a refresh')
      vim.lsp.buf_notify(bufnr, 'workspace/didChangeConfiguration', { settings = { ssalens = { inlayHints = { versions = true } } } })
      wait(5000, function()
        return eol_hints(bufnr)[1] == 'c₁'
      end, 'version hints again')
    end)
  end

  --- Types keys in normal mode, mappings applied, as a user does.
  local function press(keys)
    api.nvim_feedkeys(api.nvim_replace_termcodes(keys, true, false, true), 'x', false)
  end

  --- The location list of the current window, once something is in it: its title and its
  --- entries as `line: text`. It is emptied after.
  local function loclist()
    wait(5000, function()
      return vim.fn.getloclist(0, { size = 1 }).size > 0
    end, 'the location list')
    local l = vim.fn.getloclist(0, { title = 1, items = 1 })
    local entries = {}
    for _, it in ipairs(l.items) do
      table.insert(entries, ('%d: %s'):format(it.lnum, it.text))
    end
    vim.fn.setloclist(0, {}, 'f')
    return l.title, entries
  end

  check('keymaps are set on attach: K, gd, gr, <leader>ss, <leader>sh', function()
    for key, desc in pairs({
      K = 'ssalens: hover',
      gd = 'ssalens: reaching definitions',
      gr = 'ssalens: value references',
      ['<leader>ss'] = 'ssalens: Show SSA (live)',
      ['<leader>sh'] = 'ssalens: toggle inlay hints',
    }) do
      local m = vim.fn.maparg(key, 'n', false, true)
      eq({ m.buffer, m.desc }, { 1, desc }, key)
    end
    -- Other keys, or none: on_attach sets what the configuration says.
    local saved = ssalens.config.keymaps
    local other, none = api.nvim_create_buf(true, false), api.nvim_create_buf(true, false)
    ssalens.config.keymaps = { hover = false, reaching_definitions = '<leader>D' }
    ssalens.on_attach(client, other)
    ssalens.config.keymaps = false
    ssalens.on_attach(client, none)
    ssalens.config.keymaps = saved
    api.nvim_buf_call(other, function()
      eq(vim.fn.maparg('<leader>D', 'n', false, true).desc, 'ssalens: reaching definitions', '<leader>D')
      eq(vim.fn.maparg('K', 'n'), '', 'no K')
    end)
    api.nvim_buf_call(none, function()
      eq(vim.fn.maparg('gd', 'n'), '', 'no gd')
    end)
    vim.cmd('silent bwipeout! ' .. other .. ' ' .. none)
  end)

  check('gd lists the definitions reaching a φ, with their versions', function()
    api.nvim_win_set_cursor(0, { 7, col_of(bufnr, 6, 'x') }) -- `return x;`
    press('gd')
    local title, entries = loclist()
    eq(title, 'ssalens: reaching definitions of x', 'title')
    eq(entries, { '3: x₁ — defined on line 3  │ let x = 1;', '5: x₂ — defined on line 5  │ x = 2;' }, 'entries')
    vim.cmd('lclose')
    eq(api.nvim_get_current_buf(), bufnr, 'back in the source')
    -- One definition: gd jumps to it.
    api.nvim_win_set_cursor(0, { 21, col_of(bufnr, 20, 'y') }) -- `return y;`
    press('gd')
    wait(5000, function()
      return api.nvim_win_get_cursor(0)[1] == 20
    end, 'the jump to y₂')
  end)

  check('gr lists the value references of i₂, the φ first', function()
    api.nvim_win_set_cursor(0, { 12, col_of(bufnr, 11, 'i <') })
    press('gr')
    local title, entries = loclist()
    eq(title, 'ssalens: value references of i', 'title')
    eq(entries, {
      '12: i₂ ← φ(₁,₃) — φ on line 12  │ while (i < n) {',
      '12: i₂ — read on line 12  │ while (i < n) {',
      '13: i₂ — read on line 13  │ i++;',
      '15: i₂ — read on line 15  │ return i;',
    }, 'entries')
    vim.cmd('lclose')
  end)

  check('K shows the hover of ssalens alone', function()
    api.nvim_win_set_cursor(0, { 7, col_of(bufnr, 6, 'x') })
    press('K')
    local float
    wait(5000, function()
      for _, w in ipairs(api.nvim_list_wins()) do
        if api.nvim_win_get_config(w).relative ~= '' then
          float = w
        end
      end
      return float ~= nil
    end, 'the hover window')
    contains(table.concat(api.nvim_buf_get_lines(api.nvim_win_get_buf(float), 0, -1, false), '\n'), 'x₃', 'hover')
    api.nvim_win_close(float, true)
  end)

  if vim.lsp.inlay_hint == nil then
    check(':SsaLensScope function shows the hints of the function at the cursor, which the server is told', function()
      api.nvim_win_set_cursor(0, { 13, 4 }) -- in count
      vim.cmd('SsaLensScope function')
      wait(5000, function()
        local h = eol_hints(bufnr)
        return h[1] == nil and h[11] == 'i₂  n₁  i₂ ← φ(₁,₃)' and h[18] == nil
      end, 'the hints of count only')
      api.nvim_win_set_cursor(0, { 3, 4 }) -- in pick
      vim.cmd('doautocmd CursorMoved')
      wait(5000, function()
        local h = eol_hints(bufnr)
        return h[1] == 'c₁' and h[11] == nil
      end, 'the hints of pick only')
      vim.cmd('SsaLensScope file')
      wait(5000, function()
        local h = eol_hints(bufnr)
        return h[1] == 'c₁' and h[11] ~= nil and h[18] ~= nil
      end, 'every hint again')
    end)

    check('end-of-line hints are cut with an ellipsis at the window edge', function()
      vim.cmd('vnew')
      vim.cmd('wincmd l')
      vim.cmd('vertical resize 30')
      api.nvim_buf_clear_namespace(bufnr, ssalens.hint_namespace, 0, -1)
      ssalens.refresh_hints(bufnr)
      wait(5000, function()
        return eol_hints(bufnr)[11] ~= nil
      end, 'the hints drawn again')
      eq(eol_hints(bufnr)[11]:sub(-3), '…', 'cut with an ellipsis')
      -- `  while (i < n) {` takes 17 cells; the hint, after the cell at its end, fills the rest.
      local win = vim.fn.bufwinid(bufnr)
      local width = api.nvim_win_get_width(win) - vim.fn.getwininfo(win)[1].textoff
      eq(vim.fn.strdisplaywidth('  ' .. eol_hints(bufnr)[11]), width - 17 - 1, 'the hint fills the window')
      vim.cmd('wincmd h')
      vim.cmd('close')
      ssalens.refresh_hints(bufnr)
      wait(5000, function()
        return eol_hints(bufnr)[11] == 'i₂  n₁  i₂ ← φ(₁,₃)'
      end, 'the whole hint in the whole window')
    end)

    --- Opens file at line with a server of its own (stopped after) and calls fn(probe), where
    --- probe.buf is the file's buffer, probe.asked the rows of each textDocument/inlayHint since
    --- the last probe.bounded(), and probe.sent and probe.answered count those requests and their
    --- answers in all.
    --- probe.bounded(what) lets the scrolling's debounce pass, waits for every answer and for a
    --- hint on a row the window shows, then checks that each request since the last call asked
    --- for three window heights at most, and that hints are drawn only within a window height of
    --- the rows shown.
    local function on_large_file(file, line, fn)
      local probe = { asked = {}, sent = 0, answered = 0 }
      local request = ssalens.request
      local stubs = {
        request = function(c, method, params, handler, ...)
          if method ~= 'textDocument/inlayHint' then
            return request(c, method, params, handler, ...)
          end
          table.insert(probe.asked, { params.range.start.line, params.range['end'].line })
          probe.sent = probe.sent + 1
          return request(c, method, params, function(...)
            probe.answered = probe.answered + 1
            return handler(...)
          end, ...)
        end,
      }
      function probe.bounded(what)
        local top, bottom, height = vim.fn.line('w0') - 1, vim.fn.line('w$') - 1, api.nvim_win_get_height(0)
        vim.wait(200)
        wait(60000, function()
          local hints = eol_hints(probe.buf)
          for row = top, bottom do
            if hints[row] then
              return probe.answered == probe.sent
            end
          end
        end, 'hints on the rows shown ' .. what)
        local ranges = {}
        for _, r in ipairs(probe.asked) do
          assert(r[2] - r[1] <= 3 * height, ('rows %d–%d asked %s: more than 3 windows of %d'):format(r[1], r[2], what, height))
          table.insert(ranges, ('%d–%d'):format(r[1], r[2]))
        end
        for row in pairs(eol_hints(probe.buf)) do
          assert(top - height <= row and row <= bottom + height, ('a hint drawn on row %d %s, rows %d–%d shown'):format(row, what, top, bottom))
        end
        say(('    %s %s: rows %d–%d shown, rows %s asked'):format(vim.fn.fnamemodify(file, ':t'), what, top, bottom, #ranges > 0 and table.concat(ranges, ', ') or 'none'))
        probe.asked = {}
      end
      local c
      local ok, err = pcall(with_stubs, ssalens, stubs, function()
        vim.cmd(('edit +%d %s'):format(line, vim.fn.fnameescape(file)))
        probe.buf = api.nvim_get_current_buf()
        wait(10000, function()
          c = ssalens.get_clients(probe.buf)[1]
          return c ~= nil and c.initialized
        end, 'a client for the file')
        fn(probe)
      end)
      vim.cmd('buffer ' .. bufnr)
      if c then
        vim.lsp.stop_client(c.id)
        wait(5000, function()
          return vim.lsp.get_client_by_id(c.id) == nil
        end, 'the client of the file to stop')
      end
      if probe.buf then
        vim.cmd('silent bwipeout! ' .. probe.buf)
      end
      if not ok then
        error(err, 0)
      end
    end

    --- Scrolls the current window with the keys of a normal-mode command, and fires WinScrolled
    --- (a headless Neovim does not).
    local function scroll(keys)
      vim.cmd('normal! ' .. api.nvim_replace_termcodes(keys, true, false, true))
      vim.cmd('doautocmd WinScrolled')
    end

    check('on a large file the hints are asked for and drawn only around what the window shows', function()
      -- 30,000 lines: a function of five lines, 6,000 times, in a folder of its own.
      local dir = vim.fn.tempname()
      vim.fn.mkdir(dir)
      local file = dir .. '/large.js'
      local text = {}
      for i = 1, 6000 do
        vim.list_extend(text, { ('function f%d(a) {'):format(i), '  let x = a;', '  if (a > 1) x = 2;', '  return x;', '}' })
      end
      vim.fn.writefile(text, file)
      on_large_file(file, 15000, function(p)
        p.bounded('after :edit')

        -- Five pages down: the rows shown are asked for, those left behind lose their hints.
        scroll('5<C-f>')
        p.bounded('after 5 pages down')

        -- Away and back: nothing asked, nothing drawn again. :buffer puts the cursor's line in
        -- the middle of the window: so does zz here, and every answer is waited for.
        scroll('zz')
        vim.wait(300)
        wait(10000, function()
          return p.answered == p.sent
        end, 'the answers')
        p.asked = {}
        local marks_set, set_extmark = 0, api.nvim_buf_set_extmark
        vim.cmd('buffer ' .. bufnr)
        with_stubs(api, {
          nvim_buf_set_extmark = function(...)
            marks_set = marks_set + 1
            return set_extmark(...)
          end,
        }, function()
          vim.cmd('buffer ' .. p.buf)
          vim.wait(500)
        end)
        eq({ #p.asked, marks_set }, { 0, 0 }, 'requests and extmarks set after switching back')

        -- An edit: its line's hints change, the rest are asked for with it.
        local top = vim.fn.line('w0') - 1
        local row = top + 5 - top % 5 + 1 -- a `let x = a;`
        api.nvim_buf_set_lines(p.buf, row, row + 1, false, { '  let x = a + a;' })
        vim.cmd('doautocmd TextChanged')
        wait(10000, function()
          return eol_hints(p.buf)[row] == 'x₁  a₁  a₁'
        end, 'the hints of the line edited')
        p.bounded('after an edit')
      end)
      vim.fn.delete(dir, 'rf')
    end)

    if vim.fn.filereadable(typescript) == 1 then
      check('typescript.js: the hints of the rows shown are asked for, and scrolling brings those of the new rows', function()
        on_large_file(typescript, 1, function(p)
          p.bounded('after :edit')
          scroll('100000Gzz')
          p.bounded('after a jump to line 100000')
          scroll('<C-f>')
          p.bounded('after a page down')
          scroll('3<C-y>')
          p.bounded('after 3 lines up')
        end)
      end)
    else
      say('skip the hints of typescript.js: ' .. typescript .. ' is not fetched')
    end
  end

  check('the code lens says why variables have no versions, and its command lists them', function()
    local file = vim.fn.tempname() .. '.js'
    vim.fn.writefile({ 'function f(o) {', '  let n = 0;', '  const inc = () => { n++; };', '  return n + window.x;', '}' }, file)
    vim.cmd('edit ' .. vim.fn.fnameescape(file))
    local other = api.nvim_get_current_buf()
    local c
    wait(10000, function()
      c = ssalens.get_clients(other)[1]
      return c ~= nil and c.initialized
    end, 'a client for the file')
    local lens
    wait(5000, function()
      vim.lsp.codelens.refresh()
      lens = vim.lsp.codelens.get(other)[1]
      return lens ~= nil and lens.command ~= nil
    end, 'the code lens')
    eq(lens.command.title, 'ssalens: no versions for 1 global, 1 context variable', 'title')
    api.nvim_win_set_cursor(0, { 1, 0 })
    vim.lsp.codelens.run()
    local title, entries = loclist()
    eq(title, 'ssalens: no versions for 1 global, 1 context variable', 'title')
    eq(entries, {
      '4: window — a global: no declaration in this file  │ return n + window.x;',
      '2: n — a context variable: it is assigned in the nested function inc  │ let n = 0;',
    }, 'entries')
    vim.cmd('lclose')
    vim.cmd('buffer ' .. bufnr)
    vim.lsp.stop_client(c.id)
    wait(5000, function()
      return vim.lsp.get_client_by_id(c.id) == nil
    end, 'the client of the file to stop')
    vim.cmd('silent bwipeout! ' .. other)
    os.remove(file)
  end)

  check('the code lens of a buffer wiped while it is asked for is dropped, without an error', function()
    local file = vim.fn.tempname() .. '.js'
    vim.fn.writefile({ 'function f() {', '  return window.x;', '}' }, file)
    vim.cmd('edit ' .. vim.fn.fnameescape(file))
    local gone = api.nvim_get_current_buf()
    local c
    wait(10000, function()
      c = ssalens.get_clients(gone)[1]
      return c ~= nil and c.initialized and vim.lsp.codelens.get(gone)[1] ~= nil
    end, 'a client for the file and its code lens')
    --- The ids of the requests of textDocument/codeLens of c that are out.
    local function lens_out()
      local ids = {}
      for id, r in pairs(c.requests) do
        if r.method == 'textDocument/codeLens' and r.type == 'pending' then
          table.insert(ids, id)
        end
      end
      return ids
    end
    wait(5000, function()
      return #lens_out() == 0
    end, 'the first code lens answered')
    -- Asked for on entering the buffer, and once more after two edits, once that is answered.
    local sent, request = 0, ssalens.request
    with_stubs(ssalens, {
      request = function(cl, method, ...)
        sent = sent + (method == 'textDocument/codeLens' and 1 or 0)
        return request(cl, method, ...)
      end,
    }, function()
      vim.cmd('doautocmd BufEnter')
      vim.cmd('doautocmd TextChanged')
      vim.cmd('doautocmd TextChanged')
      eq({ sent, #lens_out() }, { 1, 1 }, 'requests sent and out after the edits')
      wait(5000, function()
        return sent == 2 and #lens_out() == 0
      end, 'the lens asked for again, and answered')
    end)
    -- The buffer is wiped while the lens is asked for.
    vim.v.errmsg = ''
    vim.cmd('doautocmd BufEnter')
    eq(#lens_out(), 1, 'requests out')
    vim.cmd('buffer ' .. bufnr)
    vim.cmd('silent bwipeout! ' .. gone)
    wait(5000, function()
      return #lens_out() == 0
    end, 'the answer')
    vim.wait(100) -- its handler runs scheduled
    eq(vim.v.errmsg, '', 'the error of the answer')
    -- The handlers of the client configurations, for requests made without one, drop it too.
    local lsp_config = assert(loadfile(vim.fn.fnamemodify(here, ':p:h:h') .. '/lsp/ssalens.lua'))()
    local ctx = { method = 'textDocument/codeLens', client_id = c.id, bufnr = gone }
    c.config.handlers['textDocument/codeLens'](nil, {}, ctx)
    lsp_config.handlers['textDocument/codeLens'](nil, {}, ctx)
    vim.lsp.stop_client(c.id)
    wait(5000, function()
      return vim.lsp.get_client_by_id(c.id) == nil
    end, 'the client of the file to stop')
    os.remove(file)
  end)

  --- Records what require('ssalens').status(buf) says each time User SsaLensStatus fires; returns
  --- the record and a function that stops recording.
  local function record_status(buf)
    local seen = { ssalens.status(buf) }
    local id = api.nvim_create_autocmd('User', {
      pattern = 'SsaLensStatus',
      callback = function()
        local text = ssalens.status(buf)
        if seen[#seen] ~= text then
          table.insert(seen, text)
        end
      end,
    })
    return seen, function()
      api.nvim_del_autocmd(id)
    end
  end

  check('status() counts the functions not analyzed, from ssalens/status, and forgets a closed buffer', function()
    eq(ssalens.status(bufnr), '', 'sample.js: every function analyzed')
    vim.cmd('edit ' .. vim.fn.fnameescape(vim.fn.fnamemodify(fixture, ':h') .. '/not-analyzed.js'))
    local other = api.nvim_get_current_buf()
    local seen, stop = record_status(other)
    wait(10000, function()
      return ssalens.status() == '2 not analyzed'
    end, 'the count of not-analyzed.js (a with statement, a direct eval)')
    eq(seen, { '', '2 not analyzed' }, 'what User SsaLensStatus announced')
    eq(ssalens.status(bufnr), '', 'sample.js still')
    vim.cmd('buffer ' .. bufnr)
    vim.cmd('silent bwipeout! ' .. other)
    stop()
    eq(ssalens.status(other), '', 'forgotten')
  end)

  check('the ssalens/status handler: analyzing, then the count; nothing of a buffer not loaded or a server stopped', function()
    local handler = client.config.handlers['ssalens/status']
    local uri = vim.uri_from_bufnr(bufnr)
    local seen, stop = record_status(bufnr)
    local notify = function(params, client_id)
      handler(nil, params, { method = 'ssalens/status', client_id = client_id or client.id })
    end
    notify({ textDocument = { uri = uri }, version = 9, analyzing = true, notAnalyzed = 0 })
    eq(ssalens.status(bufnr), 'analyzing…', 'while analyzing')
    eq(ssalens.status(), 'analyzing…', 'the current buffer by default')
    notify({ textDocument = { uri = uri }, version = 9, analyzing = false, notAnalyzed = 3 })
    eq(ssalens.status(bufnr), '3 not analyzed', 'once analyzed')
    notify({ textDocument = { uri = uri }, version = 9, analyzing = false, notAnalyzed = 3 })
    notify({ textDocument = { uri = uri }, version = 10, analyzing = false, notAnalyzed = 0 })
    eq(seen, { '', 'analyzing…', '3 not analyzed', '' }, 'an event for each change, none for the same status again')
    stop()
    local buffers = #api.nvim_list_bufs()
    notify({ textDocument = { uri = 'file:///nowhere/else.js' }, version = 1, analyzing = true, notAnalyzed = 0 })
    eq(#api.nvim_list_bufs(), buffers, 'no buffer made for a file not loaded')
    notify({ textDocument = { uri = uri }, version = 11, analyzing = true, notAnalyzed = 0 }, 12345)
    eq(ssalens.status(bufnr), '', 'said by a client that is not running')
    notify({ textDocument = { uri = uri }, version = 11, analyzing = false, notAnalyzed = 0 })
  end)

  if vim.fn.filereadable(typescript) == 1 then
    check('status() says analyzing… while the server analyzes typescript.js, and then not', function()
      vim.cmd('edit ' .. vim.fn.fnameescape(typescript))
      local ts = api.nvim_get_current_buf()
      local seen, stop = record_status(ts)
      wait(60000, function()
        return #seen >= 3
      end, 'analyzing… and its end')
      stop()
      say('    status() of typescript.js: ' .. vim.inspect(seen))
      eq({ seen[1], seen[2] }, { '', 'analyzing…' }, 'first')
      assert(seen[3] ~= 'analyzing…', 'the analysis ends')
      vim.cmd('buffer ' .. bufnr)
      vim.cmd('silent bwipeout! ' .. ts)
    end)
  else
    say('skip status() on typescript.js: ' .. typescript .. ' is not fetched')
  end

  check(':SsaLensShow opens a live view of the function at the cursor, which follows it and leads back', function()
    api.nvim_win_set_cursor(0, { 13, 4 }) -- on `i++` in count
    local wins = #api.nvim_list_wins()
    press('<leader>ss')
    local ssa
    local function text()
      return table.concat(api.nvim_buf_get_lines(ssa, 0, -1, false), '\n')
    end
    wait(5000, function()
      for _, b in ipairs(api.nvim_list_bufs()) do
        if api.nvim_buf_get_name(b):find('ssalens://', 1, true) then
          ssa = b
        end
      end
      return ssa ~= nil and api.nvim_buf_line_count(ssa) > 2
    end, 'the SSA buffer')
    eq(#api.nvim_list_wins(), wins + 1, 'opened in a split')
    eq(api.nvim_get_current_buf(), bufnr, 'the cursor stays in the source')
    contains(text(), 'SSA of count  (sample.js:10)', 'SSA buffer')
    contains(text(), 'bb1 (while) ← bb0, bb2 → bb2 then, bb3 else', 'SSA buffer')
    contains(text(), '   12 │ i₂ ← φ(₁,₃)', 'SSA buffer')
    contains(text(), '   13 │ StoreLocal i₃ = $6', 'SSA buffer')
    eq(text():find('$2: phi', 1, true), nil, 'no second notation')
    eq(vim.bo[ssa].modifiable, false, 'read-only')
    eq(vim.bo[ssa].buftype, 'nofile', 'scratch')
    -- The rows of the cursor's line are marked.
    local marked = {}
    for _, m in ipairs(api.nvim_buf_get_extmarks(ssa, require('ssalens.view').namespace, 0, -1, { details = true })) do
      if m[4].hl_group == 'SsaLensCurrent' then
        table.insert(marked, api.nvim_buf_get_lines(ssa, m[2], m[2] + 1, false)[1]:match('^%s*(%d+)'))
      end
    end
    eq(marked, { '13', '13', '13', '13' }, 'the rows of line 13')

    -- In a view too short to show them, it scrolls to the rows of the cursor's line.
    local view_win = vim.fn.bufwinid(ssa)
    local height = api.nvim_win_get_height(view_win)
    api.nvim_win_set_height(view_win, 3)
    api.nvim_win_call(view_win, function()
      vim.cmd('normal! gg')
    end)
    api.nvim_win_set_cursor(0, { 11, 4 })
    vim.cmd('doautocmd CursorMoved')
    api.nvim_win_set_cursor(0, { 13, 4 })
    vim.cmd('doautocmd CursorMoved')
    wait(5000, function()
      local top, bottom = unpack(api.nvim_win_call(view_win, function()
        return { vim.fn.line('w0'), vim.fn.line('w$') }
      end))
      local shown = table.concat(api.nvim_buf_get_lines(ssa, top - 1, bottom, false), '\n')
      return shown:find('   13 │', 1, true) ~= nil
    end, 'the rows of line 13 in sight')
    api.nvim_win_set_height(view_win, height)

    -- It follows the cursor to pick.
    api.nvim_win_set_cursor(0, { 4, 4 })
    vim.cmd('doautocmd CursorMoved')
    wait(5000, function()
      return text():find('SSA of pick', 1, true) ~= nil
    end, 'the view of pick')
    contains(text(), 'x₃ ← φ(₁,₂)', 'SSA buffer')

    -- <CR> on a row jumps to its source line in the source window.
    local ssa_win = vim.fn.bufwinid(ssa)
    api.nvim_set_current_win(ssa_win)
    for n, l in ipairs(api.nvim_buf_get_lines(ssa, 0, -1, false)) do
      if l:find('StoreLocal x₂', 1, true) then
        api.nvim_win_set_cursor(ssa_win, { n, 0 })
      end
    end
    press('<CR>')
    eq(api.nvim_get_current_buf(), bufnr, 'in the source')
    eq(api.nvim_win_get_cursor(0), { 5, 4 }, 'on `x = 2`')

    -- It follows edits of the source.
    api.nvim_buf_set_lines(bufnr, 4, 4, false, { '    x = x + 40;' })
    vim.cmd('doautocmd TextChanged')
    wait(5000, function()
      return text():find('Const 40', 1, true) ~= nil
    end, 'the SSA buffer to follow the edit')
    api.nvim_buf_set_lines(bufnr, 4, 5, false, {})
    vim.cmd('doautocmd TextChanged')
    api.nvim_win_close(ssa_win, true)
  end)

  check(':checkhealth ssalens reports the server, its version, the code paths and the buffers', function()
    vim.cmd('silent checkhealth ssalens')
    local text = vim.trim(table.concat(api.nvim_buf_get_lines(0, 0, -1, false), '\n'))
    vim.cmd('tabclose')
    -- After checkhealth's redraw, a message starts on the line of the one before: end that line.
    io.stderr:write('\n')
    say('    ' .. text:gsub('\n', '\n    '))
    local bin = os.getenv('SSALENS_BIN')
    local server = ('server: %s (started as `%s serve`)'):format(vim.fn.exepath(bin), bin)
    contains(text, '## ssalens: server\n  - OK: ' .. server, 'health')
    contains(text, '\n  - OK: version: ssalens ', 'health')
    contains(text, '## ssalens: Neovim\n  - INFO: NVIM v', 'health')
    -- The paths this Neovim takes: on 0.7, its oldest ones.
    if ssalens.start_api() == 'vim.lsp.start_client' then
      contains(text, '\n  - OK: starts the server with vim.lsp.start_client + vim.lsp.buf_attach_client', 'health')
    end
    if vim.lsp.inlay_hint == nil then
      contains(text, '\n  - OK: inlay hints: drawn by the plugin at the end of the line', 'health')
    end
    contains(text, ('## ssalens: buffers\n  - OK: client %d (running, root '):format(client.id), 'health')
    contains(text, (' attached to buffer %d %s'):format(bufnr, vim.fn.fnamemodify(fixture, ':~:.')), 'health')
    eq(text:find('ERROR', 1, true), nil, 'no error')
    eq(api.nvim_get_current_buf(), bufnr, 'back in the source')
  end)

  -- The code paths of newer Neovims, with the core APIs they call stubbed (CI has 0.7.2).

  check('lsp/ssalens.lua is a vim.lsp.config for 0.11', function()
    local root = vim.fn.fnamemodify(here, ':p:h:h')
    local cfg = assert(loadfile(root .. '/lsp/ssalens.lua'))()
    eq(cfg.cmd, { 'ssalens', 'serve' }, 'cmd')
    eq(cfg.filetypes, { 'javascript', 'javascriptreact', 'typescript', 'typescriptreact' }, 'filetypes')
    eq(cfg.settings.ssalens.inlayHints, { versions = true, phis = true }, 'settings')
    eq(cfg.init_options, cfg.settings, 'init_options')
    assert(vim.tbl_contains(cfg.root_markers, 'package.json'), 'root_markers')
    eq(type(cfg.handlers['ssalens/status']), 'function', 'the handler of ssalens/status, for status()')
  end)

  check('setup() uses vim.lsp.config and vim.lsp.enable where they exist', function()
    local configured, enabled = {}, {}
    local saved_opts = vim.deepcopy(ssalens.config)
    with_stubs(vim.lsp, {
      config = function(name, cfg)
        configured[name] = cfg
      end,
      enable = function(name)
        table.insert(enabled, name)
      end,
    }, function()
      eq(ssalens.start_api(), 'vim.lsp.config', 'start_api')
      ssalens.setup({ server_path = os.getenv('SSALENS_BIN'), settings = { ssalens = { inlayHints = { phis = false } } } })
    end)
    ssalens.config = saved_opts
    eq(enabled, { 'ssalens' }, 'enabled')
    local cfg = configured.ssalens
    eq(cfg.cmd, { os.getenv('SSALENS_BIN'), 'serve' }, 'cmd')
    eq(cfg.settings.ssalens.inlayHints, { versions = true, phis = false, phiOnly = false, scope = 'file', maxPerLine = 0 }, 'settings merged over the defaults')
    eq(cfg.commands, ssalens.commands, 'the client-side commands')
    eq(cfg.init_options, cfg.settings, 'init_options')
    eq(cfg.on_attach, ssalens.on_attach, 'on_attach')
  end)

  check('attach() uses vim.lsp.start where it exists', function()
    local calls = {}
    local start = function(config, opts)
      table.insert(calls, { config, opts })
      return 42
    end
    with_stubs(vim.lsp, { start = start, config = false }, function()
      eq(ssalens.start_api(), 'vim.lsp.start', 'start_api')
      eq(ssalens.attach(bufnr), 42, 'client id')
    end)
    eq(#calls, 1, 'calls')
    local config, opts = calls[1][1], calls[1][2]
    eq(config.name, 'ssalens', 'name')
    eq(config.cmd, { os.getenv('SSALENS_BIN'), 'serve' }, 'cmd')
    eq(config.on_attach, ssalens.on_attach, 'on_attach')
    eq(config.root_dir, client.config.root_dir, 'root_dir')
    eq(opts, { bufnr = bufnr }, 'opts')
  end)

  check('on_attach turns on vim.lsp.inlay_hint where it exists', function()
    local calls = {}
    local inlay_hint = {
      enable = function(on, filter)
        table.insert(calls, { on, filter })
      end,
    }
    with_stubs(vim.lsp, { inlay_hint = inlay_hint }, function()
      ssalens.on_attach(client, bufnr)
    end)
    eq(calls, { { true, { bufnr = bufnr } } }, 'enable calls')
  end)

  -- A client of 0.11, whose request and notify are methods of its class (client:request), or
  -- one of 0.7–0.10, whose request and notify are its own functions (client.request).
  local function fake_client(with_methods, calls)
    local function record(kind)
      return function(...)
        table.insert(calls, { kind, ... })
        return true, 1
      end
    end
    local fake = { id = 99, name = 'ssalens', offset_encoding = 'utf-16', config = { settings = { ssalens = {} } } }
    if with_methods then
      local class = { request = record('request'), notify = record('notify') } -- as vim.lsp.Client
      class.__index = class
      return setmetatable(fake, class)
    end
    fake.request, fake.notify = record('request'), record('notify')
    return fake
  end

  check('client requests and notifications use the method form where the client class has it', function()
    for _, with_methods in ipairs({ true, false }) do
      local calls, filters = {}, {}
      local fake = fake_client(with_methods, calls)
      -- vim.lsp.get_clients (0.10+) too, with its filter.
      local get_clients = function(filter)
        table.insert(filters, filter)
        return { fake }
      end
      with_stubs(vim.lsp, { get_clients = get_clients, inlay_hint = false }, function()
        ssalens.refresh_hints(bufnr)
        ssalens.client_config(bufnr).on_init(fake)
      end)
      eq(filters, { { bufnr = bufnr, name = 'ssalens' } }, 'get_clients filter')
      local request, notify = calls[1], calls[2]
      eq({ request[1], notify[1], #calls }, { 'request', 'notify', 2 }, 'calls')
      -- The method form passes the client first.
      local m = with_methods and 3 or 2
      if with_methods then
        assert(request[2] == fake and notify[2] == fake, 'the client is not passed as self')
      end
      eq({ request[m], notify[m] }, { 'textDocument/inlayHint', 'workspace/didChangeConfiguration' }, 'methods')
    end
  end)

  --- The health check's report, one line an item, with vim.health's functions named prefix ..
  --- 'start' and so on, vim.lsp.config (whose ssalens entry has cmd) and vim.lsp.inlay_hint stubbed.
  local function stubbed_health(prefix, cmd)
    local out = {}
    local health = {}
    for _, kind in ipairs({ 'start', 'ok', 'info', 'warn', 'error' }) do
      health[prefix .. kind] = function(msg)
        table.insert(out, kind .. ': ' .. msg)
      end
    end
    local config = setmetatable({ ssalens = { cmd = cmd } }, { __call = function() end })
    with_stubs(vim, { health = health }, function()
      with_stubs(vim.lsp, { config = config, enable = function() end, inlay_hint = {} }, require('ssalens.health').check)
    end)
    return table.concat(out, '\n')
  end

  check(':checkhealth ssalens uses vim.health and reports vim.lsp.config and vim.lsp.inlay_hint', function()
    local bin = os.getenv('SSALENS_BIN')
    -- vim.health.start, ok, … (0.10+), then vim.health.report_start, … (0.8, 0.9).
    for _, prefix in ipairs({ '', 'report_' }) do
      local text = stubbed_health(prefix, { bin, 'serve', '--stdio' })
      local server = ('server: %s (started as `%s serve --stdio`)'):format(vim.fn.exepath(bin), bin)
      contains(text, 'start: ssalens: server\nok: ' .. server .. '\nok: version: ssalens ', 'health')
      contains(text, '\nok: starts the server with vim.lsp.config + vim.lsp.enable', 'health')
      contains(text, '\nok: inlay hints: vim.lsp.inlay_hint, inline\n', 'health')
      contains(text, ('start: ssalens: buffers\nok: client %d '):format(client.id), 'health')
    end
    -- A server command that is not ssalens: its version fails.
    local text = stubbed_health('', { 'sh', '-c', 'exit 3', 'serve' })
    contains(text, '\nwarn: `sh -c exit 3 version` failed (status 3): \n', 'health')
  end)

  check('a TypeScript buffer: versions and φs, and a φ hover with the declared type', function()
    vim.cmd('edit ' .. vim.fn.fnameescape(ts_fixture))
    local tsbuf = api.nvim_get_current_buf()
    eq(vim.bo.filetype, 'typescript', 'filetype')
    wait(10000, function()
      local c = ssalens.get_clients(tsbuf)[1]
      return c ~= nil and c.initialized
    end, 'the client to attach to the TypeScript buffer')
    -- Both kinds of hint, whatever the checks above left set.
    vim.lsp.buf_notify(tsbuf, 'workspace/didChangeConfiguration', { settings = { ssalens = { inlayHints = { versions = true, phis = true } } } })
    local got
    wait(5000, function()
      local result = request(tsbuf, 'textDocument/inlayHint', {
        textDocument = { uri = vim.uri_from_bufnr(tsbuf) },
        range = { start = { line = 0, character = 0 }, ['end'] = { line = api.nvim_buf_line_count(tsbuf), character = 0 } },
      })
      got = {}
      for _, h in ipairs(result) do
        table.insert(got, ('%d %s'):format(h.position.line, label(h)))
      end
      return #got > 2
    end, 'version hints')
    eq(got, {
      '4 ₁', '5 ₁', '6 ₁', '7 ₂', '8 x₃ ← φ(₁,₂)', '9 ₃',
      '12 ₁', '12 ₁', '13 ₁', '14 ₂', '14 ₁', '14 i₂ ← φ(₁,₃)', '15 ₂→₃', '17 ₁', '17 ₂',
    }, 'hints')
    phi_hover(tsbuf, 9, 'version 3 of `x: number` (let)') -- `  return x;`
    if vim.lsp.inlay_hint == nil then
      local hints
      wait(5000, function()
        hints = eol_hints(tsbuf)
        return hints[8] ~= nil
      end, 'end-of-line hints')
      eq(hints[8], 'x₃ ← φ(₁,₂)', 'line 9')
      eq(hints[14], 'i₂  n₁  i₂ ← φ(₁,₃)', 'line 15')
    end
  end)
end, debug.traceback)

if not ok then
  failed = failed + 1
  say('FAIL (error) ' .. tostring(err))
end
say(('%d passed, %d failed'):format(passed, failed))
io.stdout:flush()
if failed > 0 then
  vim.cmd('cquit 1')
else
  vim.cmd('qall!')
end
