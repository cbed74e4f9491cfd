-- ssalens for Neovim 0.11+'s vim.lsp.config: with this folder on the runtimepath,
--
--   vim.lsp.enable('ssalens')
--
-- starts `ssalens serve` for JavaScript and TypeScript buffers. Override any field with
-- vim.lsp.config('ssalens', { cmd = { '/path/to/ssalens', 'serve' }, settings = … }).
-- Inlay hints: vim.lsp.inlay_hint.enable(true) (or require('ssalens').setup(), which does it).
-- The analysis status of a buffer, for a statusline: require('ssalens').status().
return {
  cmd = { 'ssalens', 'serve' },
  filetypes = { 'javascript', 'javascriptreact', 'typescript', 'typescriptreact' },
  root_markers = { 'package.json', 'jsconfig.json', 'tsconfig.json', '.git' },
  settings = {
    ssalens = {
      inlayHints = { versions = true, phis = true },
      diagnostics = { uselessAssignment = true },
    },
  },
  init_options = {
    ssalens = {
      inlayHints = { versions = true, phis = true },
      diagnostics = { uselessAssignment = true },
    },
  },
  handlers = {
    -- For require('ssalens').status(), the statusline's.
    ['ssalens/status'] = function(...)
      return require('ssalens.status').handler(...)
    end,
    -- Drops the code lens of a buffer wiped while it was asked for.
    ['textDocument/codeLens'] = function(...)
      return require('ssalens.codelens').handler(...)
    end,
  },
}
