local t = pi.test

it("moves the model's cursor and shows the board", function()
  t.model.reply({ tools = {
    { name = "tic_tac_toe", args = { action = "move_down" } },
    { name = "tic_tac_toe", args = { action = "move_right" } },
    { name = "tic_tac_toe_see_board", args = {} },
  } })
  t.model.reply("Your move.")
  t.send("your turn")
  local calls = t.tool_calls()
  expect(calls[1].result).to_equal("Moved down. Cursor: (1, 0)")
  expect(calls[2].result).to_equal("Moved right. Cursor: (1, 1)")
  expect(calls[3].result).to_contain("Your cursor: (row=1, col=1)")
  expect(t.commands()).to_contain({ name = "tic-tac-toe" })
end)
