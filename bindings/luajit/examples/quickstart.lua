local ffi = require("ffi")
local idlelock = require("idlelock")

local lock = idlelock.new{ idle_after_ms = 5 * 60 * 1000,     -- lock after 5 min without input
                           background_after_ms = 30 * 1000 }  -- or after 30 s in the background
lock:set_passcode("2468")                -- the player picks it; a Lua string is bytes as is
lock:put_secret("save_key", "k3y-bytes") -- sealed while locked
local snap = lock:start()                -- at launch: an engaged session starts locked
print(snap.state_name, snap.reason_name) -- LOCKED STARTUP

local ok, err = pcall(lock.unlock, lock, "1357")
if not ok and err.status == idlelock.ERR_INVALID_PASSCODE then
  print("wrong passcode,", err.attempts_remaining, "attempts left")  -- 4 attempts left
end
print(lock:unlock("2468").state_name)    -- UNLOCKED

local buf, n = lock:get_secret("save_key") -- a uint8_t[n] that is yours
print(ffi.string(buf, n))                -- k3y-bytes
ffi.fill(buf, n)                         -- wipe it when done

lock:touch()                             -- on every input event
snap = lock:poll()                       -- every frame: calls check() only when a deadline is due
print(snap.state_name, snap.ms_until_idle_lock <= 5 * 60 * 1000)  -- UNLOCKED true
lock:close()                             -- or let the collector do it
