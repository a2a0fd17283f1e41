--[[
A minimal LÖVE game guarded by libidlelock: it locks after IDLE_MS without
input (or 5 s in the background), shows a passcode screen, and unlocks with
the passcode typed into an idlelock.passcode_buffer (never a Lua string).
The lock is driven by lock:poll() from love.update: no watcher thread, no
callback from C. The biometric shortcut goes through the two-phase pair
(libidlelock 1.2): a request begun on a key press and finished frames later,
from love.update, when the (stand-in) sensor's result arrives: the game never
blocks a frame on the check. Keys: E turns the shortcut on (unlocked), B
unlocks with it, N starts a check that the person cancels (locked).

Run it from the repository (after `make luajit`):
  IDLELOCK_LIBRARY=build/libidlelock.so.1 LUA_PATH="build/luajit/?.lua;;" love bindings/luajit/examples/love
The passcode is 2468. In a shipped game, put idlelock.lua and the CPU's
self-contained libidlelock.so (build/<cpu>/self-contained/, libsodium
inside) in the game's folder, side by side: the module finds it there
(bindings/luajit/README.md, "Finding the library").

Scripted input mode (the tests): IDLELOCK_DEMO_SCRIPT names a file of
steps that are fed through LÖVE's own event queue; see
bindings/luajit/tests/demo.script.
]]

local ffi = require("ffi")
local idlelock = require("idlelock")

local IDLE_MS = tonumber(os.getenv("IDLELOCK_DEMO_IDLE_MS")) or 30000
local SENSOR_MS = 300 -- how long the stand-in sensor takes to answer
local lock, typed, snap
local bio -- the biometric request in progress: { req, frames, what }
local message = ""
local screens_seen = {}

local function say(text)
  message = text
  print("demo: " .. text)
end

local shown -- the state line last shown

-- Shows the state when it changed (a counted attempt also changes the
-- snapshot, and must not hide its own message).
local function report(s)
  snap = s
  local line = s.is_locked and ("state " .. s.state_name .. " (" .. s.reason_name .. ")") or "state UNLOCKED"
  if line ~= shown then
    shown = line
    say(line)
  end
end

-- A stand-in for a platform's biometric plugin (a real game calls one through
-- its own ffi binding or a Lua C module): it answers only SENSOR_MS after it
-- was asked, and the game polls it each frame, as a callback that arrives
-- later. It keeps the enable secret the way a keystore keeps it behind the
-- check, in a buffer it wipes when it is replaced.
local sensor = { item = nil, pending = nil }

function sensor.store(secret)
  sensor.item = sensor.item or ffi.new("uint8_t[32]")
  ffi.copy(sensor.item, secret, 32)
  sensor.pending = { at = love.timer.getTime() + SENSOR_MS / 1000, result = idlelock.AUTH_OK }
end

function sensor.check(cancel)
  sensor.pending = { at = love.timer.getTime() + SENSOR_MS / 1000,
                     result = cancel and idlelock.AUTH_CANCELLED or idlelock.AUTH_OK, release = not cancel }
end

--- nil while the check runs; then its result and, for a release, a new
--- buffer with the secret (the binding wipes it when it finishes the request).
function sensor.poll()
  local p = sensor.pending
  if p == nil or love.timer.getTime() < p.at then return nil end
  sensor.pending = nil
  if p.release and sensor.item then
    local out = ffi.new("uint8_t[32]")
    ffi.copy(out, sensor.item, 32)
    return p.result, out
  end
  return p.result
end

function love.load()
  lock = idlelock.new{
    idle_after_ms = IDLE_MS,
    background_after_ms = 5000,
    -- OWASP's Argon2id floor: an unlock costs one frame or two here. The
    -- library's default (64 MiB) is stronger and takes a few frames.
    kdf_opslimit = 2,
    kdf_memlimit = idlelock.KDF_MEMLIMIT_MIN,
  }
  -- The demo's account. A real game lets the player choose one.
  lock:set_passcode("2468")
  lock:put_secret("save-key", "demo save key")
  lock:start() -- lock_on_start: the game opens on the passcode screen
  typed = idlelock.passcode_buffer()
  report(lock:snapshot())
  love.keyboard.setKeyRepeat(true)
  if os.getenv("IDLELOCK_DEMO_SCRIPT") then require("script").start(os.getenv("IDLELOCK_DEMO_SCRIPT")) end
end

