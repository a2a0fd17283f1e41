--[[
The demo's scripted input mode (IDLELOCK_DEMO_SCRIPT): each line of the
script is a step, fed through LÖVE's own event queue so the demo's real
handlers run. Steps:

  expect STATE [MS]   wait (at most MS, default 5000) until the state is STATE
  see TEXT            the status line contains TEXT now
  await TEXT          wait (at most 5000 ms) until the status line contains TEXT
  wait MS             let MS milliseconds of real time pass
  text STRING         type STRING (one textinput event per character)
  key NAME            press and release a key (return, backspace, l, ...)
  click               a mouse click
  focus true|false    the window gains or loses focus
  visible true|false  the window is shown or minimized
  # ...               a comment

When the last step is done it prints "demo: script passed" and quits with
status 0; a step that fails prints "demo: FAIL ..." and quits with 1.
]]

local M = {}
local steps, index, started, waited = {}, 1, nil, 0

function M.start(path)
  for line in io.lines(path) do
    if line:match("%S") and not line:match("^%s*#") then
      local cmd, rest = line:match("^%s*(%S+)%s*(.-)%s*$")
      steps[#steps + 1] = { cmd = cmd, arg = rest, line = line }
    end
  end
  print("demo: script with " .. #steps .. " steps")
end

local function fail(step, why)
  print("demo: FAIL at \"" .. step.line .. "\": " .. why)
  love.event.quit(1)
  index = math.huge
end

local function utf8_chars(s)
  return s:gmatch("[%z\1-\127\194-\244][\128-\191]*")
end

function M.update(lock, dt)
  local step = steps[index]
  if step == nil then
    if index ~= math.huge then
      print("demo: script passed")
      love.event.quit(0)
      index = math.huge
    end
    return
  end
  local snap, message = demo_state() -- luacheck: ignore
  local now = love.timer.getTime() * 1000
  started = started or now
  local elapsed = now - started
  local done = true
  if step.cmd == "expect" then
    local state, limit = step.arg:match("^(%S+)%s*(%d*)$")
    if snap.state_name ~= state then
      done = false
      if elapsed > (tonumber(limit) or 5000) then return fail(step, "the state is " .. snap.state_name) end
    end
  elseif step.cmd == "await" then
    if not message:find(step.arg, 1, true) then
      done = false
      if elapsed > 5000 then return fail(step, "the status line is \"" .. message .. "\"") end
    end
  elseif step.cmd == "see" then
    if not message:find(step.arg, 1, true) then return fail(step, "the status line is \"" .. message .. "\"") end
  elseif step.cmd == "wait" then
    done = elapsed >= tonumber(step.arg)
  elseif step.cmd == "text" then
    for ch in utf8_chars(step.arg) do love.event.push("textinput", ch) end
  elseif step.cmd == "key" then
    love.event.push("keypressed", step.arg, step.arg, false)
    love.event.push("keyreleased", step.arg, step.arg)
  elseif step.cmd == "click" then
    love.event.push("mousepressed", 100, 100, 1, false, 1)
    love.event.push("mousereleased", 100, 100, 1, false, 1)
  elseif step.cmd == "focus" then
    love.event.push("focus", step.arg == "true")
  elseif step.cmd == "visible" then
    love.event.push("visible", step.arg == "true")
  else
    return fail(step, "unknown step")
  end
  if done then
    index = index + 1
    started = nil
  end
end

return M
