-- SPDX-License-Identifier: MIT
-- Run in a child process by test_idlelock.lua (issue 19): a program that
-- never closes its lock must still exit. MODE (arg 1):
--   watcher       a lock whose watcher thread locked it, never closed
--   watcher-exit  the same, ended by os.exit(0) (no lua_close: no finalizer runs)
--   listener      a lock with a Lua listener that refers to the lock (a cycle)
-- Prints "main returns" last.
local idlelock = require("idlelock")
local mode = arg[1]
local FLOOR = idlelock.KDF_MEMLIMIT_MIN

local function sleep_ms(ms) os.execute(("sleep %.3f"):format(ms / 1000)) end

kept = idlelock.new{ idle_after_ms = 100, lock_on_start = false, kdf_opslimit = 2, kdf_memlimit = FLOOR }
kept:set_passcode("2468")
if mode == "listener" then
  kept:subscribe(function() return kept:snapshot() end)
  kept:lock()
else
  kept:watch_start()
  local deadline = kept:_now() + 30000
  while not kept:poll().is_locked and kept:_now() < deadline do sleep_ms(20) end
  assert(kept:poll().is_locked, "the watcher did not lock the session")
end
print("main returns")
io.stdout:flush()
if mode == "watcher-exit" then os.exit(0) end
