local t = pi.test

it("says so when the folder is not a git repository", function()
  t.start()
  expect(t.ui_calls("notify")[1]).to_have_shape({
    message = "github-issue-autocomplete: cwd is not a git repository", notifyType = "error",
  })
end)
