-- ssalens for Neovim: starts the ssalens language server for JavaScript buffers, shows its SSA
-- inlay hints, and adds :SsaLensShow and :SsaLensToggleHints.
--
-- One plugin for every Neovim from 0.7 on. Each code path is chosen by whether the API it needs
-- exists, never by the version number:
--   vim.lsp.config + vim.lsp.enable (0.11+): defaults in lsp/ssalens.lua, our options over them
--   vim.lsp.start (0.8+): from a FileType autocommand
--   else vim.lsp.start_client() + vim.lsp.buf_attach_client() (0.7)
-- Inlay hints use vim.lsp.inlay_hint where it exists (0.10+); otherwise the plugin requests them
-- itself and draws them at the end of the line (0.7 has no inline virtual text).
local M = {}

local uv = vim.uv or vim.loop
local api = vim.api

local NAME = 'ssalens'
local hint_ns = api.nvim_create_namespace('ssalens_inlay_hints')
local pos_ns = api.nvim_create_namespace('ssalens_show_position')

--- The defaults; setup() merges its options over them.
M.defaults = {
  -- The server command. nil: `ssalens serve` (or `server_path serve`).
  cmd = nil,
  -- Path to the ssalens binary, used when cmd is nil. nil: `ssalens` on PATH.
  server_path = nil,
  filetypes = { 'javascript', 'javascriptreact' },
  root_markers = { 'package.json', 'jsconfig.json', 'tsconfig.json', '.git' },
  -- Sent as initializationOptions and workspace/didChangeConfiguration.
  settings = {
    ssalens = {
      inlayHints = { versions = true, phis = true },
      diagnostics = { uselessAssignment = true },
    },
  },
  -- Show inlay hints when a buffer attaches.
  inlay_hints = true,
  -- Called as on_attach(client, bufnr) after the plugin's own attach logic.
  on_attach = nil,
  -- Extra client capabilities, merged over Neovim's.
  capabilities = nil,
  -- Where :SsaLensShow opens its buffer: 'vsplit', 'split' or 'tab'.
  show_split = 'vsplit',
}

M.config = vim.deepcopy(M.defaults)
M.hints_enabled = true

local function notify(msg, level)
  vim.notify('ssalens: ' .. msg, level or vim.log.levels.INFO)
end

-- Whether the client's request and notify are methods of its class, called as client:request
-- (0.11+, where the older client.request form warns), rather than functions of the client itself.
local function has_methods(client)
  local class = getmetatable(client)
  return type(class) == 'table' and type(rawget(class, 'request')) == 'function'
end

local function client_request(client, method, params, handler, bufnr)
  if has_methods(client) then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local function client_notify(client, method, params)
  if has_methods(client) then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

--- The ssalens clients attached to bufnr (all ssalens clients when bufnr is nil).
local function get_clients(bufnr)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = bufnr, name = NAME })
  end
  -- Before vim.lsp.get_clients (0.10): get_active_clients takes no filter on 0.7.
  local out = {}
  local clients = bufnr and vim.lsp.buf_get_clients(bufnr) or vim.lsp.get_active_clients()
  for _, c in pairs(clients) do
    if c.name == NAME then
      table.insert(out, c)
    end
  end
  return out
end
M.get_clients = get_clients

local function is_js(bufnr)
  return vim.tbl_contains(M.config.filetypes, vim.bo[bufnr].filetype)
end

--- The command that starts the server (cmd, by default the one the options give), or nil and a
--- message saying how to fix it.
function M.server_cmd(cmd)
  cmd = cmd or M.config.cmd or { M.config.server_path or 'ssalens', 'serve' }
  if vim.fn.executable(cmd[1]) ~= 1 then
    return nil,
      ('cannot run the server %q: it is not an executable file nor on PATH. Install it with '
        .. '`go install github.com/ssalens/ssalens/cmd/ssalens@latest` (and put $(go env GOPATH)/bin '
        .. 'on PATH), or pass server_path = "/path/to/ssalens" to require("ssalens").setup().'):format(cmd[1])
  end
  return cmd
