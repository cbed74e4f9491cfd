-- ssalens for Neovim: starts the ssalens language server for JavaScript buffers, shows its SSA
-- inlay hints (focused where the cursor is, if the settings ask), sets buffer-local keymaps for
-- ssalens' own hover, reaching definitions and value references (lists.lua), the live Show SSA
-- view (view.lua) and toggling the hints, adds the :SsaLens… commands, and keeps what the server
-- says of each buffer's analysis for statuslines (status.lua).
--
-- One plugin for every Neovim from 0.7 on. Each code path is chosen by whether the API it needs
-- exists, never by the version number:
--   vim.lsp.config + vim.lsp.enable (0.11+): defaults in lsp/ssalens.lua, our options over them
--   vim.lsp.start (0.8+): from a FileType autocommand
--   else vim.lsp.start_client() + vim.lsp.buf_attach_client() (0.7)
-- Inlay hints use vim.lsp.inlay_hint where it exists (0.10+); otherwise the plugin requests those
-- of the lines its windows show and draws them at the end of the line (eol_hints.lua).
local M = {}

local uv = vim.uv or vim.loop
local api = vim.api

local NAME = 'ssalens'
local eol_hints = require('ssalens.eol_hints')

--- The defaults; setup() merges its options over them.
M.defaults = {
  -- The server command. nil: `ssalens serve` (or `server_path serve`).
  cmd = nil,
  -- Path to the ssalens binary, used when cmd is nil. nil: `ssalens` on PATH.
  server_path = nil,
  filetypes = { 'javascript', 'javascriptreact', 'typescript', 'typescriptreact' },
  root_markers = { 'package.json', 'jsconfig.json', 'tsconfig.json', '.git' },
  -- Sent as initializationOptions and workspace/didChangeConfiguration.
  settings = {
    ssalens = {
      -- scope: 'file', 'function' or 'variable' (the cursor's); maxPerLine: 0 for no cap.
      inlayHints = { versions = true, phis = true, phiOnly = false, scope = 'file', maxPerLine = 0 },
      -- uselessAssignmentSeverity: 'hint', 'information' or 'warning'.
      diagnostics = { uselessAssignment = true, uselessAssignmentSeverity = 'hint' },
      navigation = { standardRequests = true },
    },
  },
  -- Buffer-local keymaps set when the server attaches; false for none, or false for one of them.
  keymaps = {
    hover = 'K', -- ssalens' hover alone
    reaching_definitions = 'gd', -- the definitions that reach the value (location list if several)
    value_references = 'gr', -- the definition and uses of the value (location list)
    show_ssa = '<leader>ss', -- the live Show SSA view
    toggle_hints = '<leader>sh', -- inlay hints on or off
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

-- Highlight groups users can link; by default those of comments.
local highlight_links = {
  SsaLensVersion = 'Comment', -- version hints at the end of a line (Neovim < 0.10)
  SsaLensPhi = 'Comment', -- φ hints at the end of a line (Neovim < 0.10)
  SsaLensBlock = 'Statement', -- a block's first line in the Show SSA view
  SsaLensCurrent = 'Visual', -- the rows of the cursor's line in the Show SSA view
}

local function define_highlights()
  for group, target in pairs(highlight_links) do
    vim.cmd(('highlight default link %s %s'):format(group, target))
  end
end

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
M.request = client_request

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

--- Asks for the inlay hints of what the windows of bufnr show, and draws them at the end of their
--- lines (Neovim < 0.10; eol_hints.lua).
function M.refresh_hints(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and api.nvim_get_current_buf() or bufnr
  if vim.lsp.inlay_hint or not api.nvim_buf_is_loaded(bufnr) then
    return
  end
  if M.hints_enabled then
    eol_hints.refresh(bufnr)
  else
    eol_hints.clear(bufnr)
  end
end

local function enable_native_hints(bufnr, on)
  -- 0.10 final and later: enable(bool, filter); 0.10 pre-releases: enable(bufnr, bool).
  if not pcall(vim.lsp.inlay_hint.enable, on, { bufnr = bufnr }) then
    pcall(vim.lsp.inlay_hint.enable, bufnr, on)
  end
end

-- The cursor, for hints focused on its function or variable (ssalens.inlayHints.scope). -----

local cursor_timer
local CURSOR_DELAY = 60 -- ms: a burst of moves sends only the last

--- Sends ssalens/didChangeCursor with the cursor of the current window to the ssalens clients
--- of its buffer.
function M.send_cursor()
  local bufnr = api.nvim_get_current_buf()
  for _, client in ipairs(get_clients(bufnr)) do
    client_notify(client, 'ssalens/didChangeCursor', require('ssalens.lists').cursor_params(client, bufnr))
  end
end

local function attach_cursor(bufnr)
  local group = api.nvim_create_augroup('ssalens_cursor_' .. bufnr, { clear = true })
  api.nvim_create_autocmd({ 'CursorMoved', 'CursorMovedI', 'BufEnter' }, {
    group = group,
    buffer = bufnr,
    callback = function()
      cursor_timer = cursor_timer or uv.new_timer()
      cursor_timer:stop()
      cursor_timer:start(CURSOR_DELAY, 0, vim.schedule_wrap(M.send_cursor))
    end,
  })
end

-- The code lens that says why variables have no versions. ---------------------------------------

--- The client-side command of that lens (ssalens.showUnrenamed): the reasons in the location list.
local function show_unrenamed(command, ctx)
  local arg = command.arguments and command.arguments[1]
  local bufnr = arg and arg.uri and vim.uri_to_bufnr(arg.uri) or ctx.bufnr
  require('ssalens.lists').unrenamed(bufnr)
end

local function attach_code_lens(bufnr)
  if not vim.lsp.codelens then
    return
  end
  local function refresh()
    require('ssalens.codelens').refresh(bufnr)
  end
  local group = api.nvim_create_augroup('ssalens_lens_' .. bufnr, { clear = true })
  api.nvim_create_autocmd({ 'BufEnter', 'InsertLeave', 'TextChanged' }, { group = group, buffer = bufnr, callback = refresh })
  vim.schedule(refresh)
end

--- Sets the keymaps of M.config.keymaps in bufnr.
local function set_keymaps(bufnr)
  local keys = M.config.keymaps
  if not keys then
    return
  end
  local lists = require('ssalens.lists')
  local actions = {
    hover = { lists.hover, 'ssalens: hover' },
    reaching_definitions = { lists.reaching_definitions, 'ssalens: reaching definitions' },
    value_references = { lists.value_references, 'ssalens: value references' },
    show_ssa = { M.show, 'ssalens: Show SSA (live)' },
    toggle_hints = { M.toggle_hints, 'ssalens: toggle inlay hints' },
  }
  for name, action in pairs(actions) do
    if keys[name] then
      vim.keymap.set('n', keys[name], action[1], { buffer = bufnr, desc = action[2] })
    end
  end
end

--- Called when the ssalens client attaches to a buffer.
function M.on_attach(client, bufnr)
  if M.hints_enabled and M.config.inlay_hints then
    if vim.lsp.inlay_hint then
      enable_native_hints(bufnr, true)
    else
      eol_hints.attach(bufnr)
    end
  end
  attach_cursor(bufnr)
  attach_code_lens(bufnr)
  set_keymaps(bufnr)
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

--- The commands the server's code lenses name, run by the client.
M.commands = { ['ssalens.showUnrenamed'] = show_unrenamed }

local function handlers()
  local h = {
    ['ssalens/status'] = require('ssalens.status').handler,
    ['textDocument/codeLens'] = require('ssalens.codelens').handler,
  }
  if not vim.lsp.inlay_hint then
    h['workspace/inlayHint/refresh'] = eol_hints.on_refresh
  end
  return h
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
    commands = M.commands,
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
    commands = M.commands,
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

--- :SsaLensShow — the live Show SSA view of the function at the cursor (view.lua).
function M.show()
  require('ssalens.view').show(M.config.show_split)
end

--- :SsaLensScope file|function|variable — which hints to show, at once in every ssalens client.
function M.set_scope(scope)
  if not vim.tbl_contains({ 'file', 'function', 'variable' }, scope) then
    notify('the scope is file, function or variable, not ' .. tostring(scope), vim.log.levels.ERROR)
    return
  end
  M.config.settings = vim.tbl_deep_extend('force', M.config.settings or {}, { ssalens = { inlayHints = { scope = scope } } })
  for _, client in ipairs(get_clients()) do
    client.config.settings = vim.tbl_deep_extend('force', client.config.settings or {}, M.config.settings)
    client_notify(client, 'workspace/didChangeConfiguration', { settings = M.config.settings })
  end
  M.send_cursor()
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
        eol_hints.attach(bufnr)
      else
        eol_hints.clear(bufnr)
      end
    end
  end
  notify('inlay hints ' .. (M.hints_enabled and 'on' or 'off'))
end

M.hint_namespace = eol_hints.namespace

--- For statuslines: 'analyzing…' while the server analyzes bufnr (default: the current buffer),
--- then '3 not analyzed' if 3 of its functions are not analyzed, else ''. `User SsaLensStatus`
--- fires when it changes.
function M.status(bufnr)
  return require('ssalens.status').text(bufnr)
end

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

  define_highlights()
  api.nvim_create_autocmd('ColorScheme', { group = api.nvim_create_augroup('ssalens_highlights', { clear = true }), callback = define_highlights })
  local lists = require('ssalens.lists')
  api.nvim_create_user_command('SsaLensShow', M.show, { desc = 'ssalens: the live SSA view of the function at the cursor' })
  api.nvim_create_user_command('SsaLensToggleHints', M.toggle_hints, { desc = 'ssalens: toggle SSA inlay hints' })
  api.nvim_create_user_command('SsaLensReachingDefinitions', lists.reaching_definitions, { desc = 'ssalens: the definitions that reach the value' })
  api.nvim_create_user_command('SsaLensValueReferences', lists.value_references, { desc = "ssalens: the value's definition and uses" })
  api.nvim_create_user_command('SsaLensUnrenamed', function()
    lists.unrenamed(0)
  end, { desc = 'ssalens: why variables of this file have no versions' })
  api.nvim_create_user_command('SsaLensScope', function(a)
    M.set_scope(a.args)
  end, {
    nargs = 1,
    complete = function()
      return { 'file', 'function', 'variable' }
    end,
    desc = 'ssalens: show the hints of the file, the function or the variable at the cursor',
  })

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
