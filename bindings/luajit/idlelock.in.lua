-- SPDX-License-Identifier: MIT
--[[
idlelock.lua: the LuaJIT binding of libidlelock, an idle lock for signed-in
sessions (LÖVE 11, Defold, any LuaJIT 2.1 host). One module, built by
`make luajit` from this template and idlelock_generated.lua: its ffi.cdef,
constants and the names of its messages are generated from the header
(scripts/gen-bindings.py).

    local idlelock = require("idlelock")
    local lock = idlelock.new{ idle_after_ms = 300000, background_after_ms = 30000 }
    lock:set_passcode("2468")                 -- a Lua string is UTF-8 bytes as is
    lock:start()
    function love.update() local snap, changed = lock:poll() end
    lock:touch()                              -- on every input event
    local ok, err = pcall(lock.unlock, lock, "1111")
    -- err.status == idlelock.ERR_INVALID_PASSCODE, err.attempts_remaining == 4
    lock:close()                              -- or let the collector do it (ffi.gc)

Rules (bindings/luajit/README.md has them in full):
  * Times are milliseconds (Lua numbers); idlelock.NEVER (math.huge) is "no
    deadline", in options and in snapshots.
  * The library: IDLELOCK_LIBRARY, else the copy installed with this module
    (a rock's tree, beside the module, a LÖVE game's folder), else the
    system's libidlelock.so.1 (README, "Finding the library").
  * Threads: C never calls Lua from another thread. A lock with a Lua
    listener, a Lua clock or an authenticator refuses watch_start (and a
    running watcher refuses listeners); they run inside the call that
    caused them, on your thread.
    Prefer poll() from the game loop: it calls check() only when
    ms_until_next_deadline says something can change.
  * Calls that may run a Lua callback go through a function that is never
    JIT-compiled (LuaJIT forbids a compiled FFI call that calls back).
  * Errors are raised as error objects: e.status (idlelock.ERR_*), e.name,
    e.message (in this module's words), e.snapshot, e.attempts_remaining,
    e.ms_until_retry; tostring(e) reads "idlelock.ERR_...: message". A call
    on a closed lock raises "idlelock: the lock is closed".
  * A buffer with a length: an ffi array (the length may not exceed
    ffi.sizeof of it) or a pointer (its length is the caller's word).
  * Passcodes cross as bytes, never re-encoded: a Lua string, an ffi buffer
    with a length, or an idlelock.passcode_buffer() (typed in place, wiped
    with ffi.fill). Lua strings cannot be wiped: prefer the buffer.
  * Secrets come back as a uint8_t[n] buffer the caller owns (wipe it with
    ffi.fill), or, from get_secret_string, as a Lua string (never wiped).
  * Biometrics (1.2): a game cannot block on a prompt, so the shortcut is the
    two-phase pair as a request object finished later from the game loop:
    lock:begin_biometric_unlock() / begin_biometric_enable(), then
    req:finish(idlelock.AUTH_OK, secret, 32) when the platform's result
    arrives (poll it in love.update), or req:dismiss(idlelock.AUTH_CANCELLED).
]]

local ffi = require("ffi")
local bit = require("bit")

--@@GENERATED@@

local M = {}

-- ------------------------------------------------------------------ loading

-- The declarations may already be known (another copy of this module in the
-- same state): then they are the same header's, or the size check fails.
if not pcall(ffi.typeof, "idlelock_config") then ffi.cdef(IDLELOCK_CDEF) end
-- CLOCK_BOOTTIME for poll(), under a private name (no clash with another
-- module's clock_gettime or struct timespec).
if not pcall(ffi.typeof, "idlelock_lua_timespec") then
  ffi.cdef[[
    typedef struct { long sec; long nsec; } idlelock_lua_timespec;
    int idlelock_lua_clock_gettime(int clock, idlelock_lua_timespec *ts) __asm__("clock_gettime");
  ]]
end

-- Where the library is (bindings/luajit/README.md, "Finding the library"):
--  1. IDLELOCK_LIBRARY, when set: the only place tried.
--  2. The copy this module ships with, found from the module's own file:
--     a rock's tree (<tree>/share/lua/5.1/idlelock.lua has its library at
--     <tree>/lib/lua/5.1/idlelock/libidlelock.so), beside the module
--     (<folder>/libidlelock.so, a game's plugin folder); in LÖVE, where a
--     module has no file path, libidlelock.so in the game's folder
--     (love.filesystem.getSource(), unfused) or beside the .love file or
--     the fused executable (getSourceBaseDirectory(); never the folder
--     above an unfused game's, which may be anyone's, such as /tmp); or
--     idlelock/libidlelock.so under an absolute package.cpath folder (a
--     tree on LUA_CPATH; relative entries such as "./?.so" are skipped: a
--     library is never taken from whatever the current folder holds). The
--     first one that exists is the only one tried: a bundled copy that
--     cannot load is an error, never a silent switch to another copy.
--  3. The system loader: libidlelock.so.1, then libidlelock.so.
local function bundled_library()
  local source = debug.getinfo(1, "S").source
  local file = source:sub(1, 1) == "@" and source:sub(2) or nil
  local candidates = {}
  if file and file:find("/", 1, true) then
    local folder = file:match("^(.*)/[^/]*$")
    local tree = folder:match("^(.*)/share/lua/5%.1$")
    if tree then candidates[#candidates + 1] = tree .. "/lib/lua/5.1/idlelock/libidlelock.so" end
    candidates[#candidates + 1] = folder .. "/libidlelock.so"
  end
  local fs = type(love) == "table" and type(love.filesystem) == "table" and love.filesystem or nil
  if fs then
    local ok, source = pcall(fs.getSource)
    if ok and type(source) == "string" and source:sub(1, 1) == "/" then
      -- getSource() is the game's folder (unfused), or its .love file or
      -- fused executable: the folder that holds that file is the game's
      -- too. An unfused game's getSourceBaseDirectory() is the folder
      -- above the game's (/tmp for /tmp/mygame): never looked in.
      local folder = io.open(source .. "/", "rb") -- opens only a folder
      if folder then
        folder:close()
        candidates[#candidates + 1] = source .. "/libidlelock.so"
      else
        local found, base = pcall(fs.getSourceBaseDirectory)
        if found and type(base) == "string" and base:sub(1, 1) == "/" then
          candidates[#candidates + 1] = base .. "/libidlelock.so"
        end
      end
    end
  end
  for entry in (package.cpath or ""):gmatch("[^;]+") do
    if entry:sub(1, 1) == "/" then candidates[#candidates + 1] = (entry:gsub("%?", "idlelock/libidlelock")) end
  end
  for _, path in ipairs(candidates) do
    local f = io.open(path, "rb")
    if f then f:close(); return path end
  end
  return nil
end

local function load_library()
  local override = os.getenv("IDLELOCK_LIBRARY")
  local names, why
  if override and override ~= "" then
    names, why = { override }, "set by IDLELOCK_LIBRARY, the only place tried"
  else
    local bundled = bundled_library()
    if bundled then
      names, why = { bundled }, "the copy installed with this module, the only place tried once it exists"
    else
      names, why = { "libidlelock.so.1", "libidlelock.so" }, "the system loader; no copy beside the module"
    end
  end
  local tried = {}
  for _, name in ipairs(names) do
    local ok, lib = pcall(ffi.load, name)
    if ok then return lib, name end
    tried[#tried + 1] = name .. ": " .. tostring(lib)
  end
  error("idlelock: libidlelock could not be loaded (" .. why .. "; " .. table.concat(tried, "; ") ..
        "); install the rock, put libidlelock.so beside idlelock.lua, or set IDLELOCK_LIBRARY to its path", 0)
end

local C, library_path = load_library()
M.C, M.library_path = C, library_path
M.const = IDLELOCK_CONSTANTS

-- Short names: IDLELOCK_ERR_STORAGE -> idlelock.ERR_STORAGE. 64-bit values
-- that a Lua number holds exactly become numbers.
for name, value in pairs(IDLELOCK_CONSTANTS) do
  local short = name:gsub("^IDLELOCK_", "")
  if type(value) == "cdata" and math.abs(tonumber(value)) < 2 ^ 53 then value = tonumber(value) end
  M[short] = value
end
-- "No deadline", as Lua code compares it: math.huge (the C value is
-- idlelock.const.IDLELOCK_NEVER).
M.NEVER = math.huge
M.SAME_AS_IDLE = -1
M.HEADER_VERSION = IDLELOCK_CONSTANTS.IDLELOCK_VERSION_STRING
-- Bounds the header states in prose.
for name, value in pairs(IDLELOCK_BOUNDS) do M[name] = value end

do -- the library must serve this header: same major, minor at least ours,
   -- and the struct mirrors (the cdef) of the library's sizes.
  local number = C.idlelock_version_number()
  local major, minor = math.floor(number / 10000), math.floor(number / 100) % 100
  local prefix = "idlelock: libidlelock " .. ffi.string(C.idlelock_version()) ..
                 " (" .. library_path .. ") does not match this module (header " .. M.HEADER_VERSION .. "): "
  if major ~= M.VERSION_MAJOR then error(prefix .. "another ABI major", 0) end
  if minor < M.VERSION_MINOR then error(prefix .. "its minor is older", 0) end
  for _, s in ipairs{ "config", "snapshot", "authenticator", "delay_step" } do
    local ours, theirs = ffi.sizeof("idlelock_" .. s), tonumber(C["idlelock_" .. s .. "_size"]())
    if (minor == M.VERSION_MINOR and theirs ~= ours) or theirs < ours then
      error(prefix .. "idlelock_" .. s .. " is " .. theirs .. " bytes in the library, " .. ours .. " in the cdef", 0)
    end
  end
end

local NEVER_C = IDLELOCK_CONSTANTS.IDLELOCK_NEVER
local INT64_MIN = -0x7fffffffffffffffLL - 1
local CLOCK_BOOTTIME = 7
local snapshot_t = ffi.typeof("idlelock_snapshot")
local snapshot_size = ffi.sizeof(snapshot_t)
local u64_box = ffi.typeof("uint64_t[1]")
local size_box = ffi.typeof("size_t[1]")
local u8_vla = ffi.typeof("uint8_t[?]")

-- ------------------------------------------------------------------ errors

local status_names = {}
for name, value in pairs(IDLELOCK_CONSTANTS) do
  local short = name:match("^IDLELOCK_(ERR_[%w_]+)$") or (name == "IDLELOCK_OK" and "OK")
  if short then status_names[value] = short end
end

local Error = {}
Error.__index = Error
Error.__tostring = function(e)
  local short = e.name and e.name:match("^IDLELOCK_(.*)$")
  return "idlelock." .. (short or e.name or "?") .. ": " .. (e.message or "")
end
M.Error = Error

--- Is `e` an idlelock error, and (given `status`) of that status?
function M.is_error(e, status)
  return getmetatable(e) == Error and (status == nil or e.status == status)
end

local function new_error(status, message, snapshot)
  local e = setmetatable({
    status = status,
    name = ffi.string(C.idlelock_status_name(status)),
    message = message,
    snapshot = snapshot,
  }, Error)
  if snapshot then
    if status == M.ERR_INVALID_PASSCODE then e.attempts_remaining = snapshot.attempts_remaining end
    if status == M.ERR_RETRY_LATER then e.ms_until_retry = snapshot.ms_until_retry end
  end
  return e
end

local function raise(status, message, snapshot, level)
  error(new_error(status, message, snapshot), level or 3)
end

-- The binding's own check of an argument: INVALID_ARGUMENT, like the library's.
local function bad(message)
  raise(M.ERR_INVALID_ARGUMENT, message, nil, 4)
end

-- The library's messages in this module's words: idlelock_last_error()
-- starts with the C function's name (dropped: the traceback has the call)
-- and names config fields, constants and functions as C does; a Lua caller
-- knows the option idle_after_ms, idlelock.NEVER and lock:set_passcode().
local phrases = {
  { "(config.authenticator is NULL)", "(the lock has no authenticator option)" },
  { "idlelock_biometric_begin / _finish", "lock:begin_biometric_unlock() / req:finish()" },
  { "lock_on_start is 0", "lock_on_start is false" },
  { "set lock_on_start to 1", "set lock_on_start = true" },
}
local function plain_find_replace(text, from, to)
  local i, j = text:find(from, 1, true)
  while i do
    text = text:sub(1, i - 1) .. to .. text:sub(j + 1)
    i, j = text:find(from, i + #to, true)
  end
  return text
end

local function lua_words(message)
  local text = message:gsub("^idlelock_[%l_]+: ", "")
  for _, p in ipairs(phrases) do text = plain_find_replace(text, p[1], p[2]) end
  text = text:gsub("config%.([%l_]+)%->([%l_]+)", "authenticator.%2")
  text = text:gsub("config%.([%l_]+)", "%1")
  -- Functions and fields the generated table names (bindings/names.txt).
  text = text:gsub("[%l][%l%d]*_[%l%d_]*[%l%d]", function(name) return IDLELOCK_NAMES[name] end)
  text = text:gsub("IDLELOCK_([%u%d_*]+)", "idlelock.%1")
  return text
end
M._lua_words = lua_words -- for the tests

local function last_error()
  return lua_words(ffi.string(C.idlelock_last_error()))
end

-- ----------------------------------------------------------------- helpers

--- The type of `v` for an error message, as Lua's own say it: "string",
--- "nil", or the C type of a cdata ("cdata<int64_t>").
local function typename(v)
  if type(v) == "cdata" then return "cdata<" .. tostring(ffi.typeof(v)):match("^ctype<(.*)>$") .. ">" end
  return type(v)
end

--- "got ..." for a value that is wrong: a number by its value (its type is
--- right, the value is not), anything else by its type (never a string's
--- bytes: it might be a passcode).
local function got(v)
  if type(v) == "number" then return tostring(v) end
  return typename(v)
end

local function ms(v)
  if v == math.huge then return math.huge end
  return tonumber(v)
end

local state_names = { [0] = "UNLOCKED", [1] = "LOCKED", [2] = "LOCKED_OUT" }
local reason_names = { [0] = "NONE", "IDLE", "BACKGROUNDED", "STARTUP", "MANUAL", "CLOCK" }

local function never(v)
  if v == NEVER_C then return math.huge end
  return tonumber(v)
end

--- A snapshot as a plain table (times in ms, NEVER as math.huge).
local function snapshot_table(s)
  local state, reason = s.state, s.reason
  return {
    state = state,
    state_name = state_names[state] or tostring(state),
    reason = reason,
    reason_name = reason_names[reason] or tostring(reason),
    seq = tonumber(s.seq),
    is_locked = state ~= 0,
    is_enabled = s.is_enabled ~= 0,
    is_biometrics_enabled = s.is_biometrics_enabled ~= 0,
    is_biometrics_available = s.is_biometrics_available ~= 0,
    is_away = s.is_away ~= 0,
    attempts_remaining = s.attempts_remaining,
    last_activity_ms = tonumber(s.last_activity_ms),
    ms_until_idle_lock = never(s.ms_until_idle_lock),
    is_warning = s.is_warning ~= 0,
    ms_until_warning = never(s.ms_until_warning),
    ms_until_retry = tonumber(s.ms_until_retry),
    ms_until_next_deadline = never(s.ms_until_next_deadline),
    is_passcode_required = s.is_passcode_required ~= 0,
    last_auth_ms = never(s.last_auth_ms),
  }
end

--- `v` as an int64 for a C field: an integer, NEVER (math.huge or the C
--- constant), or an int64 cdata. `what` names the option in the error.
local function int64(v, what)
  if v == math.huge or v == NEVER_C then return NEVER_C end
  if type(v) == "cdata" then return ffi.cast("int64_t", v) end
  if type(v) ~= "number" or v ~= v or v % 1 ~= 0 or v >= 2 ^ 63 or v < -2 ^ 63 then
    bad(what .. " must be an integer number of milliseconds (or idlelock.NEVER), got " .. got(v))
  end
  return v
end

local function uint64(v, what)
  if type(v) == "cdata" then v = tonumber(v) end
  if type(v) ~= "number" or v ~= v or v % 1 ~= 0 or v < 0 or v >= 2 ^ 64 then
    bad(what .. " must be a non-negative integer, got " .. got(v))
  end
  return v
end

local function int32(v, what)
  if type(v) ~= "number" or v % 1 ~= 0 or v < -2 ^ 31 or v >= 2 ^ 31 then
    bad(what .. " must be an integer, got " .. got(v))
  end
  return v
end

--- A boolean option as the C int32_t 0 or 1.
local function flag(v, what)
  if type(v) ~= "boolean" then bad(what .. " must be a boolean, got " .. typename(v)) end
  return v and 1 or 0
end

--- A C string argument: a Lua string with no NUL (the library checks UTF-8).
local function cstr(v, what)
  if type(v) ~= "string" then bad(what .. " must be a string, got " .. typename(v)) end
  if v:find("\0", 1, true) then bad(what .. " contains a NUL byte, which a C string cannot hold") end
  return v
end

--- What a cdata buffer argument is: "array" (an array, a VLA or a
--- reference to one: its size is known, ffi.sizeof), "pointer" (its size
--- is not), or nil (a number, a struct...: not a buffer). An array decays to
--- a pointer of another type in arithmetic; a pointer stays itself.
local function buffer_kind(v)
  local t = tostring(ffi.typeof(v))
  local ok, decayed = pcall(function() return v + 0 end)
  if ok and type(decayed) == "cdata" and tostring(ffi.typeof(decayed)) ~= t then return "array" end
  if t:match("%*>$") then return "pointer" end
  return nil
end

--- Whether the binding may wipe `v` (ffi.fill): never through a const
--- type (a const pointer may point into a Lua string).
local function writable(v)
  return not tostring(ffi.typeof(v)):find("const", 1, true)
end

--- Bytes for a passcode or a value: a Lua string, a passcode_buffer, or an
--- ffi array or pointer with an explicit length in bytes. An array's length
--- may not exceed its size (ffi.sizeof); a pointer's cannot be checked: the
--- caller vouches for it, as in C. Returns pointer, length.
local PasscodeBuffer = {}
PasscodeBuffer.__index = PasscodeBuffer

local function bytes(v, len, what)
  if type(v) == "string" then
    if len ~= nil then bad(what .. ": a length is only for an ffi buffer (a Lua string has its own), got " .. typename(len)) end
    return v, #v
  end
  if getmetatable(v) == PasscodeBuffer then
    if len ~= nil then bad(what .. ": a passcode_buffer has its own length, got " .. typename(len)) end
    return v.buf, v.n
  end
  if type(v) == "cdata" then
    local kind = buffer_kind(v)
    if kind == nil then
      bad(what .. " must be a string, an idlelock.passcode_buffer(), or an ffi array or pointer with a length, got " .. typename(v))
    end
    if type(len) ~= "number" or len < 0 or len % 1 ~= 0 then
      bad(what .. ": an ffi buffer needs its length in bytes (a non-negative integer), got " .. typename(len))
    end
    if kind == "array" and len > ffi.sizeof(v) then
      bad(what .. ": length " .. len .. " is larger than the " .. ffi.sizeof(v) .. "-byte array it was given with")
    end
    return ffi.cast("const uint8_t *", v), len
  end
  bad(what .. " must be a string, an idlelock.passcode_buffer(), or an ffi array or pointer with a length, got " .. typename(v))
end

-- ---------------------------------------------------- callbacks (one thread)
--
-- Two ffi callbacks for the whole module (they are a scarce resource),
-- reaching the right lock through an integer id in ctx. The registries are
-- weak: a lock the program forgot is still collected.

local listeners = setmetatable({}, { __mode = "v" }) -- id -> listener record
local locks = setmetatable({}, { __mode = "v" })     -- id -> lock with a clock or an authenticator
local next_id = 0
local pending = {}                                   -- errors raised by callbacks, for the call
local in_clock = false

local function new_id()
  next_id = next_id + 1
  return next_id
end

local function ctx_id(ctx)
  return tonumber(ffi.cast("intptr_t", ctx))
end

local listener_cb = ffi.cast("idlelock_listener_fn", function(ctx, snap)
  local rec = listeners[ctx_id(ctx)]
  if rec == nil or not rec.active or snap == nil then return end
  local ok, err = pcall(rec.fn, snapshot_table(snap))
  if not ok then pending[#pending + 1] = err end
end)

local clock_cb = ffi.cast("idlelock_clock_fn", function(ctx)
  local lock = locks[ctx_id(ctx)]
  if lock == nil then return INT64_MIN end
  in_clock = true
  local ok, v = pcall(lock._clock)
  in_clock = false
  if ok and type(v) == "number" and v == v and v % 1 == 0 and v > -2 ^ 63 and v < 2 ^ 63 then
    return v
  end
  pending[#pending + 1] = ok and ("idlelock: the clock must return an integer number of milliseconds, got " ..
                                  (type(v) == "number" and tostring(v) or typename(v))) or v
  -- The earliest reading: an engaged unlocked session locks (REASON_CLOCK)
  -- instead of being extended.
  return INT64_MIN
end)

-- The authenticator's four callbacks, made at the first lock that has one
-- (most hosts use the two-phase pair instead and never need them). Each
-- catches what the host's function raises (nothing unwinds through C),
-- reports a failure to the library, and keeps the error for the call.
local auth_callbacks

local function auth_call(ctx, name, ...)
  local lock = locks[ctx_id(ctx)]
  if lock == nil then return false, nil end
  local ok, a, b = pcall(lock._auth[name], ...)
  if not ok then pending[#pending + 1] = a; return false, nil end
  return true, a, b
end

local function make_auth_callbacks()
  local cbs = {}
  cbs.is_available = ffi.cast("int32_t (*)(void *)", function(ctx)
    local ok, v = auth_call(ctx, "is_available")
    if ok and type(v) ~= "boolean" then
      pending[#pending + 1] = "idlelock: authenticator.is_available must return a boolean, got " .. typename(v)
      return 0
    end
    return (ok and v) and 1 or 0
  end)
  cbs.store_secret = ffi.cast("int32_t (*)(void *, const uint8_t *, size_t)", function(ctx, secret, len)
    if secret == nil then return 1 end
    local ok, v = auth_call(ctx, "store_secret", secret, tonumber(len))
    return (ok and v == true) and 0 or 1
  end)
  cbs.load_secret = ffi.cast("int32_t (*)(void *, const char *, uint8_t *, size_t, size_t *)",
    function(ctx, reason, out, cap, out_len)
      if out == nil or out_len == nil then return M.AUTH_FAILED end
      out_len[0] = 0
      local ok, secret, result = auth_call(ctx, "load_secret", reason ~= nil and ffi.string(reason) or nil)
      if not ok then return M.AUTH_FAILED end
      if secret == nil then
        if result == M.AUTH_FAILED or result == M.AUTH_CANCELLED or result == M.AUTH_UNAVAILABLE then return result end
        pending[#pending + 1] = "idlelock: authenticator.load_secret returned no secret and " ..
          "no outcome (idlelock.AUTH_FAILED, AUTH_CANCELLED or AUTH_UNAVAILABLE), got " .. typename(result)
        return M.AUTH_FAILED
      end
      local n
      if type(secret) == "string" then
        n = #secret
      elseif type(secret) == "cdata" and buffer_kind(secret) == "array" then
        n = ffi.sizeof(secret)
      else
        pending[#pending + 1] = "idlelock: authenticator.load_secret must return the secret as a string or " ..
          "an ffi array (or nil and an outcome), got " .. typename(secret)
        return M.AUTH_FAILED
      end
      ffi.copy(out, secret, math.min(n, tonumber(cap)))
      out_len[0] = n -- anything but 32 bytes is a failed check (the library's rule)
      return M.AUTH_OK
    end)
  cbs.delete_secret = ffi.cast("int32_t (*)(void *)", function(ctx)
    local ok = auth_call(ctx, "delete_secret")
    return ok and 0 or 1
  end)
  return cbs
end

-- FFI calls: `call` may be JIT-compiled; `call_nojit` never is, so a C
-- function that runs a Lua callback is always called from the interpreter.
local function call(f, ...) return f(...) end
local function call_nojit(f, ...) return f(...) end
jit.off(call_nojit)

--- The error a callback raised during the call, re-raised after it.
local function raise_pending(status, snapshot)
  local first = pending[1]
  for i = #pending, 1, -1 do pending[i] = nil end
  if status ~= 0 then
    -- The call failed too: keep both.
    local e = setmetatable({ status = status, name = ffi.string(C.idlelock_status_name(status)),
                             message = last_error() .. " (and a callback raised: " .. tostring(first) .. ")",
                             snapshot = snapshot, callback_error = first }, Error)
    error(e, 0)
  end
  error(first, 0)
end

-- -------------------------------------------------------------- the lock

local Lock = {}
Lock.__index = Lock
M.Lock = Lock

local live = 0 -- handles not yet destroyed (M._live_handles, for the tests)

local function destroy(h)
  live = live - 1
  C.idlelock_destroy(h)
end

--- Destroys the handle of a lock close() emptied, and lets go of what
--- belonged to it.
local function release(self, h)
  ffi.gc(h, nil)
  destroy(h)
  self._listeners = {}
  if self._id then locks[self._id] = nil end
  -- The open biometric requests can never be finished now: their secrets
  -- are wiped and their outcome says why.
  for core in pairs(self._requests) do core:ended(nil, "idlelock: the lock is closed") end
  self._requests, self._dropped = {}, {}
end

--- After a call's C function returned: the destroy a close() from inside
--- it left to the outermost call.
local function leave(self)
  self._depth = self._depth - 1
  if self._depth == 0 and self._closing then
    local h = self._doomed
    self._doomed, self._closing = nil, nil
    release(self, h)
  end
end

local function handle(self)
  local h = self._h
  if h == nil then error("idlelock: the lock is closed", 3) end
  if in_clock and self._clock then error("idlelock: the clock must not call into the lock", 3) end
  return h
end

--- After a call: raise its failure (or a callback's error); destroy a
--- lock closed from inside the call once the outermost call is done.
local function finish(self, rc, snapshot, message)
  leave(self)
  if pending[1] ~= nil then raise_pending(rc, snapshot) end
  if rc ~= 0 then raise(rc, message or last_error(), snapshot) end
end

local function event(cfunc)
  return function(self)
    local h = handle(self)
    local out = self._out
    self._depth = self._depth + 1
    local rc = (self._cb and call_nojit or call)(cfunc, h, out)
    local s = snapshot_table(out)
    self._due = nil
    finish(self, rc, rc ~= M.ERR_INVALID_ARGUMENT and s or nil)
    return s
  end
end

local function plain(self, cfunc, ...)
  local h = handle(self)
  self._depth = self._depth + 1
  local rc = (self._cb and call_nojit or call)(cfunc, h, ...)
  self._due = nil
  finish(self, rc, nil)
end

--- Creates a lock (idlelock_create). Options (all optional, library
--- defaults otherwise; at least one of the two timeouts must be finite):
--- idle_after_ms, background_after_ms, inactive_after_ms, grace_ms,
--- max_attempts, lock_on_start (boolean), kdf_opslimit, kdf_memlimit,
--- store_path, clock (a function returning ms), unlock_reason, device_key
--- (32 bytes: a string, or an ffi buffer), prompt_cap_ms, warn_before_ms,
--- delay_schedule ({ {failed_attempts, delay_ms}, ... } or "ios"),
--- passcode_max_age_ms (0 or 1 h .. 30 days, ms), passcode_after_reboot
--- (boolean), biometric_max_uses (0 or 1..1000): the 1.2 passcode policies.
function M.new(options)
  options = options or {}
  if type(options) ~= "table" then bad("options must be a table, got " .. typename(options)) end
  local known = { idle_after_ms = 1, background_after_ms = 1, inactive_after_ms = 1, grace_ms = 1,
                  max_attempts = 1, lock_on_start = 1, kdf_opslimit = 1, kdf_memlimit = 1,
                  store_path = 1, clock = 1, unlock_reason = 1, device_key = 1, prompt_cap_ms = 1,
                  warn_before_ms = 1, delay_schedule = 1, passcode_max_age_ms = 1, passcode_after_reboot = 1,
                  biometric_max_uses = 1, authenticator = 1 }
  for k in pairs(options) do
    if not known[k] then
      local names = {}
      for name in pairs(known) do names[#names + 1] = name end
      table.sort(names)
      bad("unknown option " .. (type(k) == "string" and k or got(k)) .. "; the options are " .. table.concat(names, ", "))
    end
  end
  local cfg = ffi.new("idlelock_config")
  if C.idlelock_config_init(cfg, ffi.sizeof(cfg)) ~= 0 then raise(M.ERR_INTERNAL, last_error()) end
  local o = options
  if o.idle_after_ms ~= nil then cfg.idle_after_ms = int64(o.idle_after_ms, "idle_after_ms") end
  if o.background_after_ms ~= nil then cfg.background_after_ms = int64(o.background_after_ms, "background_after_ms") end
  if o.inactive_after_ms ~= nil then cfg.inactive_after_ms = int64(o.inactive_after_ms, "inactive_after_ms") end
  if o.grace_ms ~= nil then cfg.grace_ms = int64(o.grace_ms, "grace_ms") end
  if o.prompt_cap_ms ~= nil then cfg.prompt_cap_ms = int64(o.prompt_cap_ms, "prompt_cap_ms") end
  if o.warn_before_ms ~= nil then cfg.warn_before_ms = int64(o.warn_before_ms, "warn_before_ms") end
  if o.max_attempts ~= nil then cfg.max_attempts = int32(o.max_attempts, "max_attempts") end
  if o.passcode_max_age_ms ~= nil then cfg.passcode_max_age_ms = int64(o.passcode_max_age_ms, "passcode_max_age_ms") end
  if o.biometric_max_uses ~= nil then cfg.biometric_max_uses = int32(o.biometric_max_uses, "biometric_max_uses") end
  if o.passcode_after_reboot ~= nil then cfg.passcode_after_reboot = flag(o.passcode_after_reboot, "passcode_after_reboot") end
  if o.kdf_opslimit ~= nil then cfg.kdf_opslimit = uint64(o.kdf_opslimit, "kdf_opslimit") end
  if o.kdf_memlimit ~= nil then cfg.kdf_memlimit = uint64(o.kdf_memlimit, "kdf_memlimit") end
  if o.lock_on_start ~= nil then cfg.lock_on_start = flag(o.lock_on_start, "lock_on_start") end
  -- Keep every buffer the config points to alive until create returns.
  local keep = {}
  if o.store_path ~= nil then keep.path = cstr(o.store_path, "store_path"); cfg.store_path = keep.path end
  if o.unlock_reason ~= nil then keep.reason = cstr(o.unlock_reason, "unlock_reason"); cfg.unlock_reason = keep.reason end
  local key, key_len
  if o.device_key ~= nil then
    local dk = o.device_key
    if type(dk) == "cdata" and buffer_kind(dk) == "pointer" then
      bad("device_key: an ffi pointer has no length; pass the " .. M.DEVICE_KEY_BYTES ..
          " bytes as a uint8_t[" .. M.DEVICE_KEY_BYTES .. "] array or a string, got " .. typename(dk))
    end
    local p, n = bytes(dk, type(dk) == "cdata" and buffer_kind(dk) == "array" and ffi.sizeof(dk) or nil, "device_key")
    key_len = n
    key = u8_vla(math.max(1, n))
    ffi.copy(key, p, n)
    cfg.device_key, cfg.device_key_len = key, n
  end
  local schedule = o.delay_schedule
  if schedule == "ios" then schedule = M.ios_delay_schedule() end
  if schedule ~= nil then
    if type(schedule) ~= "table" then
      bad("delay_schedule must be a list of {failed_attempts, delay_ms} or \"ios\", got " ..
          (type(schedule) == "string" and ("the string \"" .. schedule .. "\"") or typename(schedule)))
    end
    local steps = ffi.new("idlelock_delay_step[?]", math.max(1, #schedule))
    for i, step in ipairs(schedule) do
      if type(step) ~= "table" then bad("delay_schedule[" .. i .. "] must be {failed_attempts, delay_ms}, got " .. got(step)) end
      steps[i - 1].failed_attempts = int32(step[1] or step.failed_attempts, "delay_schedule[" .. i .. "].failed_attempts")
      steps[i - 1].delay_ms = int64(step[2] or step.delay_ms, "delay_schedule[" .. i .. "].delay_ms")
    end
    keep.steps = steps
    cfg.delay_schedule, cfg.delay_schedule_len = steps, #schedule
  end
  local self = setmetatable({ _depth = 0, _listeners = {}, _cb = nil, _out = snapshot_t(),
                              _watching = false, _requests = {}, _dropped = {} }, Lock)
  self._out.size = snapshot_size
  if o.clock ~= nil then
    if type(o.clock) ~= "function" then bad("clock must be a function returning milliseconds, got " .. typename(o.clock)) end
    self._clock = o.clock
    self._cb = true
    self._id = new_id()
    cfg.clock, cfg.clock_ctx = clock_cb, ffi.cast("void *", self._id)
  end
  if o.authenticator ~= nil then
    local a = o.authenticator
    if type(a) ~= "table" then
      bad("authenticator must be a table of four functions (is_available, store_secret, load_secret, " ..
          "delete_secret), got " .. typename(a))
    end
    for _, name in ipairs{ "is_available", "store_secret", "load_secret", "delete_secret" } do
      if type(a[name]) ~= "function" then bad("authenticator." .. name .. " must be a function, got " .. typename(a[name])) end
    end
    auth_callbacks = auth_callbacks or make_auth_callbacks()
    self._auth = a
    self._cb = true
    self._id = self._id or new_id()
    local st = ffi.new("idlelock_authenticator")
    st.size = ffi.sizeof(st)
    st.ctx = ffi.cast("void *", self._id)
    st.is_available, st.store_secret = auth_callbacks.is_available, auth_callbacks.store_secret
    st.load_secret, st.delete_secret = auth_callbacks.load_secret, auth_callbacks.delete_secret
    keep.auth = st
    cfg.authenticator = st
  end
  if self._id then locks[self._id] = self end -- its clock's and authenticator's ctx
  local out = ffi.new("idlelock *[1]")
  self._depth = 1
  local rc = (self._cb and call_nojit or call)(C.idlelock_create, cfg, out)
  self._depth = 0
  if key then ffi.fill(key, key_len) end
  keep = nil
  if rc ~= 0 then
    local message = last_error()
    for i = #pending, 1, -1 do pending[i] = nil end
    raise(rc, message, nil, 2)
  end
  live = live + 1
  self._h = ffi.gc(out[0], destroy)
  return self
end

--- Destroys the lock: wipes its session key, passcode wrap and secrets,
--- stops the watcher. Idempotent. From inside a callback of one of its own
--- calls, the handle is destroyed when that call returns.
function Lock:close()
  local h = self._h
  if h == nil then return end
  -- From now on the lock is closed for every caller (its handle is gone
  -- from self), and none of the host's listeners runs, not even the rest
  -- of a delivery in progress (a listener that closed the lock): the
  -- module's callback finds the record inactive and returns.
  self._h = nil
  for _, rec in pairs(self._listeners) do rec.active = false end
  if self._depth > 0 then
    -- Inside a call of this lock (a listener, the clock): the call still
    -- holds the handle; it is destroyed when the outermost call returns.
    self._doomed = h
    self._closing = true
    return
  end
  release(self, h)
end

function Lock:is_closed() return self._h == nil end

-- Events (each returns the snapshot table after the call).
Lock.start = event(C.idlelock_start)
Lock.inactive = event(C.idlelock_inactive)
Lock.background = event(C.idlelock_background)
Lock.foreground = event(C.idlelock_foreground)
Lock.check = event(C.idlelock_check)
Lock.lock = event(C.idlelock_lock)
Lock.snapshot = event(C.idlelock_snapshot_get)

--- User activity: call it on every input event. Returns nothing.
function Lock:touch()
  local h = handle(self)
  self._depth = self._depth + 1
  local rc = (self._cb and call_nojit or call)(C.idlelock_touch, h, nil)
  self._depth = self._depth - 1
  if rc ~= 0 or pending[1] ~= nil or self._closing then
    self._depth = self._depth + 1
    finish(self, rc, nil)
  end
end

--- A platform's own state name ("ON_STOP", "inactive"): platform is one of
--- idlelock.PLATFORM_*. An unknown platform or name raises
--- ERR_INVALID_ARGUMENT whose message (the library's) lists the valid ones;
--- nothing changes.
function Lock:lifecycle(platform, state_name)
  int32(platform, "platform")
  cstr(state_name, "state_name")
  local h = handle(self)
  local out = self._out
  self._depth = self._depth + 1
  local rc = (self._cb and call_nojit or call)(C.idlelock_lifecycle, h, platform, state_name, out)
  local s = snapshot_table(out)
  self._due = nil
  finish(self, rc, rc ~= M.ERR_INVALID_ARGUMENT and s or nil)
  return s
end

--- Opens a prompt the app shows itself; returns its token (a uint64 cdata).
function Lock:prompt_begin()
  local token = u64_box()
  plain(self, C.idlelock_prompt_begin, token)
  return token[0]
end

function Lock:prompt_end(token)
  if type(token) ~= "cdata" and type(token) ~= "number" then
    bad("token must be a prompt token (what lock:prompt_begin() returned), got " .. typename(token))
  end
  plain(self, C.idlelock_prompt_end, token)
end

--- set_passcode(passcode [, len]): a Lua string, a passcode_buffer, or an
--- ffi buffer and its length. Runs Argon2id (tens of ms: not every frame).
function Lock:set_passcode(passcode, len)
  local p, n = bytes(passcode, len, "passcode")
  plain(self, C.idlelock_set_passcode, p, n)
end

--- unlock(passcode [, len]) -> snapshot. Errors: ERR_INVALID_PASSCODE
--- (e.attempts_remaining), ERR_LOCKED_OUT, ERR_RETRY_LATER (e.ms_until_retry),
--- ERR_NO_PASSCODE, ERR_SESSION_LOCKED.
function Lock:unlock(passcode, len)
  local p, n = bytes(passcode, len, "passcode")
  local h = handle(self)
  local out = self._out
  self._depth = self._depth + 1
  local rc = (self._cb and call_nojit or call)(C.idlelock_unlock, h, p, n, out)
  local s = snapshot_table(out)
  self._due = nil
  finish(self, rc, rc ~= M.ERR_INVALID_ARGUMENT and s or nil)
  return s
end

-- The biometric shortcut. This module configures no callback authenticator
-- (a game loop cannot block on a prompt), so enable_biometrics() and
-- unlock_with_biometrics() answer ERR_LOCK_UNAVAILABLE; the two-phase pair
-- below is the way in.
function Lock:enable_biometrics() plain(self, C.idlelock_enable_biometrics) end
function Lock:disable_biometrics() plain(self, C.idlelock_disable_biometrics) end
Lock.unlock_with_biometrics = event(C.idlelock_unlock_with_biometrics)

-- ------------------------------------------- biometric requests (1.2 pair)
--
-- A request is two tables: the core (token, purpose, the enable secret, the
-- outcome), which the lock's registry holds for close(), and the facade the
-- host holds, which carries an ffi.gc sentinel. When the host drops an open
-- request, the sentinel's finalizer only queues its core on the lock (a
-- finalizer must not call C: the call could run a Lua listener in the middle
-- of a collection); the next begin_* or poll() finishes it as cancelled, so a
-- forgotten request never holds one of the BIOMETRIC_REQUESTS_MAX slots. The
-- finalizer wipes an enable request's secret at once (ffi.fill calls no
-- library function), and the secret array wipes itself when it is collected
-- (a request dropped with its lock is never reaped): a dropped request's
-- secret lingers neither until the next frame nor in freed memory.

local Core = {}
Core.__index = Core

--- The request ended: keep its outcome (snapshot, or the error object), wipe
--- the enable secret, leave the lock's registry.
function Core:ended(snapshot, err)
  if self.done then return end
  self.done = true
  self.result_snapshot, self.error = snapshot, err
  if self.secret then ffi.fill(self.secret, M.AUTH_SECRET_BYTES) end
  self.lock._requests[self] = nil
end

local Request = {}
Request.__index = Request
M.Request = Request

local purpose_names = { [M.BIOMETRIC_UNLOCK] = "UNLOCK", [M.BIOMETRIC_ENABLE] = "ENABLE" }
local auth_names = { [M.AUTH_OK] = "AUTH_OK", [M.AUTH_FAILED] = "AUTH_FAILED",
                     [M.AUTH_CANCELLED] = "AUTH_CANCELLED", [M.AUTH_UNAVAILABLE] = "AUTH_UNAVAILABLE" }
local secret_t = ffi.typeof("uint8_t[$]", M.AUTH_SECRET_BYTES)
local sentinel_t = ffi.typeof("uint8_t[1]")
local function wipe_secret(secret) ffi.fill(secret, M.AUTH_SECRET_BYTES) end

--- idlelock_biometric_finish for a core whose arguments are checked; returns
--- the snapshot, or raises what finish raises.
local function finish_core(core, result, p, n)
  local self = core.lock
  local h = handle(self)
  local out = self._out
  self._depth = self._depth + 1
  core.finishing = core.finishing + 1
  local rc = call_nojit(C.idlelock_biometric_finish, h, core.token, result, p, n, out)
  core.finishing = core.finishing - 1
  local message = rc ~= 0 and last_error() or nil
  local s = snapshot_table(out)
  self._due = nil
  -- A status other than INVALID_ARGUMENT: the library finished it. An
  -- INVALID_ARGUMENT (the binding checked the arguments): the token is no
  -- longer open (finished before, or voided), unless a finish of it from a
  -- listener inside this one is what finished it.
  local err = rc ~= 0 and new_error(rc, message, rc ~= M.ERR_INVALID_ARGUMENT and s or nil) or nil
  if rc ~= M.ERR_INVALID_ARGUMENT or core.finishing == 0 then core:ended(rc == 0 and s or nil, err) end
  leave(self)
  if pending[1] ~= nil then raise_pending(rc, s) end
  if err then error(err, 3) end
  return s
end

--- Finishes the requests the program dropped while open (as cancelled).
local function reap(self)
  local dropped = self._dropped
  if dropped[1] == nil then return end
  self._dropped = {}
  for _, core in ipairs(dropped) do
    if not core.done and self._h then
      pcall(finish_core, core, M.AUTH_CANCELLED, nil, 0)
      core:ended(nil, new_error(M.ERR_LOCK_UNAVAILABLE, "the biometric request was dropped unfinished"))
    end
  end
end

local function begin_biometric(self, purpose)
  local h = handle(self)
  reap(self)
  local token = u64_box()
  local secret = purpose == M.BIOMETRIC_ENABLE and ffi.gc(secret_t(), wipe_secret) or nil
  local out = self._out
  self._depth = self._depth + 1
  local rc = (self._cb and call_nojit or call)(C.idlelock_biometric_begin, h, purpose, token, secret,
                                              secret and M.AUTH_SECRET_BYTES or 0, out)
  local s = snapshot_table(out)
  self._due = nil
  if rc ~= 0 then
    if secret then ffi.fill(secret, M.AUTH_SECRET_BYTES) end
    finish(self, rc, rc ~= M.ERR_INVALID_ARGUMENT and s or nil)
  end
  local core = setmetatable({ lock = self, token = token[0], purpose = purpose, secret = secret,
                              finishing = 0, done = false }, Core)
  self._requests[core] = true
  local req = setmetatable({
    purpose = purpose,
    purpose_name = purpose_names[purpose],
    token = core.token,
    secret = secret,
    snapshot = s,
    _core = core,
    _sentinel = ffi.gc(sentinel_t(), function()
      if not core.done then
        if secret then ffi.fill(secret, M.AUTH_SECRET_BYTES) end
        local l = core.lock
        if l._h then l._dropped[#l._dropped + 1] = core end
      end
    end),
  }, Request)
  local ok, err = pcall(finish, self, 0, s) -- a listener that raised during the begin
  if not ok then
    -- The caller never gets the request: it must not stay open.
    pcall(finish_core, core, M.AUTH_CANCELLED, nil, 0)
    core:ended(nil, err)
    error(err, 3)
  end
  return req
end

--- Begins a biometric unlock whose result comes later
--- (idlelock_biometric_begin, BIOMETRIC_UNLOCK) and returns the request:
--- start the platform's check, keep drawing frames, and call
--- req:finish(idlelock.AUTH_OK, secret, 32) when it has released the secret.
--- Raises ERR_NO_PASSCODE, ERR_LOCKED_OUT, ERR_LOCK_UNAVAILABLE (the shortcut
--- is off, a passcode policy requires the passcode: snapshot
--- is_passcode_required, or prompt_cap_ms is 0), ERR_INVALID_ARGUMENT
--- (BIOMETRIC_REQUESTS_MAX already open), ERR_STORAGE; no request is left open
--- then. On an unlocked session it re-authenticates.
function Lock:begin_biometric_unlock() return begin_biometric(self, M.BIOMETRIC_UNLOCK) end

--- Begins turning the shortcut on (idlelock_biometric_begin,
--- BIOMETRIC_ENABLE): req.secret is a uint8_t[32] holding a new random secret
--- to keep behind the platform's biometric check; then req:finish(idlelock.AUTH_OK).
--- The binding wipes req.secret (ffi.fill) when the request ends. Needs an
--- unlocked session with a passcode: ERR_NO_PASSCODE, ERR_SESSION_LOCKED,
--- ERR_LOCK_UNAVAILABLE (prompt_cap_ms is 0), ERR_INVALID_ARGUMENT (too many open).
function Lock:begin_biometric_enable() return begin_biometric(self, M.BIOMETRIC_ENABLE) end

--- req:finish(result [, secret [, len]]) -> snapshot: ends the request with
--- the host's outcome (idlelock_biometric_finish). result is one of
--- idlelock.AUTH_OK, AUTH_FAILED, AUTH_CANCELLED, AUTH_UNAVAILABLE. For an
--- UNLOCK whose check passed (AUTH_OK), secret is the 32 bytes it released:
--- an ffi buffer (a uint8_t array, or a pointer with len), which the binding
--- wipes with ffi.fill when finish returns or raises, or a Lua string (which
--- cannot be wiped: prefer a buffer). Every other case passes no secret.
--- The prompt ends as every prompt ends (deadlines judged first, then the
--- outcome, then the end is activity while unlocked); never counts a passcode
--- attempt. Raises ERR_LOCK_UNAVAILABLE (the check did not pass, the request
--- expired after prompt_cap_ms, a passcode policy, or a secret that does not
--- open the shortcut: it is then off), ERR_SESSION_LOCKED (a lock after the
--- begin wins; for ENABLE delete what you stored), ERR_STORAGE,
--- ERR_INVALID_ARGUMENT (a secret that does not fit: the request stays open;
--- or a request no longer open: finished or voided by disable(),
--- set_passcode or disable_biometrics()), "idlelock: the lock is closed".
function Request:finish(result, secret, len)
  local core = self._core
  local p, n = nil, 0
  if secret ~= nil then
    local array = type(secret) == "cdata" and buffer_kind(secret) == "array"
    if array and len == nil then len = ffi.sizeof(secret) end
    local ok, err = pcall(function() p, n = bytes(secret, len, "secret") end)
    if not ok then
      -- Refused before the library saw it: an array still goes back
      -- wiped, within its own bounds (a pointer's extent is unknown).
      if array and writable(secret) then ffi.fill(secret, ffi.sizeof(secret)) end
      error(err, 2)
    end
  end
  local ok, s = pcall(function()
    if auth_names[result] == nil then
      bad("result must be idlelock.AUTH_OK, AUTH_FAILED, AUTH_CANCELLED or AUTH_UNAVAILABLE, got " .. got(result))
    end
    local releases = core.purpose == M.BIOMETRIC_UNLOCK and result == M.AUTH_OK
    if releases and n ~= M.AUTH_SECRET_BYTES then
      bad("secret: " .. (secret == nil and "none" or n .. " bytes") .. "; an UNLOCK that passed hands over the " ..
          M.AUTH_SECRET_BYTES .. "-byte secret the check released")
    end
    if not releases and secret ~= nil then
      bad("secret: only an UNLOCK finished with AUTH_OK hands over a secret; pass none with " .. auth_names[result] ..
          (core.purpose == M.BIOMETRIC_ENABLE and " (an ENABLE confirms with no secret)" or ""))
    end
    return finish_core(core, result, p, n)
  end)
  if type(secret) == "cdata" and n > 0 and writable(secret) then ffi.fill(secret, n) end
  if not ok then error(s, 0) end
  return s
end

--- Ends the request, if it is still open, with an outcome that releases
--- nothing (AUTH_FAILED, AUTH_CANCELLED, AUTH_UNAVAILABLE): the library's
--- expected ERR_LOCK_UNAVAILABLE answer is not raised (req:outcome() has it),
--- nor is anything when the request already ended, was voided, or the lock
--- is closed. Returns the snapshot after it, or nil.
function Request:dismiss(result)
  if result == M.AUTH_OK or auth_names[result] == nil then
    bad("dismiss takes idlelock.AUTH_FAILED, AUTH_CANCELLED or AUTH_UNAVAILABLE, got " .. got(result) ..
        "; a check that passed goes through finish(idlelock.AUTH_OK, secret)")
  end
  local core = self._core
  if core.done or core.lock._h == nil then return nil end
  local ok, s = pcall(finish_core, core, result, nil, 0)
  if ok then return s end
  if M.is_error(s, M.ERR_LOCK_UNAVAILABLE) then return s.snapshot end
  if M.is_error(s, M.ERR_INVALID_ARGUMENT) or tostring(s):find("closed", 1, true) then return nil end
  error(s, 0)
end

--- dismiss(idlelock.AUTH_CANCELLED): for a screen that goes away unanswered.
function Request:cancel() return self:dismiss(M.AUTH_CANCELLED) end

--- True once the request has ended (finished, voided and seen as such, or its lock closed).
function Request:is_finished() return self._core.done end

--- For a game loop: nil while the request is open; then true, snapshot (the
--- finish the library accepted) or false, err (the error object finish
--- raised, ERR_INVALID_ARGUMENT when it was voided; the string
--- "idlelock: the lock is closed" when its lock was closed first).
function Request:outcome()
  local core = self._core
  if not core.done then return nil end
  if core.error then return false, core.error end
  return true, core.result_snapshot
end

Request.__tostring = function(self)
  return "idlelock.Request(" .. self.purpose_name .. ", " .. (self._core.done and "finished" or "open") .. ")"
end

--- The step-up check before a sensitive action (1.2,
--- idlelock_require_recent_auth): returns when the session is unlocked and
--- its last successful authentication on this lock (snapshot last_auth_ms)
--- is at most max_age_ms (1 .. RECENT_AUTH_MAX_MS, 30 days) old. Raises
--- ERR_REAUTH_REQUIRED (status 13) when it is older or there was none (ask
--- again: unlock, or the pair on the unlocked session), ERR_SESSION_LOCKED
--- when locked, ERR_NO_PASSCODE, ERR_INVALID_ARGUMENT for max_age_ms out of range.
function Lock:require_recent_auth(max_age_ms)
  plain(self, C.idlelock_require_recent_auth, int64(max_age_ms, "max_age_ms"))
end

--- Signs out: forgets the passcode, every secret, the count and the lockout.
function Lock:disable() plain(self, C.idlelock_disable) end

-- Whether the lock's calls may call back into Lua (a clock, an
-- authenticator, a listener): they then go through `call_nojit`.
local function update_cb(self)
  self._cb = self._clock ~= nil or self._auth ~= nil or next(self._listeners) ~= nil or nil
end

--- Registers fn(snapshot) for every change made from now on; returns its
--- token. It runs inside the call that caused the change, on this thread.
--- Refused while the watcher runs (it would run on the watcher's thread).
function Lock:subscribe(fn)
  if type(fn) ~= "function" then bad("the listener must be a function, got " .. typename(fn)) end
  handle(self)
  if self._watching then
    bad("a Lua listener cannot be added while the watcher thread runs (C must never call Lua from " ..
        "another thread): call watch_stop() first, or use poll()")
  end
  local rec = { fn = fn, active = true }
  local id = new_id()
  listeners[id] = rec
  local token = u64_box()
  self._cb = true
  local ok, err = pcall(plain, self, C.idlelock_subscribe, listener_cb, ffi.cast("void *", id), token)
  if not ok then
    listeners[id] = nil
    update_cb(self)
    error(err, 2)
  end
  local key = tostring(token[0])
  self._listeners[key] = rec
  return token[0]
end

function Lock:unsubscribe(token)
  if type(token) ~= "cdata" and type(token) ~= "number" then
    bad("token must be a subscription token (what lock:subscribe() returned), got " .. typename(token))
  end
  plain(self, C.idlelock_unsubscribe, token)
  local key = tostring(ffi.cast("uint64_t", token))
  local rec = self._listeners[key]
  if rec then rec.active = false end
  self._listeners[key] = nil
  update_cb(self)
end

--- put_secret(name, value [, len]): value is a string or an ffi buffer and its length.
function Lock:put_secret(name, value, len)
  cstr(name, "name")
  local p, n = bytes(value, len, "value")
  plain(self, C.idlelock_secret_put, name, p, n)
end

--- get_secret(name) -> buf, len: a new uint8_t[len] the caller owns (wipe it
--- with ffi.fill(buf, len) when done).
function Lock:get_secret(name)
  cstr(name, "name")
  local h = handle(self)
  local size = size_box()
  self._depth = self._depth + 1
  local f = self._cb and call_nojit or call
  local rc = f(C.idlelock_secret_get, h, name, nil, size)
  local buf = u8_vla(0)
  while rc == M.ERR_BUFFER_TOO_SMALL do
    ffi.fill(buf, ffi.sizeof(buf))
    local cap = size[0]
    buf = u8_vla(cap)
    rc = f(C.idlelock_secret_get, h, name, buf, size)
  end
  finish(self, rc, nil)
  return buf, tonumber(size[0])
end

--- get_secret_string(name) -> string. The binding wipes its buffer; the Lua
--- string cannot be wiped: use get_secret for keys.
function Lock:get_secret_string(name)
  local buf, n = self:get_secret(name)
  local s = ffi.string(buf, n)
  ffi.fill(buf, n)
  return s
end

function Lock:remove_secret(name)
  cstr(name, "name")
  plain(self, C.idlelock_secret_remove, name)
end

--- The gate: raises ERR_SESSION_LOCKED unless unlocked.
function Lock:require_unlocked() plain(self, C.idlelock_require_unlocked) end

--- Starts the watcher thread (the session then locks on time with no call).
--- Refused while a Lua listener or clock is registered: use poll() instead.
function Lock:watch_start()
  handle(self)
  if self._cb then
    bad("watch_start: this lock has a Lua listener, clock or authenticator, and C must never call Lua from " ..
        "another thread; unsubscribe first, or drive the lock with poll() from the game loop")
  end
  plain(self, C.idlelock_watch_start)
  self._watching = true
end

function Lock:watch_stop()
  plain(self, C.idlelock_watch_stop)
  self._watching = false
end

local ts = ffi.new("idlelock_lua_timespec")
-- Resolved once; nil on a libc without clock_gettime (poll then checks every time).
local clock_gettime
do
  local ok, f = pcall(function() return ffi.C.idlelock_lua_clock_gettime end)
  clock_gettime = ok and f or nil
end

--- Milliseconds on the lock's clock (CLOCK_BOOTTIME by default), or nil.
function Lock:_now()
  if self._clock then
    local ok, v = pcall(self._clock)
    return ok and tonumber(v) or nil
  end
  if clock_gettime == nil or clock_gettime(CLOCK_BOOTTIME, ts) ~= 0 then return nil end
  return tonumber(ts.sec) * 1000 + math.floor(tonumber(ts.nsec) / 1000000)
end

--- For the game loop: returns snapshot, changed. Calls check() only when the
--- last snapshot's ms_until_next_deadline has passed (or after any other
--- call), so an idle frame costs one clock reading. `changed`: the state
--- moved (its seq) since the last poll.
function Lock:poll()
  if self._dropped[1] ~= nil and self._h then reap(self) end
  local now = self:_now()
  if now and self._due and now < self._due and self._last then return self._last, false end
  local s = self:check()
  self._last = s
  self._due = now and (s.ms_until_next_deadline == math.huge and math.huge or now + s.ms_until_next_deadline) or nil
  local changed = s.seq ~= self._polled_seq
  self._polled_seq = s.seq
  return s, changed
end

Lock.__tostring = function(self) return "idlelock.Lock(" .. (self:is_closed() and "closed" or "open") .. ")" end

-- ------------------------------------------------------------ module calls

function M.version() return ffi.string(C.idlelock_version()) end
function M.version_number() return C.idlelock_version_number() end
function M.status_name(status) return ffi.string(C.idlelock_status_name(int32(status, "status"))) end

--- The library's iOS-like preset: { {5, 60000}, {6, 300000}, {7, 900000}, {9, 3600000} }.
function M.ios_delay_schedule()
  local steps, n = ffi.new("const idlelock_delay_step *[1]"), size_box()
  if C.idlelock_delay_schedule_ios(steps, n) ~= 0 then raise(M.ERR_INTERNAL, last_error()) end
  local t = {}
  for i = 0, tonumber(n[0]) - 1 do
    t[#t + 1] = { steps[0][i].failed_attempts, tonumber(steps[0][i].delay_ms) }
  end
  return t
end

function M._live_handles() return live end

-- ------------------------------------------------------- passcode buffers

local function wipe_buffer(buf) ffi.fill(buf, ffi.sizeof(buf)) end

--- A passcode typed in place: append(text) from love.textinput, backspace(),
--- clear() (wipes it with ffi.fill), len(). Wiped when collected too. Pass it
--- to set_passcode / unlock as is.
function M.passcode_buffer(capacity)
  capacity = capacity or M.PASSCODE_MAX_BYTES
  int32(capacity, "capacity")
  return setmetatable({ buf = ffi.gc(u8_vla(capacity), wipe_buffer), n = 0, cap = capacity }, PasscodeBuffer)
end

function PasscodeBuffer:append(text)
  if type(text) ~= "string" then bad("append takes a string, got " .. typename(text)) end
  if self.n + #text > self.cap then return false end
  ffi.copy(self.buf + self.n, text, #text)
  self.n = self.n + #text
  return true
end

--- Removes the last UTF-8 character.
function PasscodeBuffer:backspace()
  while self.n > 0 do
    self.n = self.n - 1
    local b = self.buf[self.n]
    self.buf[self.n] = 0
    if bit.band(b, 0xC0) ~= 0x80 then break end
  end
end

function PasscodeBuffer:clear()
  ffi.fill(self.buf, self.cap)
  self.n = 0
end

function PasscodeBuffer:len() return self.n end

return M