end

--- The project root of a buffer: the nearest folder with one of root_markers, else the file's folder.
function M.root_dir(bufnr)
  local name = api.nvim_buf_get_name(bufnr)
  local dir = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or uv.cwd()
  local cur = dir
  while cur and cur ~= '' do
    for _, marker in ipairs(M.config.root_markers) do
      if uv.fs_stat(cur .. '/' .. marker) then
        return cur
      end
    end
    local parent = vim.fn.fnamemodify(cur, ':h')
    if parent == cur then
      break
    end
    cur = parent
  end
  return dir
end

-- Inlay hints before vim.lsp.inlay_hint (Neovim < 0.10): request, then draw at end of line. ------

local hint_state = {} -- bufnr -> { timer, changedtick }

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

--- Renders the hints of one line as end-of-line text: a version hint as the variable it follows
--- with its version (`x₂`, `i₂→₃`), a φ hint as it is (`φ x₃ = (x₁, x₂)`).
function M.render_line_hints(line_text, hints, offset_encoding)
  local pieces = {}
  for _, h in ipairs(hints) do
    local label = label_text(h.label)
    if label:find('φ', 1, true) then
      table.insert(pieces, label)
    else
      local col = h.position.character
      if offset_encoding ~= 'utf-8' then
        local ok, byte = pcall(vim.str_byteindex, line_text, col, offset_encoding == 'utf-16')
        col = ok and byte or math.min(col, #line_text)
      end
      local before = line_text:sub(1, col)
      local ident = before:match('[%w_$\128-\255]+$') or '' -- identifiers may be non-ASCII
      table.insert(pieces, ident .. label)
    end
  end
  return table.concat(pieces, '  ')
end

local function draw_hints(bufnr, hints, offset_encoding)
  if not api.nvim_buf_is_valid(bufnr) then
    return
  end
  api.nvim_buf_clear_namespace(bufnr, hint_ns, 0, -1)
  if not M.hints_enabled then
    return
  end
  local by_line = {}
  for _, h in ipairs(hints or {}) do
    local l = h.position.line
    by_line[l] = by_line[l] or {}
    table.insert(by_line[l], h)
  end
  local count = api.nvim_buf_line_count(bufnr)
  for line, hs in pairs(by_line) do
    if line < count then
      table.sort(hs, function(a, b)
        return a.position.character < b.position.character
      end)
      local text = api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1] or ''
      api.nvim_buf_set_extmark(bufnr, hint_ns, line, 0, {
        virt_text = { { '  ' .. M.render_line_hints(text, hs, offset_encoding), 'Comment' } },
        virt_text_pos = 'eol',
        hl_mode = 'combine',
      })
    end
  end
end

--- Requests the inlay hints of the whole buffer and draws them (Neovim < 0.10).
function M.refresh_hints(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and api.nvim_get_current_buf() or bufnr
  if vim.lsp.inlay_hint or not api.nvim_buf_is_loaded(bufnr) then
    return
  end
  if not M.hints_enabled then
    api.nvim_buf_clear_namespace(bufnr, hint_ns, 0, -1)
    return
  end
  for _, client in ipairs(get_clients(bufnr)) do
    local lines = api.nvim_buf_line_count(bufnr)
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(bufnr) },
      range = { start = { line = 0, character = 0 }, ['end'] = { line = lines, character = 0 } },
    }
    local tick = api.nvim_buf_get_changedtick(bufnr)
    client_request(client, 'textDocument/inlayHint', params, function(err, result)
      if err then
        return
      end
      if not api.nvim_buf_is_valid(bufnr) or api.nvim_buf_get_changedtick(bufnr) ~= tick then
        return -- a newer request follows
      end
      draw_hints(bufnr, result, client.offset_encoding)
    end, bufnr)
  end
end

local function schedule_hints(bufnr, delay)
  local st = hint_state[bufnr]
  if not st then
    return
  end
  if st.timer then
    st.timer:stop()
  else
    st.timer = uv.new_timer()
  end
  st.timer:start(delay or 200, 0, vim.schedule_wrap(function()
    M.refresh_hints(bufnr)
  end))
