-- SPDX-License-Identifier: MIT
-- Run in a fresh LuaJIT state by test_idlelock.lua (in the big test file,
-- earlier tests' callbacks make LuaJIT's own heuristic blacklist the call
-- sites and would hide the danger this checks).
--
-- A hot loop calls check() until the idle deadline passes and the call that
-- locks runs the listener. The loop is compiled long before that; a
-- compiled FFI call that calls back into Lua ends the process with "bad
-- callback", so the binding must route such calls through a function the
-- JIT never compiles. Prints "ok <calls>" on success.
local idlelock = require("idlelock")
local l = idlelock.new{ idle_after_ms = 150, kdf_opslimit = 2, kdf_memlimit = idlelock.KDF_MEMLIMIT_MIN }
l:set_passcode("2468")
local locks = 0
l:subscribe(function(s) if s.is_locked then locks = locks + 1 end end)
local deadline, calls = l:_now() + 5000, 0
while locks == 0 and l:_now() < deadline do
  l:check()
  calls = calls + 1
end
l:close()
if locks ~= 1 then
  print("the listener did not run (" .. locks .. ")")
  os.exit(1)
end
print("ok " .. calls)
