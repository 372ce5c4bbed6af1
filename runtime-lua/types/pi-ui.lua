---@meta
-- LuaLS annotations for pi's UI components: `local ui = require("pi.ui")`
-- (the same table is `pi.ui`). See docs/extension-ui.md.

---A component: anything with render(width). Lines are strings that may
---hold ANSI colours; each must fit in `width` columns.
---@class pi.Component
---@field render fun(width: integer): string[]
---@field handleInput? fun(key: string): any key ids: "a", "A", " ", "up", "escape", "enter", "ctrl+x"
---@field invalidate? fun()
---@field dispose? fun() called when a custom component closes

---Handed to component factories.
---@class pi.Tui
---@field requestRender fun() render this component again soon
---@field width integer terminal columns when the factory ran
---@field height integer terminal rows when the factory ran
---@field setInterval fun(fn: fun(), ms: integer): integer
---@field clearInterval fun(id: integer)

---@class pi.Keybindings
---@field matches fun(key: string, id: string): boolean does `key` trigger keybinding `id` (e.g. "tui.select.cancel")

---@alias pi.ComponentFactory fun(tui: pi.Tui, theme: pi.Theme, keybindings: pi.Keybindings, done: fun(value?: any)): pi.Component

---@class pi.OverlayOptions
---@field anchor? "center"|"top"|"bottom"|"left"|"right"|"top-left"|"top-right"|"bottom-left"|"bottom-right"
---@field width? integer|string cells, or a percentage like "50%" (default: up to 80 cells)
---@field minWidth? integer least width in cells
---@field maxHeight? integer|string
---@field margin? integer|{top?: integer, right?: integer, bottom?: integer, left?: integer} cells kept free at the edges (default 0; negative counts as 0)
---@field row? integer|string top edge in cells, or "N%" (0% top, 100% bottom); overrides the anchor's row
---@field col? integer|string left edge in cells, or "N%" (0% left, 100% right); overrides the anchor's column
---@field offsetX? integer
---@field offsetY? integer
---@field nonCapturing? boolean shown without taking the keyboard (its handle's `focus()` gives it)
---@field visible? fun(width: integer, height: integer): boolean drawn (and focusable) only while this answers true; asked again at every render

---@class pi.OverlayHandle
---@field hide fun() remove the overlay for good (the `custom` call still waits for `done`)
---@field setHidden fun(hidden: boolean) hide it for now, or show it again (a capturing overlay shown again takes the keyboard)
---@field isHidden fun(): boolean
---@field focus fun() give it the keyboard and draw it on top of the other overlays
---@field unfocus fun() hand the keyboard back (to the topmost capturing overlay, else to what had it before)
---@field isFocused fun(): boolean

---@class pi.CustomOptions
---@field overlay? boolean draw over the screen instead of in place of the editor
---@field overlayOptions? pi.OverlayOptions
---@field onHandle? fun(handle: pi.OverlayHandle) receives the overlay's handle as soon as it is shown

---@class pi.ToolRenderContext
---@field state table kept per tool call across renders
---@field lastComponent? pi.Component what this slot returned last time
---@field invalidate fun() render this row again
---@field toolCallId string
---@field args table
---@field expanded boolean
---@field isPartial boolean

---@class pi.SelectItem
---@field value any
---@field label? string
---@field description? string

---@class pi.SelectList: pi.Component
---@field selectedIndex integer
---@field onSelect? fun(item: pi.SelectItem)
---@field onCancel? fun()
---@field onSelectionChange? fun(item: pi.SelectItem)
---@field setFilter fun(text: string)
---@field getSelectedItem fun(): pi.SelectItem|nil

---@class pi.SettingItem
---@field id string
---@field label? string
---@field currentValue string
---@field values string[]

---@class pi.Container: pi.Component
---@field addChild fun(c: pi.Component): pi.Component
---@field removeChild fun(c: pi.Component)
---@field clear fun()

---@class pi.UiModule
---@field visibleWidth fun(text: string): integer columns on screen (ANSI codes take none)
---@field truncateToWidth fun(text: string, width: integer, ellipsis?: string): string default ellipsis "…"
---@field wrapTextWithAnsi fun(text: string, width: integer): string[] keeps colours across lines
---@field sliceByColumn fun(text: string, start: integer, length?: integer): string columns [start, start+length)
---@field padToWidth fun(text: string, width: integer): string
---@field matchesKey fun(key: string, spec: string): boolean `key` is a key id (`"ctrl+c"`) or raw terminal data (`"\x03"`, `"\x1b[27;5;99~"`)
---@field keyHint fun(id: string, text: string): string keys of keybinding `id` (or a key spec) and `text`
---@field setInterval fun(fn: fun(), ms: integer): integer
---@field setTimeout fun(fn: fun(), ms: integer): integer
---@field clearInterval fun(id: integer)
---@field clearTimeout fun(id: integer)
---@field defaultTheme pi.Theme
---@field keybindings pi.Keybindings
---@field Text fun(text?: string, paddingX?: integer, paddingY?: integer, bg?: fun(s: string): string): pi.Component
---@field TruncatedText fun(text?: string, paddingX?: integer, paddingY?: integer): pi.Component
---@field Box fun(paddingX?: integer, paddingY?: integer, bg?: fun(s: string): string): pi.Container
---@field Container fun(): pi.Container
---@field Spacer fun(lines?: integer): pi.Component
---@field Markdown fun(text?: string, paddingX?: integer, paddingY?: integer, theme?: pi.Theme): pi.Component
---@field SelectList fun(items: pi.SelectItem[], maxVisible?: integer, theme?: pi.Theme): pi.SelectList
---@field SettingsList fun(items: pi.SettingItem[], maxVisible?: integer, theme?: pi.Theme, onChange?: fun(id: string, value: string), onCancel?: fun()): pi.Component
---@field Border fun(color?: fun(s: string): string): pi.Component
---@field DynamicBorder fun(color?: fun(s: string): string): pi.Component
---@field Loader fun(tui?: pi.Tui, spinnerColor?: fun(s: string): string, messageColor?: fun(s: string): string, message?: string): pi.Component
