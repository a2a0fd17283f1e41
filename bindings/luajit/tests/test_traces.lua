-- SPDX-License-Identifier: MIT
-- Every shipped trace replayed through the LuaJIT API (replay.lua) gives
-- exactly what the C replay tool gives: the same line for every event, the
-- same expectations held, the same exit status (issue 20). One test per
-- trace; ends with "N passed, N failed".
--
--   luajit test_traces.lua C_TOOL TRACES_FOLDER
--   (IDLELOCK_LIBRARY and LUA_PATH set by `make test-luajit`)

local tool, folder = arg[1], arg[2]
local passed, failed = 0, 0

local function run(command)
  local p = assert(io.popen(command .. "; echo \"exit $?\""))
  local output = p:read("*a")
  p:close()
  local body, status = output:match("^(.*)exit (%d+)\n$")
  return body, tonumber(status)
end

local function quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local traces = {}
do
  local p = assert(io.popen("ls '" .. folder .. "'/*.trace"))
  for line in p:lines() do traces[#traces + 1] = line end
  p:close()
end

for _, trace in ipairs(traces) do
  local c_out, c_rc = run(quote(tool) .. " " .. quote(trace) .. " 2>&1")
  local lua_out, lua_rc = run(quote(arg[-1]) .. " replay.lua " .. quote(trace) .. " 2>&1")
  local name = trace:match("([^/]+)$")
  if c_rc ~= 0 then
    failed = failed + 1
    print("FAIL " .. name .. ": the C tool itself failed (" .. tostring(c_rc) .. "):\n" .. c_out)
  elseif lua_out ~= c_out or lua_rc ~= c_rc then
    failed = failed + 1
    print("FAIL " .. name .. ": the LuaJIT API (exit " .. tostring(lua_rc) .. ") differs from the C tool (exit " ..
          tostring(c_rc) .. ")")
    local a, b = {}, {}
    for l in c_out:gmatch("[^\n]*") do a[#a + 1] = l end
    for l in lua_out:gmatch("[^\n]*") do b[#b + 1] = l end
    for k = 1, math.max(#a, #b) do
      if a[k] ~= b[k] then print("  C:      " .. tostring(a[k])); print("  LuaJIT: " .. tostring(b[k])); break end
    end
  else
    passed = passed + 1
  end
end
if #traces < 27 then failed = failed + 1; print("FAIL fewer traces than shipped: " .. #traces) else passed = passed + 1 end
print(passed .. " passed, " .. failed .. " failed")
os.exit(failed == 0 and 0 or 1)
