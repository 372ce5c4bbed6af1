---@meta pi.ui
-- The module `require("pi.ui")` returns (also `pi.ui`); its fields are annotated as
-- pi.UiModule in ../pi-ui.lua.

---@type pi.UiModule
local ui = {}
return ui
