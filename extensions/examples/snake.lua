-- Snake as an overlay game: /snake opens it over the transcript; arrow keys steer,
-- Escape closes it and the command reports the score.
-- Run: pi -e extensions/examples/snake.lua
local function setup(pi)
  local ui = require("pi.ui")
  local COLS, ROWS = 24, 10

  local function game(tui, theme, _, done)
    local snake = { { x = 5, y = 5 }, { x = 4, y = 5 }, { x = 3, y = 5 } }
    local dir, next_dir = { x = 1, y = 0 }, { x = 1, y = 0 }
    local food, score, over = { x = 15, y = 6 }, 0, false
    local seed = 7
    local function rand(n) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n end

    local function step()
      if over then return end
      dir = next_dir
      local head = { x = snake[1].x + dir.x, y = snake[1].y + dir.y }
      if head.x < 0 or head.x >= COLS or head.y < 0 or head.y >= ROWS then over = true; return end
      for _, s in ipairs(snake) do
        if s.x == head.x and s.y == head.y then over = true; return end
      end
      table.insert(snake, 1, head)
      if head.x == food.x and head.y == food.y then
        score = score + 1
        food = { x = rand(COLS), y = rand(ROWS) }
      else
        table.remove(snake)
      end
    end

    local timer = pi.setInterval(function() step(); tui.requestRender() end, 120)
    local component = {}
    local turns = {
      up = { x = 0, y = -1 }, down = { x = 0, y = 1 }, left = { x = -1, y = 0 }, right = { x = 1, y = 0 },
    }
    function component.handleInput(key)
      for name, d in pairs(turns) do
        if ui.matchesKey(key, name) and not (d.x == -dir.x and d.y == -dir.y) then
          next_dir = d
          return true
        end
      end
      if ui.matchesKey(key, "escape") or key == "q" then
        pi.clearInterval(timer)
        done(score)
      end
      return true
    end
    function component.render(width)
      local grid = {}
      for y = 0, ROWS - 1 do
        grid[y] = {}
        for x = 0, COLS - 1 do grid[y][x] = " " end
      end
      grid[food.y][food.x] = theme.fg("error", "●")
      for i, s in ipairs(snake) do
        grid[s.y][s.x] = theme.fg("success", i == 1 and "◆" or "■")
      end
      local title = over and " GAME OVER " or " SNAKE "
      local lines = { "╭" .. title .. string.rep("─", COLS - #title) .. "╮" }
      for y = 0, ROWS - 1 do
        lines[#lines + 1] = "│" .. table.concat(grid[y], "", 0, COLS - 1) .. "│"
      end
      lines[#lines + 1] = "╰" .. string.rep("─", COLS) .. "╯"
      lines[#lines + 1] = " score " .. score .. "  " .. ui.keyHint("escape", "quit")
      for i, l in ipairs(lines) do lines[i] = ui.truncateToWidth(l, width) end
      return lines
    end
    function component.dirForTest() return dir end
    return component
  end

  pi.registerCommand("snake", {
    description = "Play snake in an overlay",
    handler = function(_, ctx)
      local score = ctx.ui.custom(game, {
        overlay = true,
        overlayOptions = { anchor = "center", width = COLS + 2 },
      })
      if score ~= nil then ctx.ui.notify("Snake score: " .. tostring(score), "info") end
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