-- Begins a biometric request; an error (the shortcut is off, a passcode
-- policy requires the passcode) is said instead.
local function begin_biometric(what)
  local ok, req = pcall(what == "enable" and lock.begin_biometric_enable or lock.begin_biometric_unlock, lock)
  if not ok then
    say("biometrics refused: " .. (req.message or tostring(req)))
    return
  end
  bio = { req = req, frames = 0, what = what }
  if what == "enable" then sensor.store(req.secret) else sensor.check(what == "cancel") end
end

-- Finishes the request in progress once the sensor has answered: the frame
-- never waits for it.
local function update_biometrics()
  if bio == nil then return end
  bio.frames = bio.frames + 1
  local result, secret = sensor.poll()
  if result == nil then return end
  local current = bio
  bio = nil
  if result ~= idlelock.AUTH_OK then
    report(current.req:dismiss(result) or lock:snapshot())
    say("biometric check cancelled: use the passcode")
    return
  end
  local ok, err = pcall(current.req.finish, current.req, idlelock.AUTH_OK, secret)
  report(lock:snapshot())
  if not ok then
    say("biometrics failed: " .. tostring(err.message or err))
  elseif current.what == "enable" then
    say("biometrics on")
  else
    say(("unlocked with biometrics (%d frames drawn while the check ran)"):format(current.frames))
  end
end

function love.update(dt)
  local s, changed = lock:poll()
  if changed then report(s) end
  snap = s
  update_biometrics() -- its report() updates snap when a request finished
  if package.loaded.script then package.loaded.script.update(lock, dt) end
end

local function try_unlock()
  local ok, err = pcall(lock.unlock, lock, typed)
  typed:clear()
  if ok then
    report(lock:snapshot())
  elseif idlelock.is_error(err, idlelock.ERR_INVALID_PASSCODE) then
    say("wrong passcode: " .. err.attempts_remaining .. " attempts remaining")
  elseif idlelock.is_error(err, idlelock.ERR_RETRY_LATER) then
    say(("too many tries: wait %d s"):format(math.ceil(err.ms_until_retry / 1000)))
  elseif idlelock.is_error(err, idlelock.ERR_LOCKED_OUT) then
    say("locked out: sign in again")
  else
    say("unlock failed: " .. tostring(err))
  end
end

function love.textinput(text)
  if snap.is_locked then
    typed:append(text)
  else
    lock:touch()
  end
end

function love.keypressed(key)
  if not snap.is_locked then
    lock:touch()
    if key == "l" then report(lock:lock()) end -- "Lock now"
    if key == "e" and bio == nil then begin_biometric("enable") end
    return
  end
  if (key == "b" or key == "n") and bio == nil then
    begin_biometric(key == "b" and "unlock" or "cancel")
    return
  end
  if key == "return" or key == "kpenter" then
    try_unlock()
  elseif key == "backspace" then
    typed:backspace()
  elseif key == "escape" then
    typed:clear()
  end
end

function love.mousepressed()
  if not snap.is_locked then lock:touch() end
end

function love.mousemoved()
  if not snap.is_locked then lock:touch() end
end

-- Focus lost (another window on top): inactive; minimized: background.
function love.focus(focused)
  if focused then lock:foreground() else lock:inactive() end
end

function love.visible(visible)
  if visible then lock:foreground() else lock:background() end
end

local function screen(name)
  if not screens_seen[name] then
    screens_seen[name] = true
    print("demo: drew the " .. name .. " screen")
  end
end

function love.draw()
  local g = love.graphics
  if snap.is_locked then
    screen("passcode")
    g.clear(0.12, 0.12, 0.16)
    g.print("Locked (" .. snap.reason_name .. ")", 40, 40, 0, 2, 2)
    g.print("Passcode: " .. ("*"):rep(typed:len()), 40, 120, 0, 1.5, 1.5)
    g.print("Type it and press Enter (it is 2468).", 40, 170)
    if snap.is_biometrics_enabled and not snap.is_passcode_required then
      g.print(bio and "Touch the sensor..." or "Or press B to unlock with biometrics.", 40, 200)
    end
  else
    screen("game")
    g.clear(0.1, 0.25, 0.15)
    g.print("Session open", 40, 40, 0, 2, 2)
    local left = snap.ms_until_idle_lock
    g.print(left == idlelock.NEVER and "No idle lock" or ("Locks after %.1f s without input"):format(left / 1000), 40, 120)
    g.print("Press L to lock now" .. (snap.is_biometrics_enabled and "." or ", E to turn biometrics on."), 40, 150)
  end
  g.print(message, 40, 260)
end

function love.quit()
  typed:clear()
  if sensor.item then ffi.fill(sensor.item, 32) end
  lock:close() -- an open request ends here: its secret is wiped
end

-- For the script: what the screen shows.
function demo_state() return snap, message end -- luacheck: ignore
