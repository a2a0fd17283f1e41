local ffi = require("ffi")
local idlelock = require("idlelock")

-- Stand-ins for the platform: a keystore behind the biometric check, and a
-- native plugin polled every frame whose check answers 20 frames later.
local keystore = {}
local plugin = {}
function plugin.start_check() plugin.frames_left = 20 end
function plugin.poll()                   -- nil until the sensor answers
  if not plugin.frames_left then return nil end
  plugin.frames_left = plugin.frames_left - 1
  if plugin.frames_left > 0 then return nil end
  plugin.frames_left = nil
  local secret = ffi.new("uint8_t[32]")  -- what the keystore released
  ffi.copy(secret, keystore.item, 32)
  return idlelock.AUTH_OK, secret
end

local lock = idlelock.new{ idle_after_ms = 5 * 60 * 1000 }
lock:set_passcode("2468")

-- Settings, "Unlock with fingerprint": keep the new secret behind the check.
local enable = lock:begin_biometric_enable()
keystore.item = ffi.new("uint8_t[32]")
ffi.copy(keystore.item, enable.secret, 32)
enable:finish(idlelock.AUTH_OK)          -- the shortcut is on only now; enable.secret is wiped
print("shortcut on:", lock:snapshot().is_biometrics_enabled)  -- true

lock:lock()
local req = lock:begin_biometric_unlock() -- the lock screen's fingerprint button
plugin.start_check()
local frames = 0
while not req:is_finished() do           -- love.update, frame after frame
  lock:poll()                            -- the game keeps running meanwhile
  frames = frames + 1
  local result, secret = plugin.poll()
  if result == idlelock.AUTH_OK then
    local ok, err = pcall(req.finish, req, idlelock.AUTH_OK, secret) -- wipes secret
    if not ok then print("refused:", err.message) end                -- expired, a policy...
  elseif result then
    req:dismiss(result)                  -- AUTH_CANCELLED, AUTH_FAILED, AUTH_UNAVAILABLE
  end
end
print(lock:snapshot().state_name, "after", frames, "frames")  -- UNLOCKED after 20 frames

-- A check that never answers: the player taps "Use passcode" instead. The
-- request ends at once; an answer that comes later changes nothing.
lock:lock()
local stuck = lock:begin_biometric_unlock()
stuck:cancel()
print(stuck:is_finished(), lock:snapshot().state_name)  -- true LOCKED
lock:close()