end

local function attach_legacy_hints(bufnr)
  if hint_state[bufnr] then
    return
  end
  hint_state[bufnr] = {}
  local group = api.nvim_create_augroup('ssalens_hints_' .. bufnr, { clear = true })
  api.nvim_create_autocmd({ 'TextChanged', 'TextChangedI', 'InsertLeave' }, {
    group = group,
    buffer = bufnr,
    callback = function()
      schedule_hints(bufnr)
    end,
  })
  api.nvim_create_autocmd({ 'BufUnload', 'BufWipeout' }, {
    group = group,
    buffer = bufnr,
    callback = function()
      local st = hint_state[bufnr]
      if st and st.timer then
        st.timer:stop()
        st.timer:close()
      end
      hint_state[bufnr] = nil
      pcall(api.nvim_del_augroup_by_id, group)
    end,
  })
  schedule_hints(bufnr, 0)
end

--- workspace/inlayHint/refresh for Neovim < 0.10 (newer versions handle it themselves).
local function on_inlay_hint_refresh(_, _, ctx)
  for bufnr in pairs(hint_state) do
    local attached = false
    for _, c in ipairs(get_clients(bufnr)) do
      attached = attached or c.id == ctx.client_id
    end
    if attached then
      schedule_hints(bufnr, 0)
    end
  end
  return vim.NIL
end

local function enable_native_hints(bufnr, on)
  -- 0.10 final and later: enable(bool, filter); 0.10 pre-releases: enable(bufnr, bool).
  if not pcall(vim.lsp.inlay_hint.enable, on, { bufnr = bufnr }) then
    pcall(vim.lsp.inlay_hint.enable, bufnr, on)
  end
end

--- Called when the ssalens client attaches to a buffer.
function M.on_attach(client, bufnr)
  if M.hints_enabled and M.config.inlay_hints then
    if vim.lsp.inlay_hint then
      enable_native_hints(bufnr, true)
    else
      attach_legacy_hints(bufnr)
    end
  end
  if M.config.on_attach then
    M.config.on_attach(client, bufnr)
  end
end

local function on_init(client)
  local settings = client.config.settings
  if settings and next(settings) then
    client_notify(client, 'workspace/didChangeConfiguration', { settings = settings })
  end
end

local function capabilities()
  local caps = vim.lsp.protocol.make_client_capabilities()
  if not vim.lsp.inlay_hint then
    -- We draw hints ourselves, and handle refresh requests.
    caps.textDocument.inlayHint = caps.textDocument.inlayHint or { dynamicRegistration = false }
    caps.workspace = caps.workspace or {}
    caps.workspace.inlayHint = { refreshSupport = true }
  end
  if M.config.capabilities then
    caps = vim.tbl_deep_extend('force', caps, M.config.capabilities)
  end
  return caps
end

local function handlers()
  if vim.lsp.inlay_hint then
    return {}
  end
  return { ['workspace/inlayHint/refresh'] = on_inlay_hint_refresh }
end

--- The client configuration for a buffer (vim.lsp.start / start_client).
function M.client_config(bufnr)
  local cmd, err = M.server_cmd()
  if not cmd then
    return nil, err
  end
  return {
    name = NAME,
    cmd = cmd,
    root_dir = M.root_dir(bufnr),
    settings = M.config.settings,
    init_options = M.config.settings,
    capabilities = capabilities(),
    handlers = handlers(),
    on_init = on_init,
    on_attach = M.on_attach,
  }
end

-- Starting the server. -----------------------------------------------------------------------

local legacy_clients = {} -- root_dir -> client id (Neovim 0.7)
local warned = false

-- config returns the client configuration for bufnr, or nil after saying once why there is none.
local function config(bufnr)
  local c, err = M.client_config(bufnr)
  if not c and not warned then
    notify(err, vim.log.levels.ERROR)
    warned = true
  end
  return c
