-- SPDX-License-Identifier: MIT
-- What the LuaJIT binding adds to a call (BENCHMARKS.md, "Bindings"): thread
-- CPU ns per call of an ffi call of a C no-op, of a bare ffi call of
-- idlelock_touch, and of lock:touch(), in interleaved rounds (the order
-- rotates), after a warm-up that lets the JIT compile all three loops.
--
--   luajit bench.lua NOOP_SO [--rounds N] [--iters N] [--kv]
local ffi = require("ffi")
local idlelock = require("idlelock")

local args = { ... }
local noop_path = args[1]
local rounds, iters, kv = 21, 2000000, false
for i = 2, #args do
  if args[i] == "--rounds" then rounds = tonumber(args[i + 1])
  elseif args[i] == "--iters" then iters = tonumber(args[i + 1])
  elseif args[i] == "--kv" then kv = true end
end

ffi.cdef[[
  int bench_noop(void *lock, void *out);
  idlelock *bench_raw_create(void);
  void bench_raw_destroy(idlelock *lock);
  typedef struct { long sec; long nsec; } bench_timespec;
  int bench_clock_gettime(int clock, bench_timespec *ts) __asm__("clock_gettime");
]]
local B = ffi.load(noop_path)
local C = idlelock.C
local ts = ffi.new("bench_timespec")
local function cpu()
  ffi.C.bench_clock_gettime(3, ts) -- CLOCK_THREAD_CPUTIME_ID
  return tonumber(ts.sec) * 1e9 + tonumber(ts.nsec)
end

local raw = B.bench_raw_create()
assert(raw ~= nil, "bench_raw_create failed")
local lock = idlelock.new{ idle_after_ms = 3600000, background_after_ms = 30000, kdf_opslimit = 2,
                           kdf_memlimit = idlelock.KDF_MEMLIMIT_MIN }
lock:set_passcode("2468")

local bodies = {
  function(n) local s = 0; for _ = 1, n do s = s + B.bench_noop(raw, nil) end; return s end,
  function(n) local s = 0; for _ = 1, n do s = s + C.idlelock_touch(raw, nil) end; return s end,
  function(n) for _ = 1, n do lock:touch() end end,
}
local function ns_per_call(body, n)
  local t0 = cpu()
  body(n)
  return (cpu() - t0) / n
end
local function quantile(v, q)
  local s = {}
  for i, x in ipairs(v) do s[i] = x end
  table.sort(s)
  local pos = q * (#s - 1)
  local i = math.floor(pos)
  if i + 1 < #s then return s[i + 1] + (pos - i) * (s[i + 2] - s[i + 1]) end
  return s[#s]
end

for _ = 1, 3 do for _, b in ipairs(bodies) do ns_per_call(b, math.max(iters, 20000)) end end
local ns = { {}, {}, {} }
for r = 1, rounds do
  for k = 0, 2 do
    local which = (r + k) % 3 + 1
    ns[which][r] = ns_per_call(bodies[which], iters)
  end
end
local ratio, over_raw = {}, {}
for r = 1, rounds do
  ratio[r] = ns[3][r] / ns[1][r]
  over_raw[r] = ns[3][r] / ns[2][r]
end
lock:close()
B.bench_raw_destroy(raw)

local noop, raw_touch, touch = quantile(ns[1], 0.5), quantile(ns[2], 0.5), quantile(ns[3], 0.5)
local med = quantile(ratio, 0.5)
if kv then
  print(("luajit_vm %s"):format(jit.version:gsub(" ", "_")))
  print(("luajit_noop_ns %.2f\nluajit_raw_touch_ns %.1f\nluajit_touch_ns %.1f"):format(noop, raw_touch, touch))
  print(("luajit_ratio %.3f\nluajit_ratio_q1 %.3f\nluajit_ratio_q3 %.3f\nluajit_over_raw %.3f"):format(
    med, quantile(ratio, 0.25), quantile(ratio, 0.75), quantile(over_raw, 0.5)))
  return
end
print(("LuaJIT binding (%s, JIT %s): thread CPU ns per call, medians of %d rounds of %d calls"):format(
  jit.version, jit.status() and "on" or "off", rounds, iters))
print(("   ffi call of a C no-op                    %8.2f"):format(noop))
print(("   ffi call of idlelock_touch (bare)        %8.1f"):format(raw_touch))
print(("   lock:touch()                             %8.1f   %.2fx the no-op (%.2f..%.2f)"):format(
  touch, med, quantile(ratio, 0.25), quantile(ratio, 0.75)))
local over = quantile(over_raw, 0.5)
print(("   the binding over a bare ffi idlelock_touch: %.2fx; goal <= 1.2x  %s"):format(
  over, over <= 1.2 and "met" or "not met"))
