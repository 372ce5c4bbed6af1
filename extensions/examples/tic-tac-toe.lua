-- Tic-tac-toe against the model. /tic-tac-toe opens the board: you are X
-- (arrows and Enter); the model is O and plays through the tic_tac_toe tool,
-- one action per call (move_up/down/left/right, play) with its own cursor.
-- The tool runs its calls one after another (executionMode "sequential"), so
-- a burst of moves followed by play lands where the model meant.
--
--   pi -e extensions/examples/tic-tac-toe.lua
local SAVE = "tic-tac-toe-save"
local MOVE_MESSAGE = "tic-tac-toe-move"
local GAME_OVER_MESSAGE = "tic-tac-toe-game-over"
local HOME_ROW, HOME_COL = 0, 0 -- the model's cursor after each successful play
local MOVE_DELAY_MS = 300

local LINES = {
  { { 0, 0 }, { 0, 1 }, { 0, 2 } }, { { 1, 0 }, { 1, 1 }, { 1, 2 } }, { { 2, 0 }, { 2, 1 }, { 2, 2 } },
  { { 0, 0 }, { 1, 0 }, { 2, 0 } }, { { 0, 1 }, { 1, 1 }, { 2, 1 } }, { { 0, 2 }, { 1, 2 }, { 2, 2 } },
  { { 0, 0 }, { 1, 1 }, { 2, 2 } }, { { 0, 2 }, { 1, 1 }, { 2, 0 } },
}

local function new_game()
  return {
    board = { { " ", " ", " " }, { " ", " ", " " }, { " ", " ", " " } },
    userRow = 1, userCol = 1,
    agentRow = HOME_ROW, agentCol = HOME_COL,
    status = "playing", currentTurn = "X",
  }
end

local function cell(board, r, c) return board[r + 1][c + 1] end

local function win_line(board)
  for _, line in ipairs(LINES) do
    local a = cell(board, line[1][1], line[1][2])
    if a ~= " " and a == cell(board, line[2][1], line[2][2]) and a == cell(board, line[3][1], line[3][2]) then
      return line
    end
  end
end

local function status_of(board)
  local line = win_line(board)
  if line then return cell(board, line[1][1], line[1][2]) == "X" and "win_X" or "win_O" end
  for _, row in ipairs(board) do
    for _, v in ipairs(row) do if v == " " then return "playing" end end
  end
  return "draw"
end