end

local function start_legacy(bufnr)
  local config = config(bufnr)
  if not config then
    return
  end
  local id = legacy_clients[config.root_dir]
  if id and not vim.lsp.get_client_by_id(id) then
    id = nil -- it stopped
  end
  if not id then
    id = vim.lsp.start_client(config)
    if not id then
      notify('the server failed to start: ' .. table.concat(config.cmd, ' '), vim.log.levels.ERROR)
      return
    end
    legacy_clients[config.root_dir] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

local function start_modern(bufnr)
  local config = config(bufnr)
  if not config then
    return
  end
  return vim.lsp.start(config, { bufnr = bufnr })
end

--- How setup() starts the server, by the APIs this Neovim has: 'vim.lsp.config' (with
--- vim.lsp.enable, 0.11+), 'vim.lsp.start' (0.8+) or 'vim.lsp.start_client'.
function M.start_api()
  if vim.lsp.config and vim.lsp.enable then
    return 'vim.lsp.config'
  elseif vim.lsp.start then
    return 'vim.lsp.start'
  end
  return 'vim.lsp.start_client'
end

--- Starts (or reuses) the server for bufnr and attaches it; returns the client id.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and api.nvim_get_current_buf() or bufnr
  if vim.lsp.start then
    return start_modern(bufnr)
  end
  return start_legacy(bufnr)
end

local function setup_lsp_config()
  -- lsp/ssalens.lua on the runtimepath gives cmd, filetypes, root_markers and settings;
  -- override what the user set.
  local overrides = {
    settings = M.config.settings,
    init_options = M.config.settings,
    filetypes = M.config.filetypes,
    root_markers = M.config.root_markers,
    on_attach = M.on_attach,
  }
  if M.config.cmd or M.config.server_path then
    overrides.cmd = M.server_cmd() or M.config.cmd or { M.config.server_path, 'serve' }
  end
  if M.config.capabilities then
    overrides.capabilities = M.config.capabilities
  end
  vim.lsp.config(NAME, overrides)
  vim.lsp.enable(NAME)
end

-- :SsaLensShow -------------------------------------------------------------------------------

local show = { bufnr = nil, source = nil, timer = nil }

local function show_window()
  if show.bufnr and api.nvim_buf_is_valid(show.bufnr) then
    for _, win in ipairs(api.nvim_list_wins()) do
      if api.nvim_win_get_buf(win) == show.bufnr then
        return win
      end
    end
  end
end

local function set_show_lines(lines, title)
  if not (show.bufnr and api.nvim_buf_is_valid(show.bufnr)) then
    show.bufnr = api.nvim_create_buf(false, true)
    vim.bo[show.bufnr].bufhidden = 'hide'
    vim.bo[show.bufnr].swapfile = false
    vim.bo[show.bufnr].filetype = 'ssalens-ssa'
  end
  local buf = show.bufnr
  vim.bo[buf].modifiable = true
  api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].modified = false
  pcall(api.nvim_buf_set_name, buf, 'ssalens://' .. title)
  return buf
end

local function request_show(source, row, col, open)
  local clients = get_clients(source)
  if #clients == 0 then
    notify('no ssalens server is attached to this buffer', vim.log.levels.WARN)
    return
  end
  local client = clients[1]
  local line = api.nvim_buf_get_lines(source, row, row + 1, false)[1] or ''
  local character = col
  if client.offset_encoding ~= 'utf-8' then
    character = vim.lsp.util.character_offset(source, row, math.min(col, #line), client.offset_encoding)
  end
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(source) },
    position = { line = row, character = character },
  }
  client_request(client, 'ssalens/showSSA', params, function(err, result)
    local file = vim.fn.fnamemodify(api.nvim_buf_get_name(source), ':t')
    local lines, title
    if err then
      lines = { '// ssalens/showSSA failed: ' .. (err.message or vim.inspect(err)) }
      title = file
    elseif result == nil or result == vim.NIL then
      lines = { ('// no function at %s:%d'):format(file, row + 1) }
      title = file
    else
      lines = { ('// SSA of %s (%s:%d)'):format(result.name, file, row + 1), '' }
      vim.list_extend(lines, vim.split((result.text:gsub('\n$', '')), '\n', { plain = true }))
      title = file .. ':' .. result.name
    end
    local buf = set_show_lines(lines, title)
    if open and not show_window() then
      local cur = api.nvim_get_current_win()
      local split = M.config.show_split
      vim.cmd(split == 'tab' and 'tab split' or (split == 'split' and 'belowright split' or 'belowright vsplit'))
      api.nvim_win_set_buf(0, buf)
      vim.wo.wrap = false
      vim.wo.number = false
      if split ~= 'tab' then
        api.nvim_set_current_win(cur)
      end
    end
  end, source)
