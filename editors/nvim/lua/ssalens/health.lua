-- :checkhealth ssalens — the server and its version, Neovim and the code paths the plugin takes
-- on it, and the buffers the server is attached to.
local M = {}

local NAME = 'ssalens'

-- The report functions, by what this Neovim has: vim.health.start, ok, … (0.10+),
-- vim.health.report_start, … (0.8, 0.9), else Vim script's health#report_start, … (0.7).
local function reporters()
  local health = vim.health or {}
  local report = {}
  for _, kind in ipairs({ 'start', 'ok', 'info', 'warn', 'error' }) do
    report[kind] = health[kind] or health['report_' .. kind] or function(...)
      return vim.fn['health#report_' .. kind](...)
    end
  end
  return report
end

local start_paths = {
  ['vim.lsp.config'] = 'vim.lsp.config + vim.lsp.enable, over the defaults of lsp/ssalens.lua',
  ['vim.lsp.start'] = 'vim.lsp.start from a FileType autocommand (no vim.lsp.config)',
  ['vim.lsp.start_client'] = 'vim.lsp.start_client + vim.lsp.buf_attach_client (no vim.lsp.start)',
}

--- The command that prints the version of the server that cmd starts: what comes before `serve`,
--- then `version` (which every ssalens has); nil when cmd has no `serve`.
local function version_cmd(cmd)
  for i, arg in ipairs(cmd) do
    if arg == 'serve' then
      local v = vim.list_slice(cmd, 1, i - 1)
      table.insert(v, 'version')
      return v
    end
  end
end

local function check_server(report, ssalens)
  report.start('ssalens: server')
  local configured
  if ssalens.start_api() == 'vim.lsp.config' then
    configured = (vim.lsp.config[NAME] or {}).cmd -- lsp/ssalens.lua and vim.lsp.config('ssalens', …)
    if type(configured) == 'function' then
      report.info('the server command is a function: it cannot be checked')
      return
    end
  end
  local cmd, err = ssalens.server_cmd(configured)
  if not cmd then
    report.error(err)
    return
  end
  report.ok(('server: %s (started as `%s`)'):format(vim.fn.exepath(cmd[1]), table.concat(cmd, ' ')))
  local vcmd = version_cmd(cmd)
  if not vcmd then
    report.warn('the server command has no `serve`: cannot tell how to ask its version')
    return
  end
  local out = vim.trim(vim.fn.system(vcmd))
  if vim.v.shell_error == 0 and out:match('^ssalens ') then
    report.ok('version: ' .. out)
  else
    report.warn(('`%s` failed (status %d): %s'):format(table.concat(vcmd, ' '), vim.v.shell_error, out),
      'Is it ssalens? Install it with `go install github.com/ssalens/ssalens/cmd/ssalens@latest`.')
  end
end

local function check_neovim(report, ssalens)
  report.start('ssalens: Neovim')
  report.info(vim.fn.execute('version'):match('NVIM [^\n]+'))
  local advice = 'Call require("ssalens").setup() in your init.lua.'
  if vim.fn.exists(':SsaLensShow') == 2 then
    report.ok('starts the server with ' .. start_paths[ssalens.start_api()])
  elseif ssalens.start_api() == 'vim.lsp.config' then
    report.warn('require("ssalens").setup() has not run: no :SsaLensShow nor :SsaLensToggleHints, and the '
      .. 'server starts only if vim.lsp.enable("ssalens") was called', advice)
  else
    report.warn('require("ssalens").setup() has not run: nothing starts the server', advice)
  end
  if vim.lsp.inlay_hint then
    report.ok('inlay hints: vim.lsp.inlay_hint, inline')
  else
    report.ok('inlay hints: drawn by the plugin at the end of the line (no vim.lsp.inlay_hint)')
  end
  if not ssalens.hints_enabled then
    report.info('inlay hints are turned off: :SsaLensToggleHints turns them on')
  end
end

local function check_buffers(report, ssalens)
  report.start('ssalens: buffers')
  local clients = ssalens.get_clients()
  if #clients == 0 then
    report.info(('no ssalens server is running: open a file of filetype %s'):format(
      table.concat(ssalens.config.filetypes, ' or ')))
    return
  end
  for _, client in ipairs(clients) do
    -- Neovim 0.7 keeps a buffer in attached_buffers after unloading it (and closing it for the
    -- server), even once it is wiped out.
    local bufs = vim.tbl_filter(vim.api.nvim_buf_is_loaded, vim.tbl_keys(client.attached_buffers))
    table.sort(bufs)
    for i, bufnr in ipairs(bufs) do
      bufs[i] = ('%d %s'):format(bufnr, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':~:.'))
    end
    local state = client.initialized and 'running' or 'starting'
    local where = ('client %d (%s, root %s)'):format(client.id, state, client.config.root_dir or '-')
    if #bufs == 0 then
      report.info(where .. ': attached to no buffer')
    else
      report.ok(('%s attached to buffer%s %s'):format(where, #bufs > 1 and 's' or '', table.concat(bufs, ', ')))
    end
  end
end

function M.check()
  local report = reporters()
  local ssalens = require('ssalens')
  check_server(report, ssalens)
  check_neovim(report, ssalens)
  check_buffers(report, ssalens)
end

return M
