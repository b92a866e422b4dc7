-- Drives the MathSense language server from a real editor: headless Neovim 0.7+ with its
-- built-in LSP client (vim.lsp.start_client / buf_attach_client / request_sync; 0.7 has no
-- vim.lsp.start).
--
--   nvim --headless --clean -c 'luafile test/neovim/lsp_check.lua'
--
-- Configuration comes from environment variables (defaults in parentheses):
--   MATHSENSE_SERVER         the bundled server (<repo>/server/dist/mathsense.cjs)
--   MATHSENSE_ROOT           project root handed to the server (<repo>/test/fixtures/nvim-project)
--   MATHSENSE_FILE           file to open, relative to the root (chapters/two.tex)
--   MATHSENSE_HOVER_AT       text whose first occurrence in that file is hovered; the cursor is
--                            put on its last character (\cref{lem:pigeonhole})
--   MATHSENSE_OUT            JSON result file (<repo>/test-output/nvim-lsp.json)
--   MATHSENSE_NODE           node executable (node)
--   MATHSENSE_TIMEOUT_MS     per-wait timeout (15000)
--
-- The result file always gets written, also on failure ("error" is then set), and Neovim
-- always quits, so the caller only needs an outer timeout for hangs.

local script = debug.getinfo(1, 'S').source:gsub('^@', '')
local repo = vim.fn.fnamemodify(script, ':p:h:h:h')

local function env(name, default)
  local v = os.getenv(name)
  if v == nil or v == '' then return default end
  return v
end

local server = env('MATHSENSE_SERVER', repo .. '/server/dist/mathsense.cjs')
local root = vim.fn.fnamemodify(env('MATHSENSE_ROOT', repo .. '/test/fixtures/nvim-project'), ':p'):gsub('/$', '')
local rel = env('MATHSENSE_FILE', 'chapters/two.tex')
local hover_at = env('MATHSENSE_HOVER_AT', '\\cref{lem:pigeonhole}')
local out_file = env('MATHSENSE_OUT', repo .. '/test-output/nvim-lsp.json')
local node = env('MATHSENSE_NODE', 'node')
local timeout = tonumber(env('MATHSENSE_TIMEOUT_MS', '15000'))

local result = {
  nvim_version = tostring(vim.version().major) .. '.' .. vim.version().minor .. '.' .. vim.version().patch,
  root = root,
  file = rel,
  publishes = 0, -- publishDiagnostics notifications received for the file
  diagnostics = vim.NIL, -- the last published diagnostics for the file (raw LSP)
  nvim_diagnostics = vim.NIL, -- how many diagnostics Neovim itself shows for the buffer
  hover = vim.NIL, -- hover markdown (string)
  hover_position = vim.NIL,
  server_info = vim.NIL,
  status = vim.NIL, -- mathsense/status response
  folds = vim.NIL, -- textDocument/foldingRange of the file
  links = vim.NIL, -- textDocument/documentLink of main.tex
  highlights = vim.NIL, -- textDocument/documentHighlight at the hovered position
  rename_files = vim.NIL, -- files a rename of the hovered label edits
  renamed_label_line = vim.NIL, -- after applying it in Neovim: the definition's line in its buffer
  log = {}, -- window/logMessage + window/showMessage
  error = vim.NIL,
}

local target_uri = vim.uri_from_fname(root .. '/' .. rel)
local last_publish_at = 0
local server_exited = false

local function now_ms()
  return vim.loop.hrtime() / 1e6
end

local function write_result()
  local f = assert(io.open(out_file, 'w'))
  f:write(vim.fn.json_encode(result))
  f:close()
end