end

--- :SsaLensShow — the printed SSA of the function at the cursor, in a scratch buffer that
--- follows edits of the source.
function M.show()
  local source = api.nvim_get_current_buf()
  if show.bufnr == source then
    return -- already in the SSA buffer
  end
  local cursor = api.nvim_win_get_cursor(0)
  local row, col = cursor[1] - 1, cursor[2]
  -- Remember the position with an extmark, so that it moves with edits.
  if show.source and api.nvim_buf_is_valid(show.source) then
    api.nvim_buf_clear_namespace(show.source, pos_ns, 0, -1)
  end
  show.source = source
  show.mark = api.nvim_buf_set_extmark(source, pos_ns, row, col, {})
  local group = api.nvim_create_augroup('ssalens_show', { clear = true })
  api.nvim_create_autocmd({ 'TextChanged', 'TextChangedI' }, {
    group = group,
    buffer = source,
    callback = function()
      if not show_window() then
        return
      end
      show.timer = show.timer or uv.new_timer()
      show.timer:stop()
      show.timer:start(300, 0, vim.schedule_wrap(function()
        if show.source ~= source or not api.nvim_buf_is_valid(source) then
          return
        end
        local m = api.nvim_buf_get_extmark_by_id(source, pos_ns, show.mark, {})
        if m and m[1] then
          request_show(source, m[1], m[2], false)
        end
      end))
    end,
  })
  request_show(source, row, col, true)
end

--- :SsaLensToggleHints — shows or hides the inlay hints in every ssalens buffer.
function M.toggle_hints()
  M.hints_enabled = not M.hints_enabled
  local seen = {}
  for _, bufnr in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(bufnr) and #get_clients(bufnr) > 0 and not seen[bufnr] then
      seen[bufnr] = true
      if vim.lsp.inlay_hint then
        enable_native_hints(bufnr, M.hints_enabled)
      elseif M.hints_enabled then
        attach_legacy_hints(bufnr)
        M.refresh_hints(bufnr)
      else
        api.nvim_buf_clear_namespace(bufnr, hint_ns, 0, -1)
      end
    end
  end
  notify('inlay hints ' .. (M.hints_enabled and 'on' or 'off'))
end

M.hint_namespace = hint_ns

--- Sets the plugin up: merges opts over the defaults, registers the server and the commands.
function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  if opts and opts.filetypes then
    M.config.filetypes = opts.filetypes -- lists replace, not merge
  end
  if opts and opts.root_markers then
    M.config.root_markers = opts.root_markers
  end
  M.hints_enabled = M.config.inlay_hints ~= false

  api.nvim_create_user_command('SsaLensShow', M.show, { desc = 'ssalens: show the SSA of the function at the cursor' })
  api.nvim_create_user_command('SsaLensToggleHints', M.toggle_hints, { desc = 'ssalens: toggle SSA inlay hints' })

  if M.start_api() == 'vim.lsp.config' then
    setup_lsp_config()
    return
  end

  local group = api.nvim_create_augroup('ssalens', { clear = true })
  api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = M.config.filetypes,
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  -- Buffers that were open before setup().
  for _, bufnr in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(bufnr) and is_js(bufnr) then
      M.attach(bufnr)
    end
  end
end

return M
