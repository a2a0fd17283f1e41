-- SPDX-License-Identifier: MIT
-- The shipped lifecycle traces (traces/*.trace, format in their
-- README.md) replayed through the LuaJIT API: every event is a call of an
-- idlelock Lock (or of a biometric request), the clock is the trace's time,
-- biometrics=1 is the authenticator option over a fake keystore that
-- behaves as tools/replay/fake_keystore.h. It prints exactly what the C
-- replay tool (tools/replay/idlelock-replay.c) prints for the same files, so
-- test_traces.lua compares the two outputs byte for byte: the binding
-- decides as the core does.
--
--   luajit replay.lua [--quiet] FILE...
--
-- Exit status as the C tool's: 0 when every expect held, 1 when one did
-- not, 2 for a malformed trace (its message on stderr). `reboot` recomputes
-- the store's checksum with the system's libsodium, as the C tool does.

local ffi = require("ffi")
local bit = require("bit")
local idlelock = require("idlelock")

local NEVER_WORD = "never"
local MAX_TOKENS, MAX_REQUESTS, REQUEST_NAME_MAX, SHOW_MAX = 32, 16, 15, 64
local SAME = idlelock.SAME_AS_IDLE
local NEVER = idlelock.NEVER -- math.huge, as the module reports it

local STATUS_NAMES = { [0] = "OK", "INVALID_ARGUMENT", "SESSION_LOCKED", "INVALID_PASSCODE", "LOCKED_OUT",
  "LOCK_UNAVAILABLE", "NO_PASSCODE", "STORAGE", "NOT_FOUND", "BUFFER_TOO_SMALL", "NO_MEMORY", "INTERNAL",
  "RETRY_LATER", "REAUTH_REQUIRED" }
local STATE_NAMES = { [0] = "UNLOCKED", "LOCKED", "LOCKED_OUT" }
local REASON_NAMES = { [0] = "NONE", "IDLE", "BACKGROUNDED", "STARTUP", "MANUAL", "CLOCK" }
local TEST_DEVICE_KEY = "idlelock-replay-test-device-key!"
local UNLOCK_REASON = "Unlock the replayed session"

local ANSWERS = { ok = idlelock.AUTH_OK, fail = idlelock.AUTH_FAILED, cancel = idlelock.AUTH_CANCELLED,
                  unavailable = idlelock.AUTH_UNAVAILABLE }
local FINISHES = { ok = idlelock.AUTH_OK, fail = idlelock.AUTH_FAILED, cancel = idlelock.AUTH_CANCELLED,
                   unavailable = idlelock.AUTH_UNAVAILABLE, wrong = idlelock.AUTH_OK }
local SNAP_EVENTS = { start = true, touch = true, inactive = true, background = true, foreground = true,
                      check = true, lock = true, snapshot = true }
local OTHER_EVENTS = { passcode = { 1, 1 }, unlock = { 1, 1 }, disable = { 0, 0 }, put = { 2, 2 },
  get = { 1, 1 }, remove = { 1, 1 }, gate = { 0, 0 }, restart = { 0, 0 }, ["enable-biometrics"] = { 0, 0 },
  ["disable-biometrics"] = { 0, 0 }, ["unlock-biometrics"] = { 0, 1 }, ["enrolment-change"] = { 0, 0 },
  ["bio-available"] = { 1, 1 }, ["bio-begin"] = { 1, 2 }, ["bio-finish"] = { 2, 2 }, ["recent-auth"] = { 1, 1 },
  reboot = { 0, 0 } }
local CONFIG_KEYS = { idle = true, background = true, inactive = true, grace = true, attempts = true,
  lock_on_start = true, store = true, device_key = true, warn = true, biometrics = true, prompt_cap = true,
  max_age = true, after_reboot = true, max_uses = true }

-- A malformed line: raised as a table, reported on stderr with exit 2.
local Malformed = {}

-- ------------------------------------------------------------- numbers, names

local function parse_i64(s)
  if not s:match("^[+-]?%d+$") then return nil end
  local v = tonumber(s)
  if v == nil or v < -2 ^ 63 or v >= 2 ^ 63 then return nil end
  return v
end

local function parse_ms(s) if s == NEVER_WORD then return NEVER end return parse_i64(s) end

local function parse_i32(s)
  local v = parse_i64(s)
  if v == nil or v < -2 ^ 31 or v >= 2 ^ 31 then return nil end
  return v
end

local function name_of(names, v) return names[v] or tostring(v) end

local function status_word(status)
  local name = idlelock.status_name(status)
  return name:match("^IDLELOCK_ERR_(.*)$") or name:match("^IDLELOCK_(.*)$") or name
end

local function escaped(s)
  local out = {}
  for i = 1, #s do
    if i == SHOW_MAX + 1 then out[#out + 1] = "..."; break end
    local b = s:byte(i)
    if b == 0x22 or b == 0x5C then out[#out + 1] = "\\" .. string.char(b)
    elseif b >= 0x20 and b < 0x7F then out[#out + 1] = string.char(b)
    else out[#out + 1] = ("\\x%02x"):format(b) end
  end
  return table.concat(out)
end

local function show(s)
  local out = {}
  for i = 1, #s do
    if i == SHOW_MAX + 1 then out[#out + 1] = "..."; break end
    local b = s:byte(i)
    out[#out + 1] = (b >= 0x20 and b < 0x7F) and string.char(b) or ("\\x%02x"):format(b)
  end
  return table.concat(out)
end

local function int(v) return ("%d"):format(v) end
local function ms_text(v) if v == NEVER then return NEVER_WORD end return int(v) end
local function flag(b) return b and 1 or 0 end

-- ---------------------------------------------------------- the fake keystore

--- tools/replay/fake_keystore.h as the authenticator option: the host's
--- keystore, alive for the whole trace (across restarts).
local function fake_keystore()
  local ks = { available = true, next_answer = idlelock.AUTH_OK, fail_store = false, secret = nil }
  function ks.wipe()
    if ks.secret then ffi.fill(ks.secret, 32) end
    ks.secret = nil
  end
  function ks.keep(p, len)
    if not ks.available or ks.fail_store or len ~= idlelock.AUTH_SECRET_BYTES then return false end
    ks.secret = ffi.new("uint8_t[32]")
    ffi.copy(ks.secret, p, 32)
    return true
  end
  function ks.change_enrolment()
    if ks.secret then for i = 0, 31 do ks.secret[i] = bit.band(bit.bnot(ks.secret[i]), 0xFF) end end
  end
  ks.auth = {
    is_available = function() return ks.available end,
    store_secret = function(p, len) return ks.keep(p, len) end,
    load_secret = function()
      local answer = ks.next_answer
      ks.next_answer = idlelock.AUTH_OK
      if answer ~= idlelock.AUTH_OK then return nil, answer end
      if not ks.available or ks.secret == nil then return nil, idlelock.AUTH_UNAVAILABLE end
      return ks.secret
    end,
    delete_secret = function() ks.wipe() end,
  }
  return ks
end

-- ------------------------------------------------------------------ sodium

local sodium
local function load_sodium()
  if sodium then return sodium end
  ffi.cdef[[
    int crypto_generichash(unsigned char *out, size_t outlen, const unsigned char *in,
                           unsigned long long inlen, const unsigned char *key, size_t keylen);
    int crypto_kdf_derive_from_key(unsigned char *subkey, size_t subkey_len, uint64_t subkey_id,
                                   const char ctx[8], const unsigned char key[32]);
  ]]
  for _, name in ipairs{ "libsodium.so.23", "sodium" } do
    local ok, lib = pcall(ffi.load, name)
    if ok then sodium = lib; return lib end
  end
  error("replay.lua: libsodium (for reboot's checksum) could not be loaded")
end

-- ------------------------------------------------------------------ replay

local Replay = {}
Replay.__index = Replay

local function new_replay(path, quiet)
  return setmetatable({
    file = path, quiet = quiet, line = 0, out = {},
    cfg = { idle = NEVER, background = SAME, inactive = 30000, grace = 1500, attempts = 5, lock_on_start = 1,
            warn = 0, prompt_cap = 120000, max_age = 0, after_reboot = 0, max_uses = 0 },
    given = {}, now = 0, last_status = 0, events = 0, expects = 0, mismatches = 0,
    keystore = fake_keystore(), requests = {}, n_requests = 0, reboots = 0,
  }, Replay)
end

function Replay:write(s) io.stdout:write(s) end

function Replay:malformed(message)
  error(setmetatable({ message = ("%s:%d: %s"):format(self.file, self.line, message) }, Malformed), 0)
end

function Replay:event_width() return (self.use_biometrics or self.wide) and 18 or 10 end

function Replay:print_header()
  if self.header_printed or self.quiet then return end
  self.header_printed = true
  local c = self.cfg
  local text = ("== %s: idle=%s background=%s inactive=%s grace=%s attempts=%d lock_on_start=%d%s"):format(
    self.file, ms_text(c.idle), c.background == SAME and "same" or ms_text(c.background), ms_text(c.inactive),
    ms_text(c.grace), c.attempts, c.lock_on_start, self.use_biometrics and " biometrics=1" or "")
  if c.warn > 0 then text = text .. " warn=" .. int(c.warn) end
  if c.prompt_cap ~= 120000 then text = text .. " prompt_cap=" .. int(c.prompt_cap) end
  if c.max_age > 0 then text = text .. " max_age=" .. int(c.max_age) end
  if c.after_reboot ~= 0 then text = text .. " after_reboot=1" end
  if c.max_uses > 0 then text = text .. " max_uses=" .. int(c.max_uses) end
  local w = self:event_width()
  local columns = ("%8s  %-" .. w .. "s  %-16s  %-10s  %-12s  %4s  %4s  "):format("time", "event", "status", "state",
                                                                                  "reason", "left", "away")
  if self.use_biometrics then columns = columns .. ("%4s  %5s  "):format("bio", "avail") end
  self:write(text .. "\n" .. columns .. "until_idle\n")
end

function Replay:print_event(ev, args)
  if self.quiet then return end
  local s = self.snap
  local text = ("%8d  %-" .. self:event_width() .. "s  %-16s  %-10s  %-12s  %4d  %4d  "):format(
    self.now, ev, status_word(self.last_status), name_of(STATE_NAMES, s.state), name_of(REASON_NAMES, s.reason),
    s.attempts_remaining, flag(s.is_away))
  if self.use_biometrics then
    text = text .. ("%4d  %5d  "):format(flag(s.is_biometrics_enabled), flag(s.is_biometrics_available))
  end
  text = text .. ms_text(s.ms_until_idle_lock)
  if self.cfg.warn > 0 and s.is_warning then text = text .. "  WARNING" end
  if s.is_passcode_required then text = text .. "  PASSCODE-ONLY" end
  if #args > 0 and ev ~= "passcode" and ev ~= "unlock" then text = text .. "  " .. escaped(args[1]) end
  if self.value then text = text .. ' = "' .. escaped(self.value) .. '"' end
  self:write(text .. "\n")
end

-- -- config

function Replay:do_config(tokens)
  if self.event_seen then self:malformed("config after the first event") end
  if self.config_seen then self:malformed("config given twice") end
  self.config_seen = true
  local seen = {}
  for i = 2, #tokens do
    local key, val = tokens[i]:match("^([^=]+)=(.*)$")
    if not key then self:malformed(("config item '%s' is not key=value"):format(show(tokens[i]))) end
    if CONFIG_KEYS[key] then
      if seen[key] then self:malformed(("config key '%s' given twice"):format(show(key))) end
      seen[key] = true
    end
    local v
    if key == "idle" or key == "inactive" or key == "warn" or key == "grace" or key == "prompt_cap" or key == "max_age" then
      v = parse_ms(val)
    elseif key == "background" then
      v = val == "same" and SAME or parse_ms(val)
    elseif key == "attempts" or key == "lock_on_start" or key == "after_reboot" or key == "max_uses" then
      v = parse_i32(val)
    elseif key == "store" or key == "device_key" or key == "biometrics" then
      v = (val == "0" or val == "1") and tonumber(val) or nil
    else
      self:malformed(("unknown config key '%s'"):format(show(key)))
    end
    if v == nil then self:malformed(("bad value '%s' for config key '%s'"):format(show(val), show(key))) end
    if key == "store" then self.use_store = v == 1
    elseif key == "device_key" then self.use_device_key = v == 1
    elseif key == "biometrics" then self.use_biometrics = v == 1
    else
      self.cfg[key], self.given[key] = v, v
      if key == "prompt_cap" or key == "max_age" or key == "after_reboot" or key == "max_uses" then self.wide = true end
    end
  end
end

-- -- expect

function Replay:result(ok, key, want, got)
  self.expects = self.expects + 1
  if not ok then
    self.mismatches = self.mismatches + 1
    self:write(("%s:%d: expected %s=%s, got %s\n"):format(self.file, self.line, key, want, got))
  end
end

function Replay:expect_named(key, val, names, got)
  local want
  for i = 0, #names do if names[i] == val then want = i end end
  if want == nil then self:malformed(("unknown %s '%s'"):format(show(key), show(val))) end
  self:result(want == got, key, val, name_of(names, got))
end

function Replay:expect_number(key, val, allow_never, got)
  local want
  if allow_never then want = parse_ms(val) else want = parse_i64(val) end
  if want == nil then self:malformed(("bad value '%s' for expect key '%s'"):format(show(val), show(key))) end
  self:result(want == got, key, val, (allow_never and got == NEVER) and NEVER_WORD or int(got))
end

function Replay:expect_flag(key, val, got)
  if val ~= "0" and val ~= "1" then self:malformed(("expect key '%s' takes 0 or 1, not '%s'"):format(show(key), show(val))) end
  self:expect_number(key, val, false, flag(got))
end

function Replay:expect_value(val)
  self.expects = self.expects + 1
  if self.value ~= nil and self.value == val then return end
  self.mismatches = self.mismatches + 1
  local text = ("%s:%d: expected value=%s, got "):format(self.file, self.line, show(val))
  if self.value ~= nil then
    text = text .. '"' .. escaped(self.value) .. '"\n'
  else
    text = text .. "no value (status " .. name_of(STATUS_NAMES, self.last_status) .. ")\n"
  end
  self:write(text)
end

function Replay:do_expect(tokens)
  if not self.event_seen then self:malformed("expect before any event") end
  if #tokens < 2 then self:malformed("expect with nothing to check") end
  local s = self.snap
  for i = 2, #tokens do
    local key, val = tokens[i]:match("^([^=]+)=(.*)$")
    if not key then self:malformed(("expect item '%s' is not key=value"):format(show(tokens[i]))) end
    if key == "status" then self:expect_named(key, val, STATUS_NAMES, self.last_status)
    elseif key == "state" then self:expect_named(key, val, STATE_NAMES, s.state)
    elseif key == "reason" then self:expect_named(key, val, REASON_NAMES, s.reason)
    elseif key == "attempts" then self:expect_number(key, val, false, s.attempts_remaining)
    elseif key == "away" then self:expect_flag(key, val, s.is_away)
    elseif key == "enabled" then self:expect_flag(key, val, s.is_enabled)
    elseif key == "until_idle" then self:expect_number(key, val, true, s.ms_until_idle_lock)
    elseif key == "warning" then self:expect_flag(key, val, s.is_warning)
    elseif key == "until_warning" then self:expect_number(key, val, true, s.ms_until_warning)
    elseif key == "next" then self:expect_number(key, val, true, s.ms_until_next_deadline)
    elseif key == "activity" then self:expect_number(key, val, false, s.last_activity_ms)
    elseif key == "value" then self:expect_value(val)
    elseif key == "bio" then self:expect_flag(key, val, s.is_biometrics_enabled)
    elseif key == "bio_available" then self:expect_flag(key, val, s.is_biometrics_available)
    elseif key == "bio_item" then self:expect_flag(key, val, self.keystore.secret ~= nil)
    elseif key == "passcode_required" then self:expect_flag(key, val, s.is_passcode_required)
    elseif key == "last_auth" then self:expect_number(key, val, true, s.last_auth_ms)
    else self:malformed(("unknown expect key '%s'"):format(show(key))) end
  end
end

-- -- the lock

function Replay:options()
  local g = self.given
  local o = { clock = function() return self.now end, kdf_opslimit = 2, kdf_memlimit = idlelock.KDF_MEMLIMIT_MIN }
  if g.idle then o.idle_after_ms = g.idle end
  if g.background then o.background_after_ms = g.background end
  if g.inactive then o.inactive_after_ms = g.inactive end
  if g.grace then o.grace_ms = g.grace end
  if g.attempts then o.max_attempts = g.attempts end
  if g.lock_on_start then o.lock_on_start = g.lock_on_start ~= 0 end
  if g.warn then o.warn_before_ms = g.warn end
  if g.prompt_cap then o.prompt_cap_ms = g.prompt_cap end
  if g.max_age then o.passcode_max_age_ms = g.max_age end
  if g.after_reboot then o.passcode_after_reboot = g.after_reboot ~= 0 end
  if g.max_uses then o.biometric_max_uses = g.max_uses end
  if self.use_device_key then o.device_key = TEST_DEVICE_KEY end
  if self.use_biometrics then o.authenticator, o.unlock_reason = self.keystore.auth, UNLOCK_REASON end
  if self.use_store then o.store_path = self.store_path end
  return o
end

function Replay:ensure_lock()
  if self.lock then return end
  if self.use_store and not self.store_dir then
    local p = assert(io.popen("mktemp -d \"${TMPDIR:-/tmp}/idlelock-replay-XXXXXX\""))
    self.store_dir = p:read("*l")
    p:close()
    self.store_path = self.store_dir .. "/session.idlelock"
  end
  self:print_header()
  local ok, lock = pcall(idlelock.new, self:options())
  if not ok then self:malformed("idlelock.new refused the config: " .. tostring(lock)) end
  self.lock = lock
end

function Replay:stamp_other_boot()
  local f = io.open(self.store_path, "rb")
  if not f then return false end
  local data = f:read(1048576) or ""
  f:close()
  local n = #data
  if not (n >= 460 + 32 and n < 1048576 and data:byte(9) == 2) then return false end
  local buf = ffi.new("uint8_t[?]", n)
  ffi.copy(buf, data, n)
  local boot = ("replay-reboot-%04d-0000-000000000000"):format(self.reboots % 10000)
  for _, offset in ipairs{ 64, 416 } do ffi.copy(buf + offset, boot, 36) end
  local na = load_sodium()
  if self.use_device_key then
    local subkey = ffi.new("unsigned char[32]")
    na.crypto_kdf_derive_from_key(subkey, 32, 1, "idlkstor", TEST_DEVICE_KEY)
    na.crypto_generichash(buf + n - 32, 32, buf, n - 32, subkey, 32)
    ffi.fill(subkey, 32)
  else
    na.crypto_generichash(buf + n - 32, 32, buf, n - 32, nil, 0)
  end
  f = io.open(self.store_path, "r+b")
  if not f then return false end
  local ok = f:write(ffi.string(buf, n)) and f:flush()
  f:close()
  return ok and true or false
end

function Replay:remove_store()
  if self.store_dir then
    os.remove(self.store_path)
    os.remove(self.store_path .. ".lock")
    os.remove(self.store_dir)
    self.store_dir = nil
  end
end

-- -- events

function Replay:check_args(ev, args)
  if ev == "unlock-biometrics" and #args == 1 and not ANSWERS[args[1]] then
    self:malformed(("unknown answer '%s' for unlock-biometrics (ok, fail, cancel or unavailable)"):format(show(args[1])))
  end
  if ev == "bio-available" and args[1] ~= "0" and args[1] ~= "1" then
    self:malformed(("bio-available takes 0 or 1, not '%s'"):format(show(args[1])))
  end
  if (ev == "enrolment-change" or ev == "bio-available") and not self.use_biometrics then
    self:malformed(ev .. " needs config biometrics=1")
  end
  if ev == "bio-begin" then
    if args[1] ~= "unlock" and args[1] ~= "enable" then
      self:malformed(("bio-begin takes unlock or enable, not '%s'"):format(show(args[1])))
    end
    if #args == 2 and #args[2] > REQUEST_NAME_MAX then
      self:malformed(("a request name has at most %d characters"):format(REQUEST_NAME_MAX))
    end
    if not self.requests[args[2] or "req"] and self.n_requests == MAX_REQUESTS then
      self:malformed(("more than %d request names in one trace"):format(MAX_REQUESTS))
    end
  end
  if ev == "bio-finish" then
    local q = self.requests[args[1]]
    if not q then self:malformed(("bio-finish of '%s', which no bio-begin named"):format(show(args[1]))) end
    if not FINISHES[args[2]] then
      self:malformed(("unknown result '%s' for bio-finish (ok, fail, cancel, unavailable or wrong)"):format(show(args[2])))
    end
    if q.purpose == "enable" and args[2] == "wrong" then self:malformed("bio-finish ... wrong is for an unlock request") end
    if q.purpose == "unlock" and FINISHES[args[2]] == idlelock.AUTH_OK and not self.keystore.secret then
      self:malformed(("bio-finish %s: the fake keystore holds no item to release"):format(show(args[2])))
    end
    if not q.request then
      self:malformed(("bio-finish of '%s', whose bio-begin failed: the LuaJIT API hands out no request to finish then")
        :format(show(args[1])))
    end
  end
  if ev == "recent-auth" and not parse_i64(args[1]) then
    self:malformed(("recent-auth takes ms, not '%s'"):format(show(args[1])))
  end
  if (ev == "restart" or ev == "reboot") and not self.use_store then self:malformed(ev .. " needs config store=1") end
end

function Replay:restart(reboot)
  self.lock:close()
  self.lock = nil
  if reboot then
    self.reboots = self.reboots + 1
    local f = io.open(self.store_path, "rb")
    if f then
      f:close()
      if not self:stamp_other_boot() then self:malformed("reboot: the store is no version-2 store, or cannot be rewritten") end
    end
  end
  self:ensure_lock()
end

--- Runs the event; returns the snapshot the call reported, or nil (then a
--- snapshot() follows, as the C tool's snapshot_get).
function Replay:call(ev, args)
  local lock = self.lock
  if SNAP_EVENTS[ev] then
    if ev == "touch" then lock:touch(); return nil end -- touch() reports no snapshot in this API
    return lock[ev](lock)
  end
  if ev == "passcode" then lock:set_passcode(args[1])
  elseif ev == "unlock" then return lock:unlock(args[1])
  elseif ev == "disable" then lock:disable()
  elseif ev == "put" then lock:put_secret(args[1], args[2])
  elseif ev == "get" then self.value = lock:get_secret_string(args[1])
  elseif ev == "remove" then lock:remove_secret(args[1])
  elseif ev == "gate" then lock:require_unlocked()
  elseif ev == "restart" or ev == "reboot" then self:restart(ev == "reboot")
  elseif ev == "enable-biometrics" then lock:enable_biometrics()
  elseif ev == "disable-biometrics" then lock:disable_biometrics()
  elseif ev == "unlock-biometrics" then
    self.keystore.next_answer = args[1] and ANSWERS[args[1]] or idlelock.AUTH_OK
    local ok, s = pcall(lock.unlock_with_biometrics, lock)
    self.keystore.next_answer = idlelock.AUTH_OK
    if not ok then error(s, 0) end
    return s
  elseif ev == "enrolment-change" then self.keystore.change_enrolment()
  elseif ev == "bio-available" then self.keystore.available = args[1] == "1"
  elseif ev == "bio-begin" then return self:bio_begin(args)
  elseif ev == "bio-finish" then return self:bio_finish(args)
  elseif ev == "recent-auth" then lock:require_recent_auth(parse_i64(args[1]))
  end
  return nil
end

function Replay:bio_begin(args)
  local enable = args[1] == "enable"
  local name = args[2] or "req"
  if not self.requests[name] then self.n_requests = self.n_requests + 1 end
  local q = { purpose = enable and "enable" or "unlock" }
  self.requests[name] = q
  local req = enable and self.lock:begin_biometric_enable() or self.lock:begin_biometric_unlock()
  q.request = req
  if enable then
    q.secret = ffi.new("uint8_t[32]")
    ffi.copy(q.secret, req.secret, 32)
  end
  return req.snapshot
end

function Replay:bio_finish(args)
  local q = self.requests[args[1]]
  local word = args[2]
  local result = FINISHES[word]
  local secret, kept = nil, false
  if q.purpose == "unlock" and result == idlelock.AUTH_OK then
    secret = ffi.new("uint8_t[32]")
    ffi.copy(secret, self.keystore.secret, 32)
    if word == "wrong" then secret[0] = bit.bxor(secret[0], 1) end
  end
  if q.purpose == "enable" and result == idlelock.AUTH_OK and q.secret then
    -- The check passed: the host keeps the secret behind it (or fails to).
    kept = self.keystore.keep(q.secret, 32)
    if not kept then result = idlelock.AUTH_FAILED end
  end
  if q.secret then ffi.fill(q.secret, 32); q.secret = nil end
  local ok, s = pcall(q.request.finish, q.request, result, secret)
  if not ok then
    if kept then self.keystore.wipe() end -- an enable the library did not take
    error(s, 0)
  end
  return s
end

function Replay:run_event(t, ev, args)
  self.now = t
  self.event_seen = true
  self:ensure_lock()
  self.events = self.events + 1
  self.value = nil
  local bio_before = self.snap ~= nil and self.snap.is_biometrics_enabled
  local ok, s = pcall(self.call, self, ev, args)
  local status, snap = 0, nil
  if ok then
    snap = s
  elseif idlelock.is_error(s) then
    status, snap = s.status, s.snapshot
  elseif type(s) == "string" and s:find("idlelock: the lock is closed", 1, true) then
    status = idlelock.ERR_INVALID_ARGUMENT -- a request of a handle a restart destroyed
  else
    error(s, 0)
  end
  self.last_status = status
  if snap == nil or status == idlelock.ERR_INVALID_ARGUMENT then snap = self.lock:snapshot() end
  self.snap = snap
  -- Without an authenticator the library cannot delete the host's item:
  -- the host does, once the shortcut went off.
  if not self.use_biometrics and bio_before and not snap.is_biometrics_enabled then self.keystore.wipe() end
  self:print_event(ev, args)
end

function Replay:do_event(tokens)
  local t = parse_i64(tokens[1])
  if t == nil then self:malformed(("bad time '%s' (a signed 64-bit decimal)"):format(show(tokens[1]))) end
  if #tokens < 2 then self:malformed("missing event after the time") end
  local ev = tokens[2]
  local lo, hi
  if SNAP_EVENTS[ev] then lo, hi = 0, 0
  elseif OTHER_EVENTS[ev] then lo, hi = OTHER_EVENTS[ev][1], OTHER_EVENTS[ev][2]
  else self:malformed(("unknown event '%s'"):format(show(ev))) end
  local args = {}
  for i = 3, #tokens do args[#args + 1] = tokens[i] end
  if #args < lo then self:malformed(("event '%s' needs %d argument%s"):format(show(ev), lo, lo == 1 and "" or "s")) end
  if #args > hi then
    self:malformed(("unexpected '%s' after event '%s'"):format(show(tokens[3 + hi]), show(ev)))
  end
  self:check_args(ev, args)
  self:run_event(t, ev, args)
end

function Replay:do_line(raw)
  if raw:find("\0", 1, true) then self:malformed("NUL byte in line") end
  local tokens = {}
  for token in (raw:match("^([^#]*)") or ""):gmatch("[^ \t\r\n\v\f]+") do tokens[#tokens + 1] = token end
  if #tokens > MAX_TOKENS then self:malformed(("more than %d items on one line"):format(MAX_TOKENS)) end
  if #tokens == 0 then return end
  if tokens[1] == "config" then self:do_config(tokens)
  elseif tokens[1] == "expect" then self:do_expect(tokens)
  else self:do_event(tokens) end
end

function Replay:run()
  local f = io.open(self.file, "rb")
  if not f then
    io.stderr:write(self.file .. ": cannot open\n")
    return 2
  end
  local data = f:read("*a")
  f:close()
  local ok, err = pcall(function()
    for raw in (data:sub(-1) == "\n" and data or data .. "\n"):gmatch("([^\n]*)\n") do
      self.line = self.line + 1
      self:do_line(raw)
    end
  end)
  if self.lock then self.lock:close() end
  self:remove_store()
  if not ok then error(err, 0) end
  self:print_header()
  if not self.quiet then
    self:write(("-- %s: %d events, %d expects, %d failed\n\n"):format(self.file, self.events, self.expects, self.mismatches))
  end
  return self.mismatches > 0 and 1 or 0
end

local function main(argv)
  local quiet, i = false, 1
  while argv[i] and argv[i]:sub(1, 1) == "-" and argv[i] ~= "-" do
    if argv[i] == "--" then i = i + 1; break end
    if argv[i] ~= "--quiet" and argv[i] ~= "-q" then
      io.stderr:write("usage: replay.lua [--quiet] FILE...\n")
      return 2
    end
    quiet, i = true, i + 1
  end
  if not argv[i] then
    io.stderr:write("usage: replay.lua [--quiet] FILE...\n")
    return 2
  end
  local files, events, expects, mismatches, status = 0, 0, 0, 0, 0
  for k = i, #argv do
    local r = new_replay(argv[k], quiet)
    local ok, rc = pcall(r.run, r)
    if not ok then
      io.stdout:flush()
      if getmetatable(rc) == Malformed then
        io.stderr:write(rc.message, "\n")
        return 2
      end
      error(rc, 0)
    end
    if rc == 2 then return 2 end
    files, events, expects, mismatches = files + 1, events + r.events, expects + r.expects, mismatches + r.mismatches
    if rc ~= 0 then status = rc end
  end
  io.stdout:write(("idlelock-replay: %d trace%s, %d events, %d expects, %d failed\n"):format(
    files, files == 1 and "" or "s", events, expects, mismatches))
  return status
end

os.exit(main(arg))
