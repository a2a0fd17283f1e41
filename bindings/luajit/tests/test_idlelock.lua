-- SPDX-License-Identifier: MIT
-- The LuaJIT binding's tests, on LuaJIT and the real libidlelock. A plain
-- runner: a failure prints its name and error, a pass prints nothing; the
-- run ends with "N passed, N failed".
--
--   luajit test_idlelock.lua C_VIEW HEADER
--   C_VIEW: what the C compiler says of the header's constants and struct
--   layouts (build/gen-bindings/c-view.txt, printed by the program
--   scripts/gen-bindings.py --c-check writes); IDLELOCK_LIBRARY and
--   LUA_PATH set by `make test-luajit`

local ffi = require("ffi")
local bit = require("bit")
local idlelock = require("idlelock")

local c_view_path, header_path = ...
local passed, failed = 0, 0
-- With IDLELOCK_TEST_ONLY set, only the tests whose name contains it run (a
-- name that matches none fails the run).
local only = os.getenv("IDLELOCK_TEST_ONLY")

local function test(name, body)
  if only and not name:find(only, 1, true) then return end
  local ok, err = xpcall(body, debug.traceback)
  if ok then
    passed = passed + 1
  else
    failed = failed + 1
    print("FAIL " .. name .. ": " .. tostring(err))
  end
end

local function check(cond, what)
  if not cond then error("check failed: " .. what, 2) end
end

local function eq(got, want, what)
  if got ~= want then error(what .. ": got " .. tostring(got) .. ", want " .. tostring(want), 2) end
end

--- Runs f and returns the idlelock error it raised (fails if it raised none
--- or another kind); `status` (optional) is the expected status.
local function raises(status, f, ...)
  local ok, err = pcall(f, ...)
  if ok then error("expected an error, nothing was raised", 2) end
  if status == "closed" then
    check(type(err) == "string" and err:find("closed", 1, true), "a closed-lock error, got " .. tostring(err))
    return err
  end
  if not idlelock.is_error(err) then error("expected an idlelock error, got " .. tostring(err), 2) end
  if status and err.status ~= status then
    error("expected " .. idlelock.status_name(status) .. ", got " .. tostring(err), 2)
  end
  return err
end

local function contains(text, part, what)
  check(type(text) == "string" and text:find(part, 1, true), what .. ": \"" .. tostring(text) .. "\" lacks \"" .. part .. "\"")
end

local FLOOR = idlelock.KDF_MEMLIMIT_MIN

local function fake_clock()
  local c = { now = 1000000, reads = 0 }
  c.fn = function() c.reads = c.reads + 1; return c.now end
  return c
end

local function fast(clock, extra)
  local o = { idle_after_ms = 60000, background_after_ms = 30000, kdf_opslimit = 2, kdf_memlimit = FLOOR,
              clock = clock and clock.fn or nil }
  for k, v in pairs(extra or {}) do o[k] = v end
  return idlelock.new(o)
end

local function sleep_ms(ms)
  os.execute(("sleep %.3f"):format(ms / 1000))
end

-- --------------------------------------------------------------- module

test("the generated constants and the cdef's layouts are the C compiler's", function()
  local n, fields = 0, 0
  for line in io.lines(c_view_path) do
    local name, value = line:match("^(IDLELOCK_%S+) (.*)$")
    local struct, field, offset = line:match("^(idlelock_[%w_]+)%.([%w_]+) (%d+) %d+$")
    local sized, size = line:match("^sizeof (idlelock_[%w_]+) (%d+)$")
    if name then
      local mine = idlelock.const[name]
      check(mine ~= nil, name .. " is in the module")
      if type(mine) == "string" then
        eq(mine, value, name)
      else
        eq(tostring(ffi.cast("int64_t", mine)):gsub("LL$", ""), value, name)
      end
      n = n + 1
    elseif struct then
      eq(ffi.offsetof(struct, field), tonumber(offset), struct .. "." .. field)
      fields = fields + 1
    elseif sized then
      eq(ffi.sizeof(sized), tonumber(size), "sizeof " .. sized)
    else
      error("unexpected line: " .. line)
    end
  end
  check(n >= 50, "compared " .. n)
  check(fields >= 40, "fields " .. fields)
  eq(idlelock.ERR_RETRY_LATER, 12, "short name")
  eq(idlelock.NEVER, math.huge, "NEVER for Lua")
end)

test("the module finds the library it ships with, never one from the current folder", function()
  -- Fresh LuaJIT processes with no IDLELOCK_LIBRARY: a rock's tree, a folder
  -- with both files, a LÖVE game folder; a broken bundled copy is an error
  -- (no fallback); a planted ./idlelock/libidlelock.so is never loaded.
  local module = package.searchpath("idlelock", package.path)
  local lib = idlelock.library_path
  local dir = os.tmpname()
  os.remove(dir)
  local function sh(command)
    local p = assert(io.popen(command .. " 2>&1; echo \"exit $?\""))
    local out = p:read("*a")
    p:close()
    return out
  end
  local function q(x) return "'" .. x .. "'" end
  sh("mkdir -p " .. q(dir .. "/tree/share/lua/5.1") .. " " .. q(dir .. "/tree/lib/lua/5.1/idlelock") .. " " ..
     q(dir .. "/game") .. " " .. q(dir .. "/broken") .. " " .. q(dir .. "/cwd/idlelock") .. " " .. q(dir .. "/love"))
  sh("cp " .. q(module) .. " " .. q(dir .. "/tree/share/lua/5.1/idlelock.lua") .. " && cp " .. q(lib) .. " " ..
     q(dir .. "/tree/lib/lua/5.1/idlelock/libidlelock.so"))
  sh("cp " .. q(module) .. " " .. q(lib) .. " " .. q(dir .. "/game/") .. " && mv " .. q(dir .. "/game/" .. lib:match("[^/]+$")) ..
     " " .. q(dir .. "/game/libidlelock.so"))
  sh("cp " .. q(module) .. " " .. q(dir .. "/broken/") .. " && : > " .. q(dir .. "/broken/libidlelock.so"))
  sh("cp " .. q(lib) .. " " .. q(dir .. "/cwd/idlelock/libidlelock.so") .. " && cp " .. q(lib) .. " " .. q(dir .. "/love/libidlelock.so"))
  local function loaded(lua_path, code, cwd)
    return sh("cd " .. q(cwd or dir) .. " && env -u IDLELOCK_LIBRARY -u LD_LIBRARY_PATH LUA_PATH=" .. q(lua_path) ..
              " LUA_CPATH='./?.so' " .. q(arg[-1]) .. " -e " .. q(code or 'print(require("idlelock").library_path)'))
  end
  eq(loaded(dir .. "/tree/share/lua/5.1/?.lua"), dir .. "/tree/lib/lua/5.1/idlelock/libidlelock.so\nexit 0\n", "a rock's tree")
  eq(loaded(dir .. "/game/?.lua"), dir .. "/game/libidlelock.so\nexit 0\n", "beside the module")
  eq(loaded(dir .. "/tree/share/lua/5.1/?.lua;" .. dir .. "/game/?.lua"), dir .. "/tree/lib/lua/5.1/idlelock/libidlelock.so\nexit 0\n",
     "the copy of the module that was loaded decides")
  local broken = loaded(dir .. "/broken/?.lua")
  contains(broken, dir .. "/broken/libidlelock.so", "names the bundled copy")
  contains(broken, "the only place tried", "no fallback")
  check(not broken:find("exit 0", 1, true), "a broken bundled copy is an error: " .. broken)
  -- LÖVE: the module has no file path; the game's folder holds the library.
  local preload = "package.preload.idlelock = loadstring(io.open([[" .. module .. "]]):read([[*a]]), [[=idlelock.lua]]) "
  local game = "love = { filesystem = { getSource = function() return [[" .. dir .. "/love]] end, " ..
               "getSourceBaseDirectory = function() return [[" .. dir .. "]] end } } " .. preload ..
               "print(require([[idlelock]]).library_path)"
  eq(loaded(";;", game), dir .. "/love/libidlelock.so\nexit 0\n", "a LÖVE game's folder")
  -- An unfused game folder's getSourceBaseDirectory() is the folder above
  -- the game, not the game's: a library there is never loaded (whoever can
  -- write /tmp could plant one beside /tmp/mygame). Regression: it was.
  -- Beside a .love file (getSource() is that file) it is the place.
  sh("mkdir -p " .. q(dir .. "/above/mygame") .. " && : > " .. q(dir .. "/above/mygame/main.lua") .. " && : > " ..
     q(dir .. "/above/g.love") .. " && cp " .. q(lib) .. " " .. q(dir .. "/above/libidlelock.so"))
  local function love_game(source)
    return "love = { filesystem = { getSource = function() return [[" .. source .. "]] end, " ..
           "getSourceBaseDirectory = function() return [[" .. dir .. "/above]] end } } " .. preload ..
           "print(require([[idlelock]]).library_path)"
  end
  local above = loaded(";;", love_game(dir .. "/above/mygame"))
  check(not above:find(dir .. "/above/libidlelock.so", 1, true),
        "an unfused game loaded the library planted in the folder above it: " .. above)
  eq(loaded(";;", love_game(dir .. "/above/g.love")), dir .. "/above/libidlelock.so\nexit 0\n", "beside a .love file")
  -- A relative cpath entry ("./?.so") never brings in a library from the
  -- current folder: with nothing bundled and no system copy, it fails.
  local planted = loaded(dir .. "/broken-none/?.lua;;", preload .. "print(require([[idlelock]]).library_path)", dir .. "/cwd")
  check(not planted:find(dir .. "/cwd", 1, true), "a library planted in the current folder was loaded: " .. planted)
  sh("rm -rf " .. q(dir))