-- The board as the model sees it: coordinates in empty cells, <> around its cursor.
local function ascii(board, row, col)
  local rows = {}
  for r = 0, 2 do
    local cells = {}
    for c = 0, 2 do
      local v, here = cell(board, r, c), r == row and c == col
      if v == " " then
        cells[#cells + 1] = here and string.format("<[%d,%d]>", r, c) or string.format(" [%d,%d] ", r, c)
      else
        cells[#cells + 1] = here and ("   <" .. v .. ">   ") or ("    " .. v .. "    ")
      end
    end
    rows[#rows + 1] = table.concat(cells, "|")
  end
  return table.concat(rows, "\n---------+---------+---------\n")
end

local function copy_board(board)
  local out = {}
  for r, row in ipairs(board) do out[r] = { row[1], row[2], row[3] } end
  return out
end

local function setup(pi)
  local ui = require("pi.ui")
  local game = new_game()
  local active = false
  local redraw -- asks the open board to render again

  local function details()
    return { board = copy_board(game.board), agentCursorRow = game.agentRow, agentCursorCol = game.agentCol,
      status = game.status, currentTurn = game.currentTurn }
  end

  local function rebuild(ctx)
    game, active = new_game(), false
    for _, entry in ipairs(ctx.sessionManager.getBranch()) do
      local m = entry.type == "message" and entry.message
      if m and m.role == "toolResult" and (m.toolName == "tic_tac_toe" or m.toolName == "tic_tac_toe_see_board")
        and type(m.details) == "table" and m.details.board then
        game.board = copy_board(m.details.board)
        game.agentRow, game.agentCol = m.details.agentCursorRow, m.details.agentCursorCol
        game.status, game.currentTurn = m.details.status, m.details.currentTurn
      end
    end
  end
  pi.on("session_start", function(_, ctx) rebuild(ctx) end)
  pi.on("session_tree", function(_, ctx) rebuild(ctx) end)

  -- A 3×3 grid of 7×3 cells; marks and the winning line in colour, the
  -- cursor cell's frame highlighted.
  local function draw_board(theme, state, cursor_row, cursor_col)
    local win = {}
    for _, p in ipairs(win_line(state.board) or {}) do win[p[1] * 3 + p[2]] = true end
    local function glyph(v, r, c)
      if v == " " then return "       " end
      local mark = v == "X" and "╳" or "◯"
      local colour = win[r * 3 + c] and "success" or (v == "X" and "accent" or "warning")
      return "   " .. theme.fg(colour, theme.bold(mark)) .. "   "
    end
    local lines = { "┌───────┬───────┬───────┐" }
    for r = 0, 2 do
      for line = 1, 3 do
        local parts = {}
        for c = 0, 2 do
          local here = r == cursor_row and c == cursor_col
          local body = line == 2 and glyph(cell(state.board, r, c), r, c) or "       "
          if here then body = theme.bg("selectedBg", body) end
          parts[#parts + 1] = body
        end
        lines[#lines + 1] = "│" .. table.concat(parts, "│") .. "│"
      end
      lines[#lines + 1] = r < 2 and "├───────┼───────┼───────┤" or "└───────┴───────┴───────┘"
    end
    return lines
  end

  local function centred(text, width)
    local pad = math.max(0, math.floor((width - ui.visibleWidth(text)) / 2))
    return string.rep(" ", pad) .. text
  end

  local function game_over()
    local label = ({ win_X = "Player X (human) wins", win_O = "Player O (agent) wins", draw = "Draw" })[game.status] or "Game over"
    pi.sendMessage({ customType = GAME_OVER_MESSAGE, content = "Game over: " .. label .. ".", display = true, details = details() })
  end

  local function user_play(row, col)
    game.board[row + 1][col + 1] = "X"
    game.status = status_of(game.board)
    if game.status == "playing" then game.currentTurn = "O" end
    pi.appendEntry(SAVE, details())
    if game.status ~= "playing" then
      game_over()
      active = false
      return
    end
    pi.sendMessage({
      customType = MOVE_MESSAGE,
      content = string.format("Player X played at (row=%d, col=%d). It is now Player O's turn.\n\n", row, col)
        .. "Board (your cursor marked with <>):\n" .. ascii(game.board, game.agentRow, game.agentCol) .. "\n\n"
        .. string.format("Your cursor is at (row=%d, col=%d). ", game.agentRow, game.agentCol)
        .. "Decide your target cell, then emit every move_* and the final play as separate tic_tac_toe tool calls in THIS response.",
      display = true,
      details = details(),
    }, { triggerTurn = true })
  end

  pi.registerCommand("tic-tac-toe", {
    description = "Play tic-tac-toe against the agent",
    handler = function(_, ctx)
      if not ctx.hasUI then return ctx.ui.notify("Tic-tac-toe requires interactive mode", "error") end
      rebuild(ctx)
      if game.status ~= "playing" then game = new_game() end
      active = true
      pi.setSessionName("Tic-Tac-Toe")
      ctx.ui.custom(function(tui, theme, _, done)
        redraw = function() tui.requestRender() end
        local function close()
          redraw, active = nil, false
          done(nil)
        end
        return {
          handleInput = function(key)
            if key == "escape" or key == "q" or key == "Q" then return close() end
            if game.status ~= "playing" then
              if key == "r" or key == "R" then close() end
              return
            end
            if game.currentTurn ~= "X" then return end
            if key == "up" then game.userRow = math.max(0, game.userRow - 1)
            elseif key == "down" then game.userRow = math.min(2, game.userRow + 1)
            elseif key == "left" then game.userCol = math.max(0, game.userCol - 1)
            elseif key == "right" then game.userCol = math.min(2, game.userCol + 1)
            elseif (key == "enter" or key == " ") and cell(game.board, game.userRow, game.userCol) == " " then
              user_play(game.userRow, game.userCol)
            end
            tui.requestRender()
          end,
          render = function(width)
            local title = " Tic-Tac-Toe "
            local side = math.max(0, width - #title)
            local lines = {
              theme.fg("dim", string.rep("─", side // 2)) .. theme.bold(theme.fg("accent", title)) .. theme.fg("dim", string.rep("─", side - side // 2)),
              "",
            }
            local x, o = theme.bold(theme.fg("accent", "X")), theme.bold(theme.fg("warning", "O"))
            if game.status ~= "playing" then
              lines[#lines + 1] = centred(({ draw = theme.bold(theme.fg("warning", "Draw!")),
                win_X = theme.bold(theme.fg("success", "X wins!")), win_O = theme.bold(theme.fg("warning", "O wins!")) })[game.status], width)
            elseif game.currentTurn == "X" then
              lines[#lines + 1] = centred("Turn: " .. x .. " (You)  " .. theme.fg("dim", "|") .. "  " .. o .. " (Agent)", width)
            else
              lines[#lines + 1] = centred(x .. " (You)  " .. theme.fg("dim", "|") .. "  Turn: " .. o .. " (Agent)", width)
            end
            lines[#lines + 1] = ""
            local row, col = game.userRow, game.userCol
            if game.currentTurn == "O" then row, col = game.agentRow, game.agentCol end
            if game.status ~= "playing" then row, col = -1, -1 end
            for _, line in ipairs(draw_board(theme, game, row, col)) do lines[#lines + 1] = centred(line, width) end
            lines[#lines + 1] = ""
            if game.status ~= "playing" then
              lines[#lines + 1] = centred(theme.bold("R") .. " restart  " .. theme.fg("dim", "|") .. "  " .. theme.bold("Q") .. "/" .. theme.bold("ESC") .. " quit", width)
            elseif game.currentTurn ~= "X" then
              lines[#lines + 1] = centred(theme.fg("dim", "Agent is thinking..."), width)
            else
              lines[#lines + 1] = centred(theme.bold("←↑↓→") .. " move  " .. theme.fg("dim", "|") .. "  " .. theme.bold("ENTER") .. " play  "
                .. theme.fg("dim", "|") .. "  " .. theme.bold("ESC") .. " quit", width)
            end
            lines[#lines + 1] = theme.fg("dim", string.rep("─", width))
            return lines
          end,
        }
      end)
    end,
  })

  local function snapshot(theme, d)
    local lines = draw_board(theme, { board = d.board }, -1, -1)
    return table.concat(lines, "\n")
  end

  pi.registerMessageRenderer(MOVE_MESSAGE, function(message, options, theme)
    local d = message.details
    local next_turn = (type(d) == "table" and d.currentTurn == "O") and (theme.fg("warning", theme.bold("O")) .. " (Agent)")
      or (theme.fg("accent", theme.bold("X")) .. " (You)")
    local text = theme.fg("accent", theme.bold("Player X played")) .. "  " .. theme.fg("dim", "→") .. "  next: " .. next_turn
    if options.expanded and type(d) == "table" and d.board then text = text .. "\n" .. snapshot(theme, d) end
    return ui.Text(text, 1, 0)
  end)

  pi.registerMessageRenderer(GAME_OVER_MESSAGE, function(message, _, theme)
    local d = type(message.details) == "table" and message.details or {}
    local banner = ({ win_X = theme.fg("success", "X wins!"), win_O = theme.fg("warning", "O wins!") })[d.status]
      or theme.fg("warning", "Draw!")
    local text = theme.bold("Game over: ") .. theme.bold(banner)
    if d.board then text = text .. "\n" .. snapshot(theme, d) end
    return ui.Text(text, 1, 0)
  end)

  pi.on("before_agent_start", function(event)
    if not active then return end
    return { systemPrompt = event.systemPrompt .. string.format([[


## Tic-Tac-Toe (you are Player O)

A game is in progress: the human is Player X and plays in the terminal; you are
Player O and play with the `tic_tac_toe` tool.

Each time X plays you get a message with X's cell, the whole board and YOUR
cursor. That message is the truth about the board. Your cursor stays where it
is between turns and goes back to (row=%d, col=%d) only after a successful
`play`; after a failed `play` (cell taken) it stays, so move and try again.
`tic_tac_toe_see_board` restates the board and your cursor whenever you need it.
The human's cursor is never shown to you.

`tic_tac_toe` does ONE action per call:
- `move_up` / `move_down` / `move_left` / `move_right`: move your cursor one cell (it stops at the edges)
- `play`: put O under your cursor (an error if the cell is taken)

Play a whole turn in ONE response: choose the target cell, then emit the
needed move_* calls and a final `play`, each as its own tool call, without
waiting for results and without text in between. From (0,0): target (0,2) is
`move_right`, `move_right`, `play`; target (1,1) is `move_down`, `move_right`, `play`.

Strategy: win if you can complete a line of O; otherwise block a line of two X;
otherwise take the centre, then a corner, then an edge.
]], HOME_ROW, HOME_COL) }
  end)

  local function result(text)
    if redraw then redraw() end
    pi.appendEntry(SAVE, details())
    return { content = { { type = "text", text = text } }, details = details() }
  end

  pi.registerTool({
    name = "tic_tac_toe",
    label = "Tic-Tac-Toe",
    description = "Execute ONE tic-tac-toe action as Player O. `action` is exactly one of: move_up, move_down, "
      .. "move_left, move_right (move YOUR cursor one cell, clamped at edges), or play (place O under YOUR cursor; "
      .. "errors if the cell is not empty). To play at (r, c) from your cursor (r0, c0), emit the needed moves and "
      .. "then play as separate tool calls in the SAME response. Your cursor goes back to (0,0) only after a successful play.",
    promptSnippet = "Play a tic-tac-toe action (move_up/down/left/right or play) as Player O",
    promptGuidelines = {
      "When it is your tic-tac-toe turn, decide the target cell first, then emit every move_* plus the final play as separate tic_tac_toe tool calls in a SINGLE assistant response.",
      "Never ask the user for the board: it comes with the user's move message; use tic_tac_toe_see_board to have it restated.",
    },
    executionMode = "sequential",
    parameters = {
      type = "object",
      properties = {
        action = { type = "string", enum = { "move_up", "move_down", "move_left", "move_right", "play" },
          description = "The single action to perform this call." },
      },
      required = { "action" },
    },
    execute = function(_, params)
      local action = params.action
      if action ~= "play" then pi.sleep(MOVE_DELAY_MS) end
      if action == "move_up" then game.agentRow = math.max(0, game.agentRow - 1)
      elseif action == "move_down" then game.agentRow = math.min(2, game.agentRow + 1)
      elseif action == "move_left" then game.agentCol = math.max(0, game.agentCol - 1)
      elseif action == "move_right" then game.agentCol = math.min(2, game.agentCol + 1)
      end
      if action ~= "play" then
        local direction = action:sub(6)
        return result(string.format("Moved %s. Cursor: (%d, %d)", direction, game.agentRow, game.agentCol))
      end

      if game.status ~= "playing" then error("Game is over (" .. game.status .. ").", 0) end
      if game.currentTurn ~= "O" then error("It is not your turn.", 0) end
      local r, c = game.agentRow, game.agentCol
      local taken = cell(game.board, r, c)
      if taken ~= " " then
        result("")
        error(string.format("Cell (%d,%d) is already %s. Your cursor is still at (%d,%d). Move to an empty cell and retry play.",
          r, c, taken, r, c), 0)
      end
      game.board[r + 1][c + 1] = "O"
      game.status = status_of(game.board)
      game.agentRow, game.agentCol = HOME_ROW, HOME_COL
      if game.status == "playing" then
        game.currentTurn = "X"
        return result(string.format("Placed O at (%d,%d). Cursor reset to (%d,%d). Your turn, X!", r, c, HOME_ROW, HOME_COL))
      end
      active = false
      game_over()
      if game.status == "win_O" then return result(string.format("Placed O at (%d,%d). Player O wins!", r, c)) end
      if game.status == "draw" then return result(string.format("Placed O at (%d,%d). It's a draw!", r, c)) end
      return result(string.format("Placed O at (%d,%d).", r, c))
    end,
    renderCall = function(args, theme)
      return ui.Text(theme.fg("toolTitle", theme.bold("tic_tac_toe ")) .. theme.fg("muted", tostring(args.action or "")), 0, 0)
    end,
    renderResult = function(res, options, theme, context)
      local text = res.content[1] and res.content[1].text or ""
      local failed = res.isError or (context and context.isError)
      local summary = (failed and theme.fg("error", "✗ ") or theme.fg("success", "✓ ")) .. theme.fg("muted", text)
      if options.expanded and type(res.details) == "table" and res.details.board then
        summary = summary .. "\n" .. snapshot(theme, res.details)
      end
      return ui.Text(summary, 0, 0)
    end,
  })

  pi.registerTool({
    name = "tic_tac_toe_see_board",
    label = "See Board",
    description = "Return the current tic-tac-toe board state and YOUR cursor position (Player O). Takes no arguments. "
      .. "The user's cursor is never exposed.",
    promptSnippet = "Inspect the tic-tac-toe board and your cursor",
    parameters = { type = "object", properties = {} },
    execute = function()
      return {
        content = { { type = "text", text = "Board (your cursor marked with <>):\n" .. ascii(game.board, game.agentRow, game.agentCol)
          .. string.format("\n\nYour cursor: (row=%d, col=%d)\nStatus: %s\nTurn: %s", game.agentRow, game.agentCol, game.status,
            game.currentTurn == "O" and "Player O (you)" or "Player X") } },
        details = details(),
      }
    end,
    renderCall = function(_, theme) return ui.Text(theme.fg("toolTitle", theme.bold("tic_tac_toe_see_board")), 0, 0) end,
    renderResult = function(res, options, theme)
      local d = type(res.details) == "table" and res.details or {}
      local summary = theme.fg("success", "✓ ") .. theme.fg("muted", string.format("cursor (%d,%d)", d.agentCursorRow or 0, d.agentCursorCol or 0))
      if options.expanded and d.board then summary = summary .. "\n" .. snapshot(theme, d) end
      return ui.Text(summary, 0, 0)
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
