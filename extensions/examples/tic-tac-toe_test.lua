local t = pi.test

it("offers the game to the model and the user", function()
  expect(t.tools()).to_contain("tic_tac_toe")
  expect(t.commands()).to_contain({ name = "tic-tac-toe" })
end)
