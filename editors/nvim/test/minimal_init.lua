-- A minimal init for the headless test: only this plugin, started on the server in $SSALENS_BIN.
--   nvim --headless --clean -u test/minimal_init.lua -c 'luafile test/ssalens_test.lua'
local here = debug.getinfo(1, 'S').source:sub(2)
local root = vim.fn.fnamemodify(here, ':p:h:h') -- editors/nvim
vim.opt.runtimepath:prepend(root)
vim.opt.swapfile = false
vim.opt.shadafile = 'NONE'
vim.cmd('filetype on')

require('ssalens').setup({
  cmd = { os.getenv('SSALENS_BIN') or 'ssalens', 'serve' },
})