local function main()
  vim.fn.mkdir(vim.fn.fnamemodify(out_file, ':h'), 'p')
  if vim.fn.filereadable(server) == 0 then
    error('server bundle not found: ' .. server .. ' (run `npm run build`)')
  end

  local default_publish = vim.lsp.handlers['textDocument/publishDiagnostics']
  local client_id = vim.lsp.start_client({
    name = 'mathsense',
    cmd = { node, server, 'lsp', '--stdio' },
    root_dir = root,
    handlers = {
      ['textDocument/publishDiagnostics'] = function(err, params, ctx, config)
        if params and params.uri == target_uri then
          result.publishes = result.publishes + 1
          result.diagnostics = params.diagnostics
          last_publish_at = now_ms()
        end
        -- let Neovim show them too, so the editor-side conversion is exercised
        return default_publish(err, params, ctx, config)
      end,
      ['window/logMessage'] = function(_, params)
        table.insert(result.log, params.message)
      end,
      ['window/showMessage'] = function(_, params)
        table.insert(result.log, params.message)
      end,
    },
    on_init = function(_, init_result)
      result.server_info = init_result.serverInfo or vim.NIL
    end,
    on_exit = function(code, signal)
      server_exited = true
      if code ~= 0 then table.insert(result.log, ('server exited: code %s signal %s'):format(code, signal)) end
    end,
  })
  if not client_id then error('vim.lsp.start_client failed') end
  local client = vim.lsp.get_client_by_id(client_id)

  local ok = vim.wait(timeout, function()
    return client.initialized or server_exited
  end, 20)
  if not ok or not client.initialized then
    if server_exited then error('server exited before initializing (see log)') end
    error('server did not initialize within ' .. timeout .. ' ms')
  end

  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/' .. rel))
  local bufnr = vim.api.nvim_get_current_buf()
  if vim.bo[bufnr].filetype == '' then vim.bo[bufnr].filetype = 'tex' end
  if not vim.lsp.buf_attach_client(bufnr, client_id) then error('vim.lsp.buf_attach_client failed') end

  -- first publication (sent on didOpen)
  if not vim.wait(timeout, function() return result.publishes > 0 end, 20) then
    error('no textDocument/publishDiagnostics for ' .. target_uri .. ' within ' .. timeout .. ' ms')
  end
  -- The workspace scan may finish after didOpen; the server republishes then. The custom
  -- mathsense/status request resolves once the scan is done, and the republication is sent
  -- before its response. Afterwards wait until publications have been quiet for a while.
  local status = client.request_sync('mathsense/status', vim.empty_dict(), timeout, bufnr)
  if status and status.result then result.status = status.result end
  vim.wait(timeout, function() return now_ms() - last_publish_at > 800 end, 50)
  result.nvim_diagnostics = #vim.diagnostic.get(bufnr)

  -- hover on the last character of the first occurrence of hover_at
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local pos
  for i, line in ipairs(lines) do
    local s, e = line:find(hover_at, 1, true)
    if s then
      pos = { line = i - 1, character = e - 2 } -- inside the braces, before '}'
      break
    end
  end
  if not pos then error('text to hover not found in ' .. rel .. ': ' .. hover_at) end
  result.hover_position = pos
  local resp, err = client.request_sync('textDocument/hover', {
    textDocument = { uri = target_uri },
    position = pos,
  }, timeout, bufnr)
  if not resp then error('hover request failed: ' .. tostring(err)) end
  if resp.err then error('hover returned an error: ' .. vim.inspect(resp.err)) end
  local contents = resp.result and resp.result.contents
  if type(contents) == 'table' and contents.value then
    result.hover = contents.value
  elseif type(contents) == 'string' then
    result.hover = contents
  elseif contents ~= nil then
    result.hover = vim.fn.json_encode(contents)
  end

  -- folding ranges, highlights, links: plain requests, results kept raw
  local function request(method, params, buf)
    local r, e = client.request_sync(method, params, timeout, buf or bufnr)
    if not r then error(method .. ' request failed: ' .. tostring(e)) end
    if r.err then error(method .. ' returned an error: ' .. vim.inspect(r.err)) end
    return r.result
  end
  result.folds = request('textDocument/foldingRange', { textDocument = { uri = target_uri } })
  result.highlights = request('textDocument/documentHighlight', { textDocument = { uri = target_uri }, position = pos })
  local main_uri = vim.uri_from_fname(root .. '/main.tex')
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/main.tex'))
  local main_buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(main_buf, client_id)
  result.links = request('textDocument/documentLink', { textDocument = { uri = main_uri } }, main_buf)
  vim.cmd('buffer ' .. bufnr)

  -- rename the hovered label, and let Neovim apply the edit to its buffers (never written)
  local edit = request('textDocument/rename', { textDocument = { uri = target_uri }, position = pos, newName = 'lem:boxes' })
  result.rename_files = {}
  for uri, _ in pairs(edit.changes or {}) do table.insert(result.rename_files, vim.fn.fnamemodify(vim.uri_to_fname(uri), ':.')) end
  table.sort(result.rename_files)
  vim.lsp.util.apply_workspace_edit(edit, client.offset_encoding or 'utf-16')
  local one = vim.fn.bufnr(root .. '/chapters/one.tex')
  if one > 0 then
    for i, line in ipairs(vim.api.nvim_buf_get_lines(one, 0, -1, false)) do
      if line:find('\\label{lem:boxes}', 1, true) then result.renamed_label_line = i - 1 end
    end
  end

  client.stop()
  vim.wait(3000, function() return client.is_stopped() end, 20)
end

local ok, err = pcall(main)
if not ok then result.error = tostring(err) end
local wok, werr = pcall(write_result)
if not wok then io.stderr:write('could not write ' .. out_file .. ': ' .. tostring(werr) .. '\n') end
vim.cmd('qa!')