end)

test("every function of the header is in the cdef and the library", function()
  local f = assert(io.open(header_path))
  local header = f:read("*a"):gsub("/%*.-%*/", "")
  f:close()
  local n = 0
  for name in header:gmatch("(idlelock_[%w_]+)%s*%(") do
    check(pcall(function() return idlelock.C[name] end), name .. " resolves")
    n = n + 1
  end
  check(n >= 37, "functions: " .. n)
end)

test("versions and struct sizes agree with the library", function()
  eq(idlelock.version(), idlelock.HEADER_VERSION, "version")
  eq(idlelock.version_number(), idlelock.VERSION_NUMBER, "number")
  eq(ffi.sizeof("idlelock_config"), tonumber(idlelock.C.idlelock_config_size()), "config")
  eq(ffi.sizeof("idlelock_snapshot"), tonumber(idlelock.C.idlelock_snapshot_size()), "snapshot")
  eq(ffi.sizeof("idlelock_authenticator"), tonumber(idlelock.C.idlelock_authenticator_size()), "authenticator")
  eq(ffi.sizeof("idlelock_delay_step"), tonumber(idlelock.C.idlelock_delay_step_size()), "delay step")
  eq(idlelock.status_name(3), "IDLELOCK_ERR_INVALID_PASSCODE", "status name")
  eq(idlelock.status_name(4242), "IDLELOCK_ERR_UNKNOWN", "unknown")
  local ios = idlelock.ios_delay_schedule()
  eq(#ios, 4, "ios steps")
  eq(ios[1][1], 5, "first step")
  eq(ios[4][2], 3600000, "last delay")
end)

test("every README example is its examples/ file as printed, and runs", function()
  -- Each ```lua block of the README is announced by its file's link on the
  -- line before; the file's text is the block's, byte for byte, and the
  -- file runs on a fresh LuaJIT with the output in examples/<name>.expected.
  local f = assert(io.open("../README.md", "rb"))
  local readme = f:read("*a")
  f:close()
  local _, fences = readme:gsub("\n```lua\n", "")
  local seen = {}
  for name, block in readme:gmatch("%[`examples/([%w_]+%.lua)`%]%(examples/[%w_]+%.lua%):\n\n```lua\n(.-)```\n") do
    seen[#seen + 1] = name
    local file = assert(io.open("../examples/" .. name, "rb"))
    eq(file:read("*a"), block, "examples/" .. name .. " is the README's block")
    file:close()
    local p = assert(io.popen(("cd ../examples && '%s' %s 2>&1; echo \"exit $?\""):format(arg[-1], name)))
    local out = p:read("*a")
    p:close()
    local want = assert(io.open("../examples/" .. name:gsub("%.lua$", ".expected"), "rb"))
    eq(out, want:read("*a") .. "exit 0\n", name .. "'s output")
    want:close()
  end
  eq(#seen, fences, "every ```lua block names its examples/ file")
  eq(table.concat(seen, " "), "quickstart.lua biometric_request.lua authenticator.lua", "the examples")
end)

-- --------------------------------------------------------------- config

test("options out of range name the field", function()
  local function bad(o, part)
    local e = raises(idlelock.ERR_INVALID_ARGUMENT, idlelock.new, o)
    contains(e.message, part, "message")
  end
  bad({}, "idle_after_ms")
  bad({ idle_after_ms = 1000, grace_ms = 60001 }, "grace_ms")
  bad({ idle_after_ms = 1000, max_attempts = 0 }, "max_attempts")
  bad({ idle_after_ms = 1000, kdf_opslimit = 1 }, "kdf_opslimit")
  bad({ idle_after_ms = 1000, warn_before_ms = 1000 }, "warn_before_ms")
  bad({ idle_after_ms = 1000, device_key = "short" }, "device_key")
  bad({ idle_after_ms = 1000, unlock_reason = ("r"):rep(513) }, "unlock_reason")
  bad({ idle_after_ms = 1000, delay_schedule = "ios" }, "max_attempts")
  bad({ idle_after_ms = 1000, delay_schedule = { { 2, 10 }, { 1, 20 } } }, "delay")
  -- The binding's own checks.
  bad({ idle_after_ms = 1.5 }, "idle_after_ms")
  bad({ idle_after_ms = "60000" }, "idle_after_ms")
  bad({ idle_after_ms = 1000, store_path = "/tmp/a\0b" }, "store_path")
  bad({ idle_after_ms = 1000, lock_on_start = 1 }, "lock_on_start")
  bad({ idle_after_ms = 1000, clock = 5 }, "clock")
  bad({ idle_after_ms = 1000, idle_afer_ms = 5 }, "unknown option idle_afer_ms")
  bad({ idle_after_ms = 1000, kdf_memlimit = -1 }, "kdf_memlimit")
  idlelock.new{ idle_after_ms = 1000, delay_schedule = "ios", max_attempts = 10 }:close()
  idlelock.new{ idle_after_ms = idlelock.NEVER, background_after_ms = 0 }:close()
end)

-- ---------------------------------------------------------------- rules

test("start, lock, unlock; idle timeout; the next deadline", function()
  local clock = fake_clock()
  local l = fast(clock)
  local s = l:start()
  eq(s.state_name, "UNLOCKED", "not engaged")
  eq(s.ms_until_idle_lock, idlelock.NEVER, "no idle deadline")
  l:set_passcode("2468")
  s = l:lock()
  eq(s.reason, idlelock.REASON_MANUAL, "manual")
  check(s.is_locked, "is_locked")
  eq(l:unlock("2468").state, idlelock.STATE_UNLOCKED, "unlocked")
  clock.now = clock.now + 59000
  l:touch()
  eq(l:snapshot().ms_until_next_deadline, 60000, "touch moved it")
  clock.now = clock.now + 60000
  eq(l:check().reason_name, "IDLE", "idle")
  l:close()
end)

test("grace window, background timeout, clock step, lock on start", function()
  local clock = fake_clock()
  local l = fast(clock)
  l:set_passcode("2468")
  check(l:background().is_away, "away")
  clock.now = clock.now + 1500
  eq(l:foreground().state_name, "UNLOCKED", "within grace")
  l:background()
  clock.now = clock.now + 30000
  eq(l:foreground().reason_name, "BACKGROUNDED", "backgrounded")
  l:unlock("2468")
  clock.now = clock.now - 1
  eq(l:check().reason_name, "CLOCK", "clock step")
  l:close()
  local l2 = fast(fake_clock())
  l2:set_passcode("2468")
  eq(l2:start().reason_name, "STARTUP", "lock on start")
  l2:close()
end)

test("named platform states, prompts, the warning", function()
  local clock = fake_clock()
  local l = fast(clock, { warn_before_ms = 10000 })
  l:set_passcode("2468")
  check(l:lifecycle(idlelock.PLATFORM_ANDROID_LIFECYCLE_EVENT, "ON_STOP").is_away, "ON_STOP")
  check(not l:lifecycle(idlelock.PLATFORM_ANDROID_LIFECYCLE_EVENT, "ON_RESUME").is_away, "ON_RESUME")
  local seq = l:snapshot().seq
  eq(raises(idlelock.ERR_INVALID_ARGUMENT, l.lifecycle, l, idlelock.PLATFORM_IOS_SCENE_PHASE, "Active").message,
     "state_name is not a state of idlelock.PLATFORM_IOS_SCENE_PHASE; its states are active, inactive, " ..
     "background (the platform's own spelling, case-sensitive)", "lists the valid names")
  local e = raises(idlelock.ERR_INVALID_ARGUMENT, l.lifecycle, l, 99, "active")
  contains(e.message, "platform 99 is not a platform this library knows; use one of idlelock.PLATFORM_IOS_SCENE_PHASE (1), ",
           "lists the platforms")
  contains(e.message, "idlelock.PLATFORM_REACT_NATIVE_APP_STATE (5)", "all of them")
  eq(l:snapshot().seq, seq, "nothing changed")
  -- The names listed are the library's: each one is accepted.
  local platforms = 0
  for value = 1, 5 do
    local listed = raises(idlelock.ERR_INVALID_ARGUMENT, l.lifecycle, l, value, "Nope").message
    listed = listed:match("; its states are (.*) %(the platform's own spelling, case%-sensitive%)$")
    local names = 0
    for name in listed:gmatch("[^, ]+") do l:lifecycle(value, name); l:foreground(); names = names + 1 end
    check(names >= 3, "platform " .. value .. " lists its names")
    platforms = platforms + 1
  end
  eq(platforms, 5, "every platform has its list")
  local token = l:prompt_begin()
  clock.now = clock.now + 90000
  eq(l:check().state_name, "UNLOCKED", "deferred by the prompt")
  l:prompt_end(token)
  raises(idlelock.ERR_INVALID_ARGUMENT, l.prompt_end, l, token)
  clock.now = clock.now + 50000
  check(l:check().is_warning, "warning")
  l:touch()
  check(not l:snapshot().is_warning, "activity ends it")
  l:close()
end)

-- ------------------------------------------------------------ passcodes

test("attempts, lockout, sign-out, a delay", function()
  local l = fast(fake_clock(), { max_attempts = 3 })
  raises(idlelock.ERR_NO_PASSCODE, l.unlock, l, "2468")
  l:set_passcode("2468")
  l:lock()
  local e = raises(idlelock.ERR_INVALID_PASSCODE, l.unlock, l, "1111")
  eq(e.attempts_remaining, 2, "attempts_remaining")
  eq(e.snapshot.state_name, "LOCKED", "snapshot")
  eq(tostring(e), "idlelock.ERR_INVALID_PASSCODE: " .. e.message, "tostring, in the module's names")
  eq(e.name, "IDLELOCK_ERR_INVALID_PASSCODE", "the library's name")
  raises(idlelock.ERR_INVALID_PASSCODE, l.unlock, l, "1112")
  eq(raises(idlelock.ERR_LOCKED_OUT, l.unlock, l, "1113").snapshot.state_name, "LOCKED_OUT", "out")
  raises(idlelock.ERR_SESSION_LOCKED, l.set_passcode, l, "1357")
  l:disable()
  check(not l:snapshot().is_enabled, "signed out")
  l:close()
  local clock = fake_clock()
  local d = fast(clock, { delay_schedule = { { 1, 5000 } } })
  d:set_passcode("2468")
  d:lock()
  raises(idlelock.ERR_INVALID_PASSCODE, d.unlock, d, "0000")
  eq(raises(idlelock.ERR_RETRY_LATER, d.unlock, d, "2468").ms_until_retry, 5000, "ms_until_retry")
  clock.now = clock.now + 5000
  eq(d:unlock("2468").state_name, "UNLOCKED", "after the delay")
  d:close()
end)

test("passcode bytes: NUL and emoji as is, invalid UTF-8 refused, buffers", function()
  local l = fast(fake_clock())
  local pass = "a\0b\240\159\152\128c" -- a NUL b 😀 c
  l:set_passcode(pass)
  l:lock()
  raises(idlelock.ERR_INVALID_ARGUMENT, l.unlock, l, "a\192\128b") -- C0 80: modified UTF-8's NUL
  eq(l:snapshot().attempts_remaining, 5, "not counted")
  eq(l:unlock(pass).state_name, "UNLOCKED", "the same bytes")
  l:lock()
  local buf = idlelock.passcode_buffer()
  buf:append("a"); buf:append("\0"); buf:append("b"); buf:append("x")
  buf:backspace()
  buf:append("\240\159\152\128"); buf:append("\226\130\172") -- 😀 €
  buf:backspace()                                            -- removes the 3-byte €
  buf:append("c")
  eq(buf:len(), #pass, "typed in place")
  eq(l:unlock(buf).state_name, "UNLOCKED", "a passcode_buffer")
  buf:clear()
  eq(buf:len(), 0, "cleared")
  for i = 0, buf.cap - 1 do check(buf.buf[i] == 0, "wiped") end
  l:lock()
  local raw = ffi.new("uint8_t[?]", #pass)
  ffi.copy(raw, pass, #pass)
  eq(l:unlock(raw, #pass).state_name, "UNLOCKED", "an ffi buffer with a length")
  contains(raises(idlelock.ERR_INVALID_ARGUMENT, l.set_passcode, l, "123").message, "4", "min 4")
  contains(raises(idlelock.ERR_INVALID_ARGUMENT, l.set_passcode, l, ("x"):rep(1025)).message, "1024", "max")
  l:close()
end)

-- -------------------------------------------------------------- secrets

test("secrets: the buffer belongs to the caller; locked; not found", function()
  local l = fast(fake_clock())
  l:put_secret("token", "eyJhbGciOi")
  local buf, n = l:get_secret("token")
  eq(ffi.string(buf, n), "eyJhbGciOi", "value")
  ffi.fill(buf, n)
  eq(l:get_secret_string("token"), "eyJhbGciOi", "a fresh copy")
  l:put_secret("empty", "")
  local _, zero = l:get_secret("empty")
  eq(zero, 0, "empty")
  local big = ("\7"):rep(65536)
  l:put_secret("max", big)
  eq(l:get_secret_string("max"), big, "64 KiB")
  local raw = ffi.new("uint8_t[3]", { 1, 2, 3 })
  l:put_secret("raw", raw, 3)
  eq(l:get_secret_string("raw"), "\1\2\3", "from an ffi buffer")
  l:remove_secret("token")
  raises(idlelock.ERR_NOT_FOUND, l.get_secret, l, "token")
  l:require_unlocked()
  l:set_passcode("2468")
  l:lock()
  raises(idlelock.ERR_SESSION_LOCKED, l.get_secret, l, "raw")
  raises(idlelock.ERR_SESSION_LOCKED, l.require_unlocked, l)
  l:unlock("2468")
  eq(l:get_secret_string("raw"), "\1\2\3", "restored")
  contains(raises(idlelock.ERR_INVALID_ARGUMENT, l.put_secret, l, ("n"):rep(65), "v").message, "64", "name length")
  contains(raises(idlelock.ERR_INVALID_ARGUMENT, l.put_secret, l, "big", ("v"):rep(65537)).message, "65536", "value")
  l:close()
end)

-- ------------------------------------------------------------ listeners

test("listeners hear each change in order, on this thread, until unsubscribed", function()
  local l = fast(fake_clock())
  local heard = {}
  local token = l:subscribe(function(s) heard[#heard + 1] = s end)
  l:set_passcode("2468")
  l:lock()
  l:unlock("2468")
  check(#heard >= 3, "heard " .. #heard)
  for i = 2, #heard do check(heard[i].seq > heard[i - 1].seq, "seq order") end
  l:unsubscribe(token)
  local n = #heard
  l:lock()
  eq(#heard, n, "nothing after unsubscribe")
  raises(idlelock.ERR_INVALID_ARGUMENT, l.unsubscribe, l, token)
  l:close()
end)

test("a listener may call into the lock, unsubscribe itself, and its error surfaces after the call", function()
  local l = fast(fake_clock())
  local inner, token
  token = l:subscribe(function() inner = l:snapshot(); l:unsubscribe(token) end)
  l:set_passcode("2468")
  check(inner and inner.is_enabled, "called back in")
  inner = nil
  l:lock()
  check(inner == nil, "unsubscribed itself")
  l:unlock("2468")
  l:subscribe(function() error("listener bug") end)
  local ok, err = pcall(l.lock, l)
  check(not ok and tostring(err):find("listener bug", 1, true), "raised: " .. tostring(err))
  eq(l:snapshot().state_name, "LOCKED", "the call took effect")
  l:close()
end)

test("a clock that fails locks the session; one that calls in is refused", function()
  local clock = fake_clock()
  local broken, reenter, self = false, false, nil
  local l = idlelock.new{ idle_after_ms = 60000, kdf_opslimit = 2, kdf_memlimit = FLOOR, clock = function()
    if broken then error("clock broke") end
    if reenter then self:touch() end
    return clock.now
  end }
  self = l
  l:set_passcode("2468")
  broken = true
  local ok, err = pcall(l.touch, l)
  check(not ok and tostring(err):find("clock broke", 1, true), "raised")
  broken = false
  eq(l:snapshot().reason_name, "CLOCK", "failed closed")
  l:unlock("2468")
  reenter = true
  ok, err = pcall(l.check, l)
  check(not ok and tostring(err):find("must not call", 1, true), "refused: " .. tostring(err))
  reenter = false
  eq(l:snapshot().reason_name, "CLOCK", "the failed reading locked it")
  l:close()
end)

test("the JIT never compiles a call that may run a Lua callback", function()
  -- In a fresh state: see jit_callback.lua. A panic there exits non-zero.
  local p = assert(io.popen(("'%s' jit_callback.lua 2>&1"):format(arg[-1])))
  local output = p:read("*a")
  local ok = p:close()
  check(ok and output:match("^ok %d+"), "jit_callback.lua: " .. output)
  check(tonumber(output:match("^ok (%d+)")) > 1000, "a hot loop: " .. output)
  -- Without callbacks the plain path is taken, and compiled.
  local plain = idlelock.new{ idle_after_ms = 60000 }
  for _ = 1, 300000 do plain:touch() end
  plain:close()
end)

test("the watcher: refused with Lua callbacks; with none it locks on time and poll() sees it", function()
  local l = idlelock.new{ idle_after_ms = 300, kdf_opslimit = 2, kdf_memlimit = FLOOR }
  l:set_passcode("2468")
  local token = l:subscribe(function() end)
  contains(raises(idlelock.ERR_INVALID_ARGUMENT, l.watch_start, l).message, "another thread", "why")
  l:unsubscribe(token)
  l:watch_start()
  contains(raises(idlelock.ERR_INVALID_ARGUMENT, l.subscribe, l, function() end).message, "watcher", "why")
  local s = l:poll()
  eq(s.state_name, "UNLOCKED", "unlocked at first")
  sleep_ms(700)
  -- The watcher thread locked it with no call from Lua; poll() reports it.
  local snap, changed = l:poll()
  eq(snap.state_name, "LOCKED", "locked by the watcher")
  eq(snap.reason_name, "IDLE", "IDLE")
  check(changed, "changed")
  l:watch_stop()
  l:subscribe(function() end) -- allowed again
  local clocked = fast(fake_clock())
  contains(raises(idlelock.ERR_INVALID_ARGUMENT, clocked.watch_start, clocked).message, "clock", "a Lua clock")
  clocked:close()
  l:close()
end)

test("poll() calls check() only when the next deadline has come", function()
  local clock = fake_clock()
  local l = fast(clock)
  l:set_passcode("2468")
  local s, changed = l:poll()
  check(changed, "the first poll reports a change")
  local reads = clock.reads
  s, changed = l:poll()
  eq(clock.reads - reads, 1, "only poll's own clock reading: no check before the deadline")
  check(not changed, "nothing changed")
  clock.now = clock.now + 60000
  reads = clock.reads
  s, changed = l:poll()
  eq(clock.reads - reads, 2, "the deadline came: poll read the clock and check() read it")
  eq(s.reason_name, "IDLE", "locked")
  check(changed, "changed")
  l:close()
end)

-- ------------------------------------------------------------ biometrics

--- A keystore that answers at once (the shape of the authenticator option):
--- it keeps the secret in an ffi buffer; `answer` is what the next check says.
local function sync_keystore()
  local ks = { item = nil, answer = nil, calls = {}, available = true }
  ks.auth = {
    is_available = function() ks.calls[#ks.calls + 1] = "is_available"; return ks.available end,
    store_secret = function(secret, len)
      ks.calls[#ks.calls + 1] = "store_secret"
      ks.item = ffi.new("uint8_t[?]", len)
      ffi.copy(ks.item, secret, len)
      return true
    end,
    load_secret = function(reason)
      ks.calls[#ks.calls + 1] = "load_secret " .. tostring(reason)
      if ks.answer then return nil, ks.answer end
      return ks.item
    end,
    delete_secret = function() ks.calls[#ks.calls + 1] = "delete_secret"; ks.item = nil end,
  }
  return ks
end

test("an authenticator whose keystore answers at once: enable, unlock, outcomes, delete", function()
  local ks = sync_keystore()
  local l = fast(fake_clock(), { authenticator = ks.auth, unlock_reason = "Unlock the game" })
  l:set_passcode("2468")
  check(l:snapshot().is_biometrics_available, "is_available was asked at create")
  l:enable_biometrics()
  check(l:snapshot().is_biometrics_enabled and ks.item ~= nil, "stored")
  l:lock()
  eq(l:unlock_with_biometrics().state_name, "UNLOCKED", "the released secret opened it")
  eq(ks.calls[#ks.calls], "load_secret Unlock the game", "the reason reached the check")
  l:lock()
  ks.answer = idlelock.AUTH_CANCELLED
  contains(raises(idlelock.ERR_LOCK_UNAVAILABLE, l.unlock_with_biometrics, l).message:lower(), "cancel", "cancelled")
  ks.answer = nil
  ks.auth.load_secret = function() error("the keystore broke") end
  local ok, err = pcall(l.unlock_with_biometrics, l)
  check(not ok and tostring(err.callback_error or err):find("the keystore broke", 1, true), "re-raised: " .. tostring(err))
  eq(l:snapshot().attempts_remaining, 5, "never counted")
  ks.auth.load_secret = function() return "short" end
  raises(idlelock.ERR_LOCK_UNAVAILABLE, l.unlock_with_biometrics, l)
  ks.auth.load_secret = function() return 42 end
  ok, err = pcall(l.unlock_with_biometrics, l)
  contains(tostring(err.callback_error or err), "got number", "says the type it got")
  l:unlock("2468")
  l:disable_biometrics()
  eq(ks.calls[#ks.calls], "delete_secret", "the item is deleted")
  check(ks.item == nil, "gone")
  contains(raises(idlelock.ERR_INVALID_ARGUMENT, l.watch_start, l).message, "authenticator", "no watcher: it could call Lua")
  l:close()
  contains(raises(idlelock.ERR_INVALID_ARGUMENT, fast, nil, { authenticator = { is_available = 1 } }).message,
           "authenticator.is_available must be a function, got number", "names the field and the type")
end)

test("biometric calls without an authenticator: LOCK_UNAVAILABLE, nothing changed", function()
  local l = fast(fake_clock())
  l:set_passcode("2468")
  raises(idlelock.ERR_LOCK_UNAVAILABLE, l.enable_biometrics, l)
  l:lock()
  raises(idlelock.ERR_LOCK_UNAVAILABLE, l.unlock_with_biometrics, l)
  l:disable_biometrics()
  eq(l:snapshot().attempts_remaining, 5, "never counted")
  l:close()
end)

-- ---------------------------------------------- biometric requests (1.2)

--- A lock with a passcode whose shortcut was turned on through the pair;
--- returns the lock and the host's copy of the secret (a uint8_t[32]).
local function enabled_by_pair(clock, extra)
  local l = fast(clock, extra)
  l:set_passcode("2468")
  local req = l:begin_biometric_enable()
  eq(req.purpose, idlelock.BIOMETRIC_ENABLE, "purpose")
  eq(req.purpose_name, "ENABLE", "purpose_name")
  local item = ffi.new("uint8_t[32]")
  ffi.copy(item, req.secret, 32)
  check(ffi.string(item, 32) ~= ("\0"):rep(32), "a random secret")
  req:finish(idlelock.AUTH_OK)
  check(l:snapshot().is_biometrics_enabled, "enabled through the pair")
  return l, item
end

local function copy32(item)
  local c = ffi.new("uint8_t[32]")
  ffi.copy(c, item, 32)
  return c
end

local function zero(buf, n) return ffi.string(buf, n or 32) == ("\0"):rep(n or 32) end

test("pair: finished frames later from the game loop; the binding wipes both secrets", function()
  local clock = fake_clock()
  local l = fast(clock)
  l:set_passcode("2468")
  local enable = l:begin_biometric_enable()
  local own = enable.secret
  local item = copy32(own)
  check(enable:outcome() == nil, "open: no outcome yet")
  check(not enable.snapshot.is_biometrics_enabled, "not on before the finish")
  check(enable:finish(idlelock.AUTH_OK).is_biometrics_enabled, "on after the finish")
  check(zero(own), "the request's copy of the enable secret is wiped")
  check(enable:is_finished(), "finished")
  l:lock()
  -- A platform whose check answers after a few frames (a native plugin polled in love.update).
  local platform = coroutine.wrap(function()
    for _ = 1, 5 do coroutine.yield(nil) end
    coroutine.yield(idlelock.AUTH_OK, copy32(item))
  end)
  local req = l:begin_biometric_unlock()
  eq(req.purpose_name, "UNLOCK", "purpose_name")
  eq(req.secret, nil, "an unlock hands out no secret")
  check(req.token ~= 0, "a token")
  local frames, released = 0, nil
  while not req:is_finished() do
    local s = l:poll()                  -- the frame goes on
    eq(s.state_name, "LOCKED", "locked while the check runs")
    frames = frames + 1
    clock.now = clock.now + 16
    local result, secret = platform()
    if result then released = secret; req:finish(result, secret) end
  end
  check(frames >= 5, "frames were drawn while the check ran: " .. frames)
  local ok, s = req:outcome()
  check(ok, "the outcome is a success")
  eq(s.state_name, "UNLOCKED", "unlocked")
  eq(l:snapshot().state_name, "UNLOCKED", "the lock agrees")
  check(zero(released), "the buffer handed to finish is wiped")
  eq(s.last_auth_ms, clock.now, "last_auth_ms is the finish's clock reading")
  eq(s.attempts_remaining, 5, "no attempt counted")
  l:close()
end)

test("pair: cancelled, failed and unavailable checks change nothing but the prompt", function()
  local l, item = enabled_by_pair(fake_clock())
  l:lock()
  local req = l:begin_biometric_unlock()
  local e = raises(idlelock.ERR_LOCK_UNAVAILABLE, req.finish, req, idlelock.AUTH_CANCELLED)
  contains(e.message:lower(), "cancel", "says cancelled")
  eq(e.snapshot.state_name, "LOCKED", "still locked")
  local ok, err = req:outcome()
  check(ok == false and idlelock.is_error(err, idlelock.ERR_LOCK_UNAVAILABLE), "the outcome has it too")
  local failed = l:begin_biometric_unlock()
  contains(raises(idlelock.ERR_LOCK_UNAVAILABLE, failed.finish, failed, idlelock.AUTH_FAILED).message:lower(), "fail", "says failed")
  local gone = l:begin_biometric_unlock()
  raises(idlelock.ERR_LOCK_UNAVAILABLE, gone.finish, gone, idlelock.AUTH_UNAVAILABLE)
  local dismissed = l:begin_biometric_unlock()
  raises(idlelock.ERR_INVALID_ARGUMENT, dismissed.dismiss, dismissed, idlelock.AUTH_OK)
  eq(dismissed:dismiss(idlelock.AUTH_FAILED).state_name, "LOCKED", "dismiss returns the snapshot, raises nothing")
  eq(dismissed:cancel(), nil, "nothing left to dismiss")
  local s = l:snapshot()
  eq(s.attempts_remaining, 5, "never counted")
  check(s.is_biometrics_enabled, "the shortcut stays on")
  eq(l:unlock("2468").state_name, "UNLOCKED", "the passcode works")
  l:close()
end)

test("pair: a secret that does not open the wrap turns the shortcut off", function()
  local l, item = enabled_by_pair(fake_clock())
  l:lock()
  local req = l:begin_biometric_unlock()
  local wrong = copy32(item)
  wrong[0] = bit.bxor(wrong[0], 1)
  raises(idlelock.ERR_LOCK_UNAVAILABLE, req.finish, req, idlelock.AUTH_OK, wrong)
  check(zero(wrong), "wiped even when refused")
  local s = l:snapshot()
  eq(s.state_name, "LOCKED", "still locked")
  check(not s.is_biometrics_enabled, "turned off")
  raises(idlelock.ERR_LOCK_UNAVAILABLE, l.begin_biometric_unlock, l)
  eq(l:unlock("2468").state_name, "UNLOCKED", "the passcode remains")
  l:close()
end)

test("pair: a request left open past prompt_cap_ms expires (a Lua clock)", function()
  local clock = fake_clock()
  local l, item = enabled_by_pair(clock, { prompt_cap_ms = 10000 })
  l:lock()
  local req = l:begin_biometric_unlock()
  clock.now = clock.now + 10001
  contains(raises(idlelock.ERR_LOCK_UNAVAILABLE, req.finish, req, idlelock.AUTH_OK, copy32(item)).message,
           "expired", "says expired")
  eq(l:snapshot().state_name, "LOCKED", "a late release unlocks nothing")
  check(req:is_finished(), "finished all the same")
  raises(idlelock.ERR_INVALID_ARGUMENT, req.finish, req, idlelock.AUTH_OK, copy32(item))
  local fresh = l:begin_biometric_unlock()
  clock.now = clock.now + 9999
  eq(fresh:finish(idlelock.AUTH_OK, copy32(item)).state_name, "UNLOCKED", "within the cap it unlocks")
  l:close()
end)

test("pair: a token finished twice (also from a listener inside its finish): one finish counts", function()
  local l, item = enabled_by_pair(fake_clock())
  l:lock()
  local req = l:begin_biometric_unlock()
  eq(req:finish(idlelock.AUTH_OK, copy32(item)).state_name, "UNLOCKED", "the first finish")
  l:lock()
  contains(raises(idlelock.ERR_INVALID_ARGUMENT, req.finish, req, idlelock.AUTH_OK, copy32(item)).message,
           "token", "names the token")
  eq(l:snapshot().state_name, "LOCKED", "a finished token unlocks nothing")
  local ok, s = req:outcome()
  check(ok and s.state_name == "UNLOCKED", "the outcome keeps the first finish")
  local inner
  local r = l:begin_biometric_unlock()
  local token = l:subscribe(function()
    if inner == nil then inner = { pcall(r.finish, r, idlelock.AUTH_OK, copy32(item)) } end
  end)
  eq(r:finish(idlelock.AUTH_OK, copy32(item)).state_name, "UNLOCKED", "the outer finish wins")
  l:unsubscribe(token)
  check(inner and inner[1] == false and idlelock.is_error(inner[2], idlelock.ERR_INVALID_ARGUMENT), "the inner one is refused")
  local ok2, s2 = r:outcome()
  check(ok2 and s2.state_name == "UNLOCKED", "the outcome is the outer finish's")
  l:close()
end)

test("pair: disable_biometrics, disable and a new passcode void open requests", function()
  local l, item = enabled_by_pair(fake_clock())
  l:lock()
  local req = l:begin_biometric_unlock()
  l:disable_biometrics()
  raises(idlelock.ERR_INVALID_ARGUMENT, req.finish, req, idlelock.AUTH_OK, copy32(item))
  eq(l:snapshot().state_name, "LOCKED", "a voided request unlocks nothing")
  local ok, err = req:outcome()
  check(ok == false and idlelock.is_error(err, idlelock.ERR_INVALID_ARGUMENT), "the outcome says voided")
  eq(req:cancel(), nil, "cancel of an ended request does nothing")
  l:close()
  l = fast(fake_clock())
  l:set_passcode("2468")
  local enable = l:begin_biometric_enable()
  l:set_passcode("1357")
  raises(idlelock.ERR_INVALID_ARGUMENT, enable.finish, enable, idlelock.AUTH_OK)
  check(not l:snapshot().is_biometrics_enabled, "never turned on")
  check(zero(enable.secret), "its secret wiped when it ended")
  local other = l:begin_biometric_enable()
  l:disable()
  raises(idlelock.ERR_INVALID_ARGUMENT, other.finish, other, idlelock.AUTH_OK)
  check(not l:snapshot().is_enabled, "signed out")
  l:close()
end)

test("pair: bad arguments are refused before the library and leave the request open", function()
  local l, item = enabled_by_pair(fake_clock())
  l:lock()
  local req = l:begin_biometric_unlock()
  contains(raises(idlelock.ERR_INVALID_ARGUMENT, req.finish, req, 7).message, "result", "names result")
  contains(raises(idlelock.ERR_INVALID_ARGUMENT, req.finish, req, idlelock.AUTH_OK).message, "secret", "names secret")
  local short = ffi.new("uint8_t[31]")
  ffi.copy(short, item, 31)
  contains(raises(idlelock.ERR_INVALID_ARGUMENT, req.finish, req, idlelock.AUTH_OK, short).message, "31", "says the length")
  check(zero(short, 31), "a refused buffer is wiped too")
  raises(idlelock.ERR_INVALID_ARGUMENT, req.finish, req, idlelock.AUTH_OK, ffi.cast("uint8_t *", item)) -- a pointer needs its length
  raises(idlelock.ERR_INVALID_ARGUMENT, req.finish, req, idlelock.AUTH_CANCELLED, copy32(item))
  raises(idlelock.ERR_INVALID_ARGUMENT, req.finish, req, idlelock.AUTH_OK, "short")
  check(not req:is_finished() and req:outcome() == nil, "still open")
  eq(req:finish(idlelock.AUTH_OK, ffi.string(item, 32)).state_name, "UNLOCKED", "a Lua string of 32 bytes works (unwipable)")
  local enable = l:begin_biometric_enable()
  contains(raises(idlelock.ERR_INVALID_ARGUMENT, enable.finish, enable, idlelock.AUTH_OK, copy32(item)).message,
           "ENABLE", "an enable takes no secret")
  enable:cancel()
  check(enable:is_finished(), "cancel ended it")
  l:close()
end)

ffi.cdef[[ struct idlelock_test_guarded { uint8_t key[32]; uint8_t guard[8]; }; ]]

test("a length larger than the ffi array is refused: nothing past the array is read or wiped", function()
  -- Issue 19: finish(result, array, len) wiped len bytes (the next field of
  -- the caller's struct), put_secret(name, array, len) read past the array.
  local l, item = enabled_by_pair(fake_clock())
  local s = ffi.new("struct idlelock_test_guarded")
  local function arm() ffi.copy(s.key, item, 32); ffi.fill(s.guard, 8, 0xAA) end
  local function guard_intact() return ffi.string(s.guard, 8) == ("\170"):rep(8) end
  l:lock()
  local req = l:begin_biometric_unlock()
  arm()
  local e = raises(idlelock.ERR_INVALID_ARGUMENT, req.finish, req, idlelock.AUTH_OK, s.key, 40)
  contains(e.message, "40", "names the length")
  contains(e.message, "32-byte", "names the array's size")
  check(guard_intact(), "the field after the array was overwritten")
  check(zero(s.key), "the array itself is wiped (finish wipes what it was handed, within its bounds)")
  check(not req:is_finished(), "the request stays open")
  arm()
  raises(idlelock.ERR_INVALID_ARGUMENT, req.finish, req, idlelock.AUTH_CANCELLED, s.key, 33)
  check(guard_intact(), "a refused outcome wipes nothing past the array either")
  arm()
  eq(req:finish(idlelock.AUTH_OK, s.key, 32).state_name, "UNLOCKED", "within bounds it works")
  check(guard_intact() and zero(s.key), "wiped exactly the 32 bytes")
  -- put_secret, unlock and set_passcode check the same bound.
  arm()
  raises(idlelock.ERR_INVALID_ARGUMENT, l.put_secret, l, "k", s.key, 40)
  raises(idlelock.ERR_NOT_FOUND, l.get_secret, l, "k")
  l:put_secret("k", s.key, 32)
  eq(l:get_secret_string("k"), ffi.string(item, 32), "the array's bytes, and only them")
  local pass = ffi.new("uint8_t[4]", { 50, 52, 54, 56 }) -- "2468"
  l:lock()
  raises(idlelock.ERR_INVALID_ARGUMENT, l.unlock, l, pass, 5)
  eq(l:snapshot().attempts_remaining, 5, "not counted")
  raises(idlelock.ERR_INVALID_ARGUMENT, l.set_passcode, l, pass, 5)
  eq(l:unlock(pass, 4).state_name, "UNLOCKED", "in bounds")
  -- A raw pointer carries no size: its length is the caller's word (as in C).
  eq(l:unlock(ffi.cast("const uint8_t *", pass), 4).state_name, "UNLOCKED", "a pointer with its length")
  -- What is not a buffer is refused with its type.
  contains(raises(idlelock.ERR_INVALID_ARGUMENT, l.put_secret, l, "k", ffi.new("int64_t", 5), 8).message,
           "int64_t", "names the type")
  contains(raises(idlelock.ERR_INVALID_ARGUMENT, l.put_secret, l, "k", s, 8).message,
           "struct", "a struct is not a buffer")
  contains(raises(idlelock.ERR_INVALID_ARGUMENT, idlelock.new, { idle_after_ms = 1000,
           device_key = ffi.cast("const uint8_t *", item) }).message, "pointer", "a device_key pointer has no length")
  l:close()
end)

test("pair: at most BIOMETRIC_REQUESTS_MAX open; dropped requests are finished by the next poll()", function()
  local l, item = enabled_by_pair(fake_clock())
  l:lock()
  local open = {}
  for i = 1, idlelock.BIOMETRIC_REQUESTS_MAX do open[i] = l:begin_biometric_unlock() end
  contains(raises(idlelock.ERR_INVALID_ARGUMENT, l.begin_biometric_unlock, l).message, "REQUESTS_MAX", "the ninth is refused")
  for _, r in ipairs(open) do r:cancel() end
  open = nil
  for _ = 1, idlelock.BIOMETRIC_REQUESTS_MAX do l:begin_biometric_unlock() end -- dropped at once
  collectgarbage("collect")
  collectgarbage("collect")
  l:poll()
  local n = 0
  local kept = {}
  for i = 1, idlelock.BIOMETRIC_REQUESTS_MAX do kept[i] = l:begin_biometric_unlock(); n = n + 1 end
  eq(n, idlelock.BIOMETRIC_REQUESTS_MAX, "every slot came free")
  for _, r in ipairs(kept) do r:cancel() end
  l:close()
end)

test("pair after close: outcomes say closed, secrets wiped, finish raises 'closed', cancel is quiet", function()
  local l = fast(fake_clock())
  l:set_passcode("2468")
  local enable = l:begin_biometric_enable()
  local own = enable.secret
  check(not zero(own), "a secret")
  l:close()
  local ok, err = enable:outcome()
  check(ok == false and tostring(err):find("closed", 1, true), "the outcome says the lock was closed")
  check(zero(own), "the request's secret is wiped at close")
  raises("closed", enable.finish, enable, idlelock.AUTH_OK)
  eq(enable:cancel(), nil, "cancel after close does nothing")
  raises("closed", l.begin_biometric_unlock, l)
  raises("closed", l.require_recent_auth, l, 1000)
end)

test("pair: close from a listener inside a finish: the finish's outcome stands", function()
  local live = idlelock._live_handles()
  local l, item = enabled_by_pair(fake_clock())
  l:lock()
  local req = l:begin_biometric_unlock()
  l:subscribe(function(s) if s.state_name == "UNLOCKED" then l:close() end end)
  eq(req:finish(idlelock.AUTH_OK, copy32(item)).state_name, "UNLOCKED", "finish returns its outcome")
  local ok, s = req:outcome()
  check(ok and s.state_name == "UNLOCKED", "the outcome too")
  check(l:is_closed(), "closed")
  eq(idlelock._live_handles(), live, "destroyed once the finish returned")
end)

-- Issue 26 (findings 5, 6 and 9): requests closed or collected while the
-- host's check is out, and a cancel racing the answer.

test("pair: close() while checks that never answer are out ends every request at once; late answers are wiped", function()
  local l, item = enabled_by_pair(fake_clock())
  l:lock()
  local unlock = l:begin_biometric_unlock()
  l:unlock("2468")
  local enable = l:begin_biometric_enable()
  local own = enable.secret
  for _ = 1, 5 do l:poll() end -- frames; neither platform check answers
  l:close()
  for _, req in ipairs({ unlock, enable }) do
    check(req:is_finished(), req.purpose_name .. " ended at close")
    local ok, err = req:outcome()
    check(ok == false and tostring(err):find("closed", 1, true), req.purpose_name .. ": the outcome says closed")
    eq(req:cancel(), nil, req.purpose_name .. ": cancel after close reports nothing")
  end
  check(zero(own), "the enable secret is wiped at close")
  local late = copy32(item)
  raises("closed", unlock.finish, unlock, idlelock.AUTH_OK, late)
  check(zero(late), "the late answer's buffer is wiped")
end)

test("pair: close() from a listener with other requests open: they end (closed) once the call returns", function()
  local live = idlelock._live_handles()
  local l, item = enabled_by_pair(fake_clock())
  l:lock()
  local waiting = l:begin_biometric_unlock()
  local answered = l:begin_biometric_unlock()
  l:subscribe(function(s) if s.state_name == "UNLOCKED" then l:close() end end)
  eq(answered:finish(idlelock.AUTH_OK, copy32(item)).state_name, "UNLOCKED", "the answer's outcome")
  check(waiting:is_finished(), "the other request ended with the lock")
  local ok, err = waiting:outcome()
  check(ok == false and tostring(err):find("closed", 1, true), "its outcome says closed")
  local late = copy32(item)
  raises("closed", waiting.finish, waiting, idlelock.AUTH_OK, late)
  check(zero(late), "a late answer is wiped")
  eq(idlelock._live_handles(), live, "destroyed")
end)

test("pair: a dropped enable request's secret is wiped when it is collected, not at the next frame", function()
  -- The host keeps the secret's array (a keystore write in progress) but
  -- drops the request: the finalizer wipes it at once; then the next poll()
  -- finishes the library's request as cancelled.
  local l = fast(fake_clock())
  l:set_passcode("2468")
  local req = l:begin_biometric_enable()
  local own = req.secret
  check(not zero(own), "a secret")
  req = nil
  collectgarbage("collect")
  collectgarbage("collect")
  check(zero(own), "wiped by the collection, before any call on the lock")
  l:poll()
  local kept = {}
  for i = 1, idlelock.BIOMETRIC_REQUESTS_MAX do kept[i] = l:begin_biometric_enable() end
  for _, r in ipairs(kept) do r:cancel() end
  -- The request and its lock both dropped: no reap will ever run; the secret is wiped anyway.
  local l2 = fast(fake_clock())
  l2:set_passcode("2468")
  local own2 = l2:begin_biometric_enable().secret
  l2 = nil
  collectgarbage("collect")
  collectgarbage("collect")
  check(zero(own2), "the secret of a request dropped with its lock is wiped")
  l:close()
end)

test("pair: requests dropped and collected inside a listener of a call on their lock, then reaped from it", function()
  local l, item = enabled_by_pair(fake_clock())
  l:lock()
  local fired = false
  l:subscribe(function(s)
    if fired or s.state_name ~= "UNLOCKED" then return end
    fired = true
    for _ = 1, idlelock.BIOMETRIC_REQUESTS_MAX - 1 do l:begin_biometric_unlock() end -- dropped at once
    collectgarbage("collect")
    collectgarbage("collect")
    l:poll() -- reaps them, inside the finish that called this listener
  end)
  local req = l:begin_biometric_unlock()
  eq(req:finish(idlelock.AUTH_OK, copy32(item)).state_name, "UNLOCKED", "the finish")
  local kept = {}
  for i = 1, idlelock.BIOMETRIC_REQUESTS_MAX do kept[i] = l:begin_biometric_unlock() end
  for _, r in ipairs(kept) do r:cancel() end
  eq(l:snapshot().state_name, "UNLOCKED", "nothing the reap did changed the unlock")
  l:close()
end)

test("pair: a cancel racing the answer reports what the lock did", function()
  -- LuaJIT is one thread: the race is a cancel made while the answer is in
  -- the library (a listener of the finish) or in the same frame before it.
  local l, item = enabled_by_pair(fake_clock())
  l:lock()
  local req = l:begin_biometric_unlock()
  local cancelled = "not called"
  local token = l:subscribe(function(s)
    if cancelled == "not called" and s.state_name == "UNLOCKED" then cancelled = req:cancel() end
  end)
  eq(req:finish(idlelock.AUTH_OK, copy32(item)).state_name, "UNLOCKED", "the answer unlocked")
  eq(cancelled, nil, "a cancel inside the answer reports failure (nil)")
  local ok, s = req:outcome()
  check(ok and s.state_name == "UNLOCKED", "the outcome is the unlock")
  l:unsubscribe(token)
  l:lock()
  local other = l:begin_biometric_unlock()
  eq(other:cancel().state_name, "LOCKED", "a cancel before the answer reports success")
  local late = copy32(item)
  raises(idlelock.ERR_INVALID_ARGUMENT, other.finish, other, idlelock.AUTH_OK, late)
  check(zero(late), "the answer after it is wiped")
  eq(l:snapshot().state_name, "LOCKED", "and unlocked nothing")
  l:close()
end)

test("step-up: require_recent_auth refused (ERR_REAUTH_REQUIRED, status 13), then granted after the pair", function()
  local clock = fake_clock()
  local l, item = enabled_by_pair(clock)
  local none = raises(idlelock.ERR_REAUTH_REQUIRED, l.require_recent_auth, l, 60000)
  eq(none.status, 13, "status 13")
  eq(none.name, "IDLELOCK_ERR_REAUTH_REQUIRED", "name")
  l:unlock("2468")
  l:require_recent_auth(60000)
  clock.now = clock.now + 30000
  l:touch()
  check(#raises(idlelock.ERR_REAUTH_REQUIRED, l.require_recent_auth, l, 10000).message > 0, "a message")
  local again = l:begin_biometric_unlock() -- re-authenticate the unlocked session
  eq(again:finish(idlelock.AUTH_OK, copy32(item)).last_auth_ms, clock.now, "last_auth_ms moved")
  l:require_recent_auth(10000)
  l:lock()
  raises(idlelock.ERR_SESSION_LOCKED, l.require_recent_auth, l, 10000)
  contains(raises(idlelock.ERR_INVALID_ARGUMENT, l.require_recent_auth, l, 0).message, "max_age_ms", "names it")
  raises(idlelock.ERR_INVALID_ARGUMENT, l.require_recent_auth, l, idlelock.RECENT_AUTH_MAX_MS + 1)
  raises(idlelock.ERR_INVALID_ARGUMENT, l.require_recent_auth, l, idlelock.NEVER)
  l:close()
  local bare = fast(fake_clock())
  raises(idlelock.ERR_NO_PASSCODE, bare.require_recent_auth, bare, 1000)
  bare:close()
end)

test("policy: after biometric_max_uses biometric unlocks the passcode is required", function()
  local l, item = enabled_by_pair(fake_clock(), { biometric_max_uses = 2 })
  local heard = {}
  l:subscribe(function(s) heard[#heard + 1] = s.is_passcode_required end)
  for i = 1, 2 do
    l:lock()
    check(not l:snapshot().is_passcode_required, "use " .. i .. " allowed")
    eq(l:begin_biometric_unlock():finish(idlelock.AUTH_OK, copy32(item)).state_name, "UNLOCKED", "use " .. i)
  end
  l:lock()
  check(l:snapshot().is_passcode_required, "the snapshot says the passcode is required")
  local said = false
  for _, v in ipairs(heard) do said = said or v end
  check(said, "a listener heard it")
  contains(raises(idlelock.ERR_LOCK_UNAVAILABLE, l.begin_biometric_unlock, l).message, "biometric_max_uses", "names the policy")
  l:unlock("2468")
  check(not l:snapshot().is_passcode_required, "the passcode satisfied it")
  l:close()
end)

test("policy: passcode_max_age_ms refuses the shortcut once the passcode entry is that old", function()
  local clock = fake_clock()
  local l = enabled_by_pair(clock, { passcode_max_age_ms = idlelock.PASSCODE_MAX_AGE_MIN_MS })
  l:lock()
  clock.now = clock.now + idlelock.PASSCODE_MAX_AGE_MIN_MS - 1
  check(not l:snapshot().is_passcode_required, "not yet")
  clock.now = clock.now + 1
  check(l:snapshot().is_passcode_required, "an hour after the passcode was entered")
  contains(raises(idlelock.ERR_LOCK_UNAVAILABLE, l.begin_biometric_unlock, l).message, "passcode_max_age_ms", "names the policy")
  l:close()
end)

test("policy options out of range name the field; the bounds create", function()
  local function bad(o, ...)
    local e = raises(idlelock.ERR_INVALID_ARGUMENT, fast, nil, o)
    for _, part in ipairs{ ... } do contains(e.message, part, "message") end
  end
  bad({ passcode_max_age_ms = idlelock.PASSCODE_MAX_AGE_MIN_MS - 1 }, "passcode_max_age_ms", "3599999")
  bad({ passcode_max_age_ms = idlelock.PASSCODE_MAX_AGE_MAX_MS + 1 }, "passcode_max_age_ms")
  bad({ passcode_max_age_ms = 1.5 }, "passcode_max_age_ms")
  bad({ biometric_max_uses = idlelock.BIOMETRIC_MAX_USES_MAX + 1 }, "biometric_max_uses", "1001")
  bad({ biometric_max_uses = -1 }, "biometric_max_uses")
  bad({ passcode_after_reboot = 1 }, "passcode_after_reboot")
  fast(nil, { passcode_max_age_ms = 0, biometric_max_uses = 0, passcode_after_reboot = false }):close()
  fast(nil, { passcode_max_age_ms = idlelock.PASSCODE_MAX_AGE_MAX_MS, biometric_max_uses = idlelock.BIOMETRIC_MAX_USES_MAX,
              passcode_after_reboot = true }):close()
  local l = fast(nil)
  local s = l:snapshot()
  check(not s.is_passcode_required, "no policy by default")
  eq(s.last_auth_ms, idlelock.NEVER, "no authentication yet")
  l:close()
end)

test("the library's messages in the module's words: no C names", function()
  local function words(f, ...)
    local e = raises(nil, f, ...)
    check(not e.message:find("config.", 1, true) and not e.message:find("IDLELOCK_", 1, true) and
          not e.message:find("idlelock_", 1, true), "C words in: " .. e.message)
    return e.message
  end
  contains(words(idlelock.new, { kdf_opslimit = 2 }), "idle_after_ms and background_after_ms are both idlelock.NEVER",
           "options and constants")
  contains(words(idlelock.new, { idle_after_ms = 1000, grace_ms = 60001 }), "grace_ms must be 0..60000, got 60001", "an option")
  local dir = os.tmpname()
  contains(words(idlelock.new, { idle_after_ms = 1000, lock_on_start = false, store_path = dir .. "-s" }),
           "lock_on_start is false with a store_path but no device_key", "booleans as Lua says them")
  os.remove(dir)
  local l = fast(fake_clock())
  contains(words(l.unlock, l, "2468"), "set one with lock:set_passcode()", "methods")
  local dir = os.tmpname()
  local o = { idle_after_ms = 60000, kdf_opslimit = 2, kdf_memlimit = FLOOR, store_path = dir .. "-store",
              device_key = ("k"):rep(32), lock_on_start = false }
  local a = idlelock.new(o)
  a:set_passcode("2468")
  a:close()
  local b = idlelock.new(o)
  contains(words(b.get_secret, b, "x"), "call lock:start() first", "methods")
  b:close()
  os.remove(dir .. "-store"); os.remove(dir .. "-store.lock"); os.remove(dir)
  l:set_passcode("2468")
  l:lock()
  contains(words(l.unlock_with_biometrics, l), "lock:begin_biometric_unlock() / req:finish()", "the pair")
  l:close()
  local p, item = enabled_by_pair(fake_clock())
  p:lock()
  local open = {}
  for i = 1, idlelock.BIOMETRIC_REQUESTS_MAX do open[i] = p:begin_biometric_unlock() end
  contains(words(p.begin_biometric_unlock, p), "idlelock.BIOMETRIC_REQUESTS_MAX (8)", "constants")
  for _, r in ipairs(open) do r:cancel() end
  contains(words(open[1].finish, open[1], idlelock.AUTH_OK, copy32(item)),
           "voided by lock:disable(), a new passcode or lock:disable_biometrics()", "in a token's message")
  p:close()
end)

test("the module's own errors say the type they got", function()
  local function says(part, f, ...)
    contains(raises(idlelock.ERR_INVALID_ARGUMENT, f, ...).message, part, part)
  end
  says("idle_after_ms must be an integer number of milliseconds (or idlelock.NEVER), got string",
       idlelock.new, { idle_after_ms = "60000" })
  says("got 1.5", idlelock.new, { idle_after_ms = 1.5 })
  says("lock_on_start must be a boolean, got number", idlelock.new, { idle_after_ms = 1000, lock_on_start = 1 })
  says("unknown option idle_afer_ms; the options are authenticator, background_after_ms", idlelock.new,
       { idle_after_ms = 1000, idle_afer_ms = 5 })
  says("options must be a table, got string", idlelock.new, "fast")
  local l = fast(fake_clock())
  says("state_name must be a string, got number", l.lifecycle, l, 1, 5)
  says("platform must be an integer, got string", l.lifecycle, l, "1", "active")
  says("token must be a prompt token (what lock:prompt_begin() returned), got string", l.prompt_end, l, "1")
  says("the listener must be a function, got table", l.subscribe, l, {})
  says("passcode must be a string, an idlelock.passcode_buffer(), or an ffi array or pointer with a length, got nil",
       l.set_passcode, l, nil)
  says("got cdata<int64_t>", l.set_passcode, l, ffi.new("int64_t", 1), 8)
  says("append takes a string, got number", idlelock.passcode_buffer().append, idlelock.passcode_buffer(), 5)
  l:close()
end)

-- ----------------------------------------------------------------- store

test("a stored session outlives its handle; a damaged store is refused", function()
  local dir = os.tmpname()
  os.remove(dir)
  os.execute("mkdir -p '" .. dir .. "'")
  local path = dir .. "/session"
  local o = { idle_after_ms = 60000, kdf_opslimit = 2, kdf_memlimit = FLOOR, store_path = path }
  local a = idlelock.new(o)
  a:set_passcode("2468")
  a:put_secret("token", "42")
  a:close()
  local b = idlelock.new(o)
  eq(b:snapshot().reason_name, "STARTUP", "locked from create")
  b:start() -- a stored session hands out nothing before start
  b:unlock("2468")
  eq(b:get_secret_string("token"), "42", "read back")
  b:disable()
  check(io.open(path) == nil, "sign-out deleted it")
  b:close()
  local f = io.open(path, "wb")
  f:write(("Z"):rep(600))
  f:close()
  eq(raises(idlelock.ERR_STORAGE, idlelock.new, o).status, idlelock.ERR_STORAGE, "damaged")
  f = io.open(path, "rb")
  eq(f:read("*a"), ("Z"):rep(600), "untouched")
  f:close()
  os.execute("rm -rf '" .. dir .. "'")
end)

-- -------------------------------------------------------------- lifetime

local function every_call(l)
  return {
    start = function() l:start() end, touch = function() l:touch() end,
    inactive = function() l:inactive() end, background = function() l:background() end,
    foreground = function() l:foreground() end, check = function() l:check() end,
    lock = function() l:lock() end, snapshot = function() l:snapshot() end,
    lifecycle = function() l:lifecycle(1, "active") end,
    prompt_begin = function() l:prompt_begin() end, prompt_end = function() l:prompt_end(1) end,
    set_passcode = function() l:set_passcode("2468") end, unlock = function() l:unlock("2468") end,
    enable_biometrics = function() l:enable_biometrics() end,
    disable_biometrics = function() l:disable_biometrics() end,
    unlock_with_biometrics = function() l:unlock_with_biometrics() end,
    disable = function() l:disable() end, subscribe = function() l:subscribe(function() end) end,
    unsubscribe = function() l:unsubscribe(1) end, put_secret = function() l:put_secret("n", "v") end,
    get_secret = function() l:get_secret("n") end, get_secret_string = function() l:get_secret_string("n") end,
    remove_secret = function() l:remove_secret("n") end,
    require_unlocked = function() l:require_unlocked() end,
    require_recent_auth = function() l:require_recent_auth(1000) end,
    begin_biometric_unlock = function() l:begin_biometric_unlock() end,
    begin_biometric_enable = function() l:begin_biometric_enable() end,
    watch_start = function() l:watch_start() end, watch_stop = function() l:watch_stop() end,
    poll = function() l:poll() end,
  }
end

test("every call after close raises 'closed'; close is idempotent", function()
  local live = idlelock._live_handles()
  local l = fast(fake_clock())
  eq(idlelock._live_handles(), live + 1, "one handle")
  l:close()
  l:close()
  check(l:is_closed(), "is_closed")
  eq(idlelock._live_handles(), live, "destroyed once")
  local n = 0
  for name, f in pairs(every_call(l)) do
    local ok, err = pcall(f)
    check(not ok and tostring(err):find("closed", 1, true), name .. " after close: " .. tostring(err))
    n = n + 1
  end
  eq(n, 30, "covers the 30 calls")
end)

test("a process whose lock is never closed exits (watcher, os.exit, a listener cycle)", function()
  -- Issue 19: each case in a child LuaJIT; a hang is the failure (timeout(1)
  -- ends it after a generous limit and the exit status says so).
  for _, mode in ipairs{ "watcher", "watcher-exit", "listener" } do
    local p = assert(io.popen(("timeout 120 '%s' exit_child.lua %s 2>&1; echo \"exit $?\""):format(arg[-1], mode)))
    local output = p:read("*a")
    p:close()
    eq(output, "main returns\nexit 0\n", mode)
  end
end)

test("a request whose check never answers: cancelled at once, its slot free, a late answer ignored and wiped", function()
  -- Issue 19: the game gives up on a platform check that never answers
  -- (req:cancel() from the game loop). The library's request ends at once:
  -- its prompt defers the idle lock no more, its slot is free; the answer
  -- that comes later changes nothing and its buffer is wiped.
  local clock = fake_clock()
  local l, item = enabled_by_pair(clock, { prompt_cap_ms = 120000 })
  l:lock()
  local unlock = l:begin_biometric_unlock()
  for _ = 1, 10 do l:poll(); clock.now = clock.now + 16 end -- frames; the check never answers
  eq(unlock:cancel().state_name, "LOCKED", "cancel returns the snapshot")
  check(unlock:is_finished(), "ended at once")
  local ok, err = unlock:outcome()
  check(ok == false and idlelock.is_error(err, idlelock.ERR_LOCK_UNAVAILABLE), "the outcome: cancelled")
  local late = copy32(item)
  raises(idlelock.ERR_INVALID_ARGUMENT, unlock.finish, unlock, idlelock.AUTH_OK, late)
  check(zero(late), "the late answer's buffer is wiped")
  eq(l:snapshot().state_name, "LOCKED", "a late answer unlocks nothing")
  eq(unlock:dismiss(idlelock.AUTH_FAILED), nil, "a late dismiss does nothing")
  -- An unlocked session: an enable whose platform never stores; cancelled,
  -- the idle lock is no longer deferred by its prompt and the secret is wiped.
  l:unlock("2468")
  local enable = l:begin_biometric_enable()
  local own = enable.secret
  clock.now = clock.now + 30000
  enable:cancel()
  check(zero(own), "the enable secret is wiped at the cancellation")
  raises(idlelock.ERR_INVALID_ARGUMENT, enable.finish, enable, idlelock.AUTH_OK)
  check(l:snapshot().is_biometrics_enabled, "the earlier enable stays; nothing new was turned on")
  clock.now = clock.now + 60000 -- idle_after_ms after the cancel (its end was activity)
  eq(l:check().reason_name, "IDLE", "no open request defers the idle lock")
  -- Every slot is free again.
  local kept = {}
  for i = 1, idlelock.BIOMETRIC_REQUESTS_MAX do kept[i] = l:begin_biometric_unlock() end
  for _, r in ipairs(kept) do r:cancel() end
  l:close()
end)

test("forgotten locks are collected by ffi.gc without a leak", function()
  local live = idlelock._live_handles()
  for i = 1, 200 do
    local l = idlelock.new{ idle_after_ms = 60000, clock = function() return 5 end }
    l:subscribe(function() return l:snapshot() end) -- refers to its own lock
    l:put_secret("s", tostring(i))
  end
  check(idlelock._live_handles() >= live + 1, "created")
  collectgarbage("collect")
  collectgarbage("collect")
  eq(idlelock._live_handles(), live, "every forgotten handle was destroyed")
end)

test("close from a listener: the call finishes, then the handle goes", function()
  local live = idlelock._live_handles()
  local l = fast(fake_clock())
  l:set_passcode("2468")
  l:subscribe(function() l:close() end)
  l:lock()
  check(l:is_closed(), "closed")
  eq(idlelock._live_handles(), live, "destroyed after the call")
end)

test("close from a listener while seven more are subscribed: none of them runs after close() returned", function()
  -- Issue 19: the rest of the delivery must not reach the host's listeners.
  local live = idlelock._live_handles()
  local l = fast(fake_clock())
  l:set_passcode("2468")
  local ran, after = {}, {}
  local closed = false
  for i = 1, 8 do
    l:subscribe(function(s)
      ran[#ran + 1] = i
      if closed then after[#after + 1] = i; return end
      l:close()
      closed = true
    end)
  end
  l:lock()
  check(closed, "a listener closed the lock")
  eq(#after, 0, "listeners that ran after close() returned (" .. table.concat(after, ",") .. ")")
  eq(table.concat(ran, ","), "1", "only the first listener ran")
  check(l:is_closed(), "closed")
  eq(idlelock._live_handles(), live, "destroyed once the call returned")
end)

-- ------------------------------------------------------------- bad input

test("bad input for every entry point changes nothing", function()
  local l = fast(fake_clock())
  l:set_passcode("2468")
  l:put_secret("keep", "1")
  l:lock()
  local before = l:snapshot()
  local E = idlelock.ERR_INVALID_ARGUMENT
  local cases = {
    { "lifecycle(bad platform)", function() l:lifecycle(0, "active") end },
    { "lifecycle(nil)", function() l:lifecycle(1, nil) end },
    { "lifecycle(NUL)", function() l:lifecycle(1, "act\0ive") end },
    { "lifecycle(float platform)", function() l:lifecycle(1.5, "active") end },
    { "prompt_end(never issued)", function() l:prompt_end(987654321) end },
    { "prompt_end(nil)", function() l:prompt_end(nil) end },
    { "set_passcode(nil)", function() l:set_passcode(nil) end },
    { "set_passcode(table)", function() l:set_passcode({}) end },
    { "set_passcode(invalid UTF-8)", function() l:set_passcode("\192\128ab") end },
    { "set_passcode(cdata, no len)", function() l:set_passcode(ffi.new("uint8_t[4]")) end },
    { "unlock(nil)", function() l:unlock(nil) end },
    { "unlock(empty)", function() l:unlock("") end },
    { "unlock(1025)", function() l:unlock(("x"):rep(1025)) end },
    { "unlock(invalid UTF-8)", function() l:unlock("\255") end },
    { "unlock(string with len)", function() l:unlock("2468", 4) end },
    { "unlock(cdata, negative len)", function() l:unlock(ffi.new("uint8_t[4]"), -1) end },
    { "unlock(passcode_buffer, len)", function() l:unlock(idlelock.passcode_buffer(), 4) end },
    { "unlock(cdata, len past the array)", function() l:unlock(ffi.new("uint8_t[4]", 50), 5) end },
    { "subscribe(nil)", function() l:subscribe(nil) end },
    { "unsubscribe(never issued)", function() l:unsubscribe(555) end },
    { "unsubscribe(nil)", function() l:unsubscribe(nil) end },
    { "put_secret(nil name)", function() l:put_secret(nil, "v") end },
    { "put_secret(nil value)", function() l:put_secret("n", nil) end },
    { "put_secret(empty name)", function() l:put_secret("", "v") end },
    { "get_secret(nil)", function() l:get_secret(nil) end },
    { "get_secret(65)", function() l:get_secret(("k"):rep(65)) end },
    { "get_secret(NUL)", function() l:get_secret("ke\0ep") end },
    { "remove_secret(nil)", function() l:remove_secret(nil) end },
    { "remove_secret(invalid UTF-8)", function() l:remove_secret("\255") end },
    { "status_name(nil)", function() idlelock.status_name(nil) end },
    { "require_recent_auth(0)", function() l:require_recent_auth(0) end },
    { "require_recent_auth(nil)", function() l:require_recent_auth(nil) end },
    { "require_recent_auth(30 days + 1)", function() l:require_recent_auth(idlelock.RECENT_AUTH_MAX_MS + 1) end },
    { "passcode_buffer(bad)", function() idlelock.passcode_buffer("big") end },
  }
  for _, c in ipairs(cases) do
    local e = raises(E, c[2])
    check(type(e.message) == "string" and #e.message > 0, c[1] .. ": a message")
    check(e.snapshot == nil, c[1] .. ": no snapshot")
  end
  local after = l:snapshot()
  eq(after.seq, before.seq, "nothing changed")
  eq(after.attempts_remaining, before.attempts_remaining, "no attempt counted")
  l:unlock("2468")
  eq(l:get_secret_string("keep"), "1", "intact")
  l:close()
end)

if only and passed + failed == 0 then
  print("FAIL IDLELOCK_TEST_ONLY=" .. only .. ": no test's name contains it")
  failed = failed + 1
end
print(passed .. " passed, " .. failed .. " failed")
os.exit(failed == 0 and 0 or 1)
