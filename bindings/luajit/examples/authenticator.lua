local ffi = require("ffi")
local idlelock = require("idlelock")

-- A keystore that answers at once (a stand-in: a real one keeps the item
-- behind the platform's biometric check, not in a Lua table).
local keystore = { item = nil }
local lock = idlelock.new{
  idle_after_ms = 5 * 60 * 1000,
  unlock_reason = "Unlock to continue",
  authenticator = {
    is_available = function() return true end,      -- hardware present, enrolled
    store_secret = function(secret, len)            -- valid during the call only: copy it
      keystore.item = ffi.new("uint8_t[?]", len)
      ffi.copy(keystore.item, secret, len)
      return true                                   -- kept (false: the shortcut stays off)
    end,
    load_secret = function(reason)                  -- show `reason`, run the check
      if keystore.item == nil then return nil, idlelock.AUTH_UNAVAILABLE end
      return keystore.item                          -- the 32 bytes (copied, not wiped)
    end,
    delete_secret = function()
      if keystore.item then ffi.fill(keystore.item, ffi.sizeof(keystore.item)) end
      keystore.item = nil
    end,
  },
}
lock:set_passcode("2468")                -- the shortcut needs a passcode
lock:enable_biometrics()                 -- calls is_available, store_secret
lock:lock()
local snap = lock:unlock_with_biometrics() -- calls load_secret("Unlock to continue")
print(snap.state_name, snap.is_biometrics_enabled)  -- UNLOCKED true
lock:disable_biometrics()                -- calls delete_secret
print(keystore.item)                     -- nil
lock:close()
