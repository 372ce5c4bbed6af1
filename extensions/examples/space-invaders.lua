-- /invaders: Space Invaders in the terminal. ←→ or A/D move, Space or F
-- fires, Esc pauses (the game is saved in the session), Q quits.
-- Movement is one step per key press; hold a key and the terminal's key
-- repeat keeps the ship moving.
--
--   pi -e extensions/examples/space-invaders.lua
local WIDTH, HEIGHT = 60, 24
local TICK_MS = 50
local PLAYER_Y = HEIGHT - 2
local ROWS, COLS = 5, 11
local SHIELD_Y = PLAYER_Y - 5
local SAVE = "space-invaders-save"

local function new_aliens()
  local aliens = {}
  for row = 0, ROWS - 1 do
    local kind = row == 0 and 2 or (row < 3 and 1 or 0)
    for col = 0, COLS - 1 do
      aliens[#aliens + 1] = { x = 4 + col * 5, y = 2 + row * 2, type = kind, alive = true }
    end
  end
  return aliens
end

local function new_shields()
  local shields = {}
  for _, x in ipairs({ 8, 22, 36, 50 }) do
    shields[#shields + 1] = { x = x, segments = { { true, true, true, true }, { true, true, true, true }, { true, false, false, true } } }
  end
  return shields
end

local function new_game(high, level)
  level = level or 1
  return {
    player = { x = WIDTH // 2, lives = 3 },
    aliens = new_aliens(), alienDirection = 1, alienMoveCounter = 0,
    alienMoveDelay = math.max(5, 20 - level * 2), alienDropping = false,
    bullets = {}, shields = new_shields(),
    score = 0, highScore = high or 0, level = level,
    gameOver = false, victory = false, alienShootCounter = 0,
  }
end

local function alive(state)
  local list = {}
  for _, a in ipairs(state.aliens) do if a.alive then list[#list + 1] = a end end
  return list
end

local function move_aliens(state)
  local living = alive(state)
  if #living == 0 then return end
  if state.alienDropping then
    for _, a in ipairs(living) do
      a.y = a.y + 1
      if a.y >= PLAYER_Y - 1 then state.gameOver = true; return end
    end
    state.alienDropping = false
  else
    local min_x, max_x = math.huge, -math.huge
    for _, a in ipairs(living) do min_x, max_x = math.min(min_x, a.x), math.max(max_x, a.x) end
    if (state.alienDirection == 1 and max_x >= WIDTH - 3) or (state.alienDirection == -1 and min_x <= 2) then
      state.alienDirection = -state.alienDirection
      state.alienDropping = true
    else
      for _, a in ipairs(living) do a.x = a.x + state.alienDirection end
    end
  end
  local n = #living
  if n <= 5 then state.alienMoveDelay = 1 elseif n <= 10 then state.alienMoveDelay = 2 elseif n <= 20 then state.alienMoveDelay = 3 end
end

local function alien_shoot(state)
  local lowest = {}
  for _, a in ipairs(alive(state)) do
    if not lowest[a.x] or a.y > lowest[a.x].y then lowest[a.x] = a end
  end
  local shooters = {}
  for _, a in pairs(lowest) do shooters[#shooters + 1] = a end
  local falling = 0
  for _, b in ipairs(state.bullets) do if b.direction == 1 then falling = falling + 1 end end
  if #shooters > 0 and falling < 3 then
    local s = shooters[math.random(#shooters)]
    state.bullets[#state.bullets + 1] = { x = s.x, y = s.y + 1, direction = 1 }
  end
end

local function collide(state)
  local kept = {}
  for _, b in ipairs(state.bullets) do
    local hit = false
    if b.direction == -1 then
      for _, a in ipairs(state.aliens) do
        if a.alive and math.abs(b.x - a.x) <= 1 and b.y == a.y then
          a.alive, hit = false, true
          state.score = state.score + ({ 10, 20, 30 })[a.type + 1]
          state.highScore = math.max(state.highScore, state.score)
          break
        end
      end
    elseif math.abs(b.x - state.player.x) <= 1 and b.y == PLAYER_Y then
      hit = true
      state.player.lives = state.player.lives - 1
      if state.player.lives <= 0 then state.gameOver = true end
    end
    for _, shield in ipairs(state.shields) do
      local rx, ry = b.x - shield.x, b.y - SHIELD_Y
      if rx >= 0 and rx < 4 and ry >= 0 and ry < 3 and shield.segments[ry + 1][rx + 1] then
        shield.segments[ry + 1][rx + 1] = false
        hit = true
      end
    end
    if not hit then kept[#kept + 1] = b end
  end
  state.bullets = kept
end

local function tick(state, input)
  if input.left and state.player.x > 2 then state.player.x = state.player.x - 1 end
  if input.right and state.player.x < WIDTH - 3 then state.player.x = state.player.x + 1 end
  input.left, input.right = false, false
  if input.cooldown > 0 then input.cooldown = input.cooldown - 1 end
  if input.fire and input.cooldown == 0 then
    local rising = 0
    for _, b in ipairs(state.bullets) do if b.direction == -1 then rising = rising + 1 end end
    if rising < 2 then
      state.bullets[#state.bullets + 1] = { x = state.player.x, y = PLAYER_Y - 1, direction = -1 }
      input.cooldown = 8
    end
  end
  input.fire = false
  local moved = {}
  for _, b in ipairs(state.bullets) do
    b.y = b.y + b.direction
    if b.y >= 0 and b.y < HEIGHT then moved[#moved + 1] = b end
  end
  state.bullets = moved
  state.alienMoveCounter = state.alienMoveCounter + 1
  if state.alienMoveCounter >= state.alienMoveDelay then
    state.alienMoveCounter = 0
    move_aliens(state)
  end
  state.alienShootCounter = state.alienShootCounter + 1
  if state.alienShootCounter >= 30 then
    state.alienShootCounter = 0
    alien_shoot(state)
  end
  collide(state)
  if #alive(state) == 0 then state.victory = true end
end

local SPRITES = { { "╲", "▼", "╱" }, { "╱", "◆", "╲" }, { "◄", "☆", "►" } }

-- Coloured glyphs are made once per theme: drawing runs 20 times a second.
local function glyphs(theme)
  local tint = { "success", "accent", "customMessageLabel" }
  local g = { aliens = {} }
  for kind = 1, 3 do
    g.aliens[kind] = {}
    for i = 1, 3 do g.aliens[kind][i] = theme.fg(tint[kind], SPRITES[kind][i]) end
  end
  g.shot = theme.fg("warning", "│")
  g.bomb = theme.fg("error", "│")
  g.shield = theme.fg("dim", "█")
  g.ship = { theme.bold("═"), theme.bold("▲"), theme.bold("═") }
  return g
end

local function draw(state, theme, g, paused, width)
  local ui = require("pi.ui")
  local grid = {}
  for y = 0, HEIGHT - 1 do grid[y] = {} end
  for _, b in ipairs(state.bullets) do grid[b.y][b.x] = b.direction == -1 and g.shot or g.bomb end
  for dx = -1, 1 do grid[PLAYER_Y][state.player.x + dx] = g.ship[dx + 2] end
  for _, shield in ipairs(state.shields) do
    for ry = 0, 2 do
      for rx = 0, 3 do
        if shield.segments[ry + 1][rx + 1] then grid[SHIELD_Y + ry][shield.x + rx] = g.shield end
      end
    end
  end
  for _, a in ipairs(state.aliens) do
    if a.alive and grid[a.y] then
      local sprite = g.aliens[a.type + 1]
      for dx = -1, 1 do grid[a.y][a.x + dx] = sprite[dx + 2] end
    end
  end

  local dim = function(s) return theme.fg("dim", s) end
  local function boxed(content) return dim(" │") .. ui.padToWidth(content, WIDTH) .. dim("│") end
  local lines = { dim(" ╭" .. string.rep("─", WIDTH) .. "╮") }
  local y_ = function(s) return theme.bold(theme.fg("warning", s)) end
  lines[#lines + 1] = boxed(theme.bold(theme.fg("success", "SPACE INVADERS")) .. " │ Score: " .. y_(state.score)
    .. " │ Hi: " .. y_(state.highScore) .. " │ Lv: " .. theme.bold(theme.fg("accent", tostring(state.level)))
    .. " │ " .. theme.fg("error", string.rep("♥", state.player.lives)))
  lines[#lines + 1] = dim(" ├" .. string.rep("─", WIDTH) .. "┤")
  for y = 0, HEIGHT - 1 do
    local row = {}
    for x = 0, WIDTH - 1 do row[#row + 1] = grid[y][x] or " " end
    lines[#lines + 1] = dim(" │") .. table.concat(row) .. dim("│")
  end
  lines[#lines + 1] = dim(" ├" .. string.rep("─", WIDTH) .. "┤")
  local footer
  if paused then
    footer = theme.bold(theme.fg("warning", "PAUSED")) .. " Press any key to continue, " .. theme.bold("Q") .. " to quit"
  elseif state.gameOver then
    footer = theme.bold(theme.fg("error", "GAME OVER!")) .. " Press " .. theme.bold("R") .. " to restart, " .. theme.bold("Q") .. " to quit"
  elseif state.victory then
    footer = theme.bold(theme.fg("success", "VICTORY!")) .. " Press " .. theme.bold("R") .. " for level " .. (state.level + 1)
      .. ", " .. theme.bold("Q") .. " to quit"
  else
    footer = "←→ or AD to move, " .. theme.bold("SPACE") .. "/F to fire, " .. theme.bold("ESC") .. " pause, " .. theme.bold("Q") .. " quit"
  end
  lines[#lines + 1] = boxed(footer)
  lines[#lines + 1] = dim(" ╰" .. string.rep("─", WIDTH) .. "╯")
  if width < WIDTH + 3 then
    for i, line in ipairs(lines) do lines[i] = ui.truncateToWidth(line, width) end
  end
  return lines
end

local function setup(pi)
  pi.registerCommand("invaders", {
    description = "Play Space Invaders!",
    handler = function(_, ctx)
      if not ctx.hasUI then return ctx.ui.notify("Space Invaders requires interactive mode", "error") end
      local saved
      local entries = ctx.sessionManager.getEntries()
      for i = #entries, 1, -1 do
        if entries[i].type == "custom" and entries[i].customType == SAVE then saved = entries[i].data; break end
      end

      ctx.ui.custom(function(tui, theme, _, done)
        local state, paused
        if type(saved) == "table" and saved.aliens and not saved.gameOver and not saved.victory then
          state, paused = saved, true
        else
          state, paused = new_game(type(saved) == "table" and saved.highScore or 0), false
        end
        local input = { left = false, right = false, fire = false, cooldown = 0 }
        local g = glyphs(theme)
        local timer
        local function start()
          timer = pi.setInterval(function()
            if not state.gameOver and not state.victory then
              tick(state, input)
              tui.requestRender()
            end
          end, TICK_MS)
        end
        local function stop()
          if timer then pi.clearInterval(timer) end
          timer = nil
        end
        if not paused then start() end

        return {
          render = function(width) return draw(state, theme, g, paused, width) end,
          handleInput = function(key)
            if paused then
              if key == "escape" or key == "q" or key == "Q" then stop(); return done(nil) end
              paused = false
              start()
              return tui.requestRender()
            end
            if key == "escape" then
              stop()
              pi.appendEntry(SAVE, state)
              return done(nil)
            end
            if key == "q" or key == "Q" then
              stop()
              pi.appendEntry(SAVE, pi.json.null)
              return done(nil)
            end
            if key == "left" or key == "a" or key == "A" then input.left = true end
            if key == "right" or key == "d" or key == "D" then input.right = true end
            if key == " " or key == "f" or key == "F" then input.fire = true end
            if (state.gameOver or state.victory) and (key == "r" or key == "R" or key == " ") then
              state = new_game(state.highScore, state.victory and state.level + 1 or 1)
              input = { left = false, right = false, fire = false, cooldown = 0 }
              pi.appendEntry(SAVE, pi.json.null)
              tui.requestRender()
            end
          end,
          dispose = stop,
        }
      end)
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
