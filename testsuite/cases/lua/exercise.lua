-- exercise.lua - a deterministic workout for the Lua interpreter (the lua test
-- case): tables, strings, closures, coroutines, string.format, gsub, errors with
-- pcall, sort, integer/float math, goto, metatables, load/dump, utf8, to-be-closed
-- variables, finalizers.  Prints only values that do not depend on addresses or
-- time; ends with os.exit(3) so the exit status is checked too.

local out = {}
local function say(...)
  local t = table.pack(...)
  for i = 1, t.n do t[i] = tostring(t[i]) end
  print(table.concat(t, " "))
end

-- integers and floats
do
  local a, b = 7, 3
  say("int", a + b, a - b, a * b, a // b, a % b, -a // b, -a % b, a / b)
  say("float", 7.5 // 2, 7.5 % 2, 2^10, 10 / 4, 3.0 == 3, math.type(3.0), math.type(3))
  say("bits", a & b, a | b, a ~ b, ~a, a << 4, a >> 1, -1 >> 60)
  say("wrap", math.maxinteger + 1 == math.mininteger, math.mininteger // -1)
  say("conv", math.tointeger(5.0), math.tointeger(5.5), 3 | 0, tonumber("0x10"),
      tonumber("  12  "), tonumber("1e2"), tonumber("z", 36), tonumber("10", 2),
      tonumber("abc"), tostring(1e100), tostring(-0.0), 1/0, -1/0)
  say("math", math.floor(-3.5), math.ceil(-3.5), math.abs(-4), math.max(3, 9, 2),
      math.min(3, 9, 2), math.fmod(7, 3), math.fmod(-7, 3), math.sqrt(16),
      math.ult(1, -1), string.format("%.4f", math.sin(1)), math.huge > 0)
  local s = 0
  for i = 1, 100 do s = s + i * i end
  for x = 1.0, 2.0, 0.25 do s = s + x end
  for i = 10, 1, -3 do s = s - i end
  say("loops", s)
end

-- strings
do
  local s = "The quick brown fox jumps over the lazy dog"
  say("len", #s, s:upper(), s:lower():sub(5, 9), s:sub(-3), s:rep(2, "|"):len())
  say("find", s:find("quick"), s:find("o", 15, true), s:find("(%a+) (%a+)$"))
  say("match", s:match("(%a+) fox"), s:match("^(%w+)"), ("key=val"):match("(%w+)=(%w+)"))
  local words = {}
  for w in s:gmatch("%a+") do words[#words + 1] = w end
  say("gmatch", #words, words[4])
  say("gsub", s:gsub("o", "0"))
  say("gsub2", s:gsub("(%w+)", "<%1>", 3))
  say("gsub3", ("hello world"):gsub("%w+", { hello = "HI", world = false }))
  say("gsub4", ("abc"):gsub("%w", function(c) return c:byte() .. "," end))
  say("gsub5", ("x = $x, y = $y"):gsub("%$(%w+)", { x = 1, y = 2 }))
  say("fmt", string.format("%5d|%-5d|%05.1f|%x|%X|%o|%e|%g|%g", 42, 42, 3.14159, 255, 255, 8, 12345.678, 0.0001, 1e20))
  say("fmt2", string.format("%q", "a\nb\"c\0"), string.format("%s %10.3s|", "xyz", "abcdef"),
      string.format("%c%c%c", 76, 117, 97), string.format("%%"), string.format("%q", 1/3))
  say("fmt3", string.format("%i %u", -5, 5), string.format("%a", 1.0))
  say("bytes", s:byte(1, 3), string.char(72, 105), ("abc"):reverse())
  say("cmp", "a" < "b", "abc" < "abd", "Z" < "a", "" < "a", "a" == "a")
  say("concat", 1 .. 2, "x" .. 1.5, table.concat({ 1, 2, 3 }, ", "), table.concat({}, "x"))
  local packed = string.pack("<i4 d s1", 100, 2.5, "hi")
  say("pack", #packed, string.unpack("<i4 d s1", packed))
  say("utf8", utf8.char(72, 228, 8364, 128512), utf8.len("häll€"), utf8.codepoint("€"))
  for p, c in utf8.codes("aä€") do say("code", p, c) end
  local parts = {}
  for k, v in string.gmatch("a=1, b=2, c=3", "(%w+)=(%w+)") do parts[#parts + 1] = k .. v end
  say("pairs", table.concat(parts, ";"))
  say("balance", ("f(a(b)c)d"):match("%b()"), ("  trim  "):match("^%s*(.-)%s*$") .. "|")
  say("frontier", ("THE (quick) fox"):gsub("%f[%a]%a+", "W"))
end

-- tables and sort
do
  local t = {}
  for i = 1, 200 do t[i] = (i * 7919) % 211 end
  table.sort(t)
  say("sort", t[1], t[2], t[100], t[200])
  table.sort(t, function(x, y) return x > y end)
  say("sortdesc", t[1], t[200])
  local names = { "pear", "apple", "fig", "banana", "cherry", "date" }
  table.sort(names, function(a, b) return #a < #b or (#a == #b and a < b) end)
  say("names", table.concat(names, ","))
  table.insert(names, 1, "kiwi"); table.insert(names, "lime")
  say("insert", table.remove(names), table.remove(names, 1), #names)
  say("move", table.concat(table.move({ 1, 2, 3 }, 1, 3, 2, { 9 }), ","))
  say("unpack", table.unpack({ 1, 2, 3 }), select("#", table.unpack({}, 1, 3)), select(-1, 1, 2, 3))
  local h = {}
  for i = 1, 1000 do h["k" .. i] = i; h[i] = i end
  for i = 1, 1000, 2 do h["k" .. i] = nil end
  local n, sum = 0, 0
  for k, v in pairs(h) do n = n + 1; sum = sum + v end
  say("hash", n, sum, #h, next({}), rawlen({ 1, 2 }), rawequal(h, h))
  local ipairs_sum = 0
  for _, v in ipairs({ 5, 6, 7, nil, 9 }) do ipairs_sum = ipairs_sum + v end
  say("ipairs", ipairs_sum)
end

-- closures and varargs
do
  local function counter()
    local c = 0
    return function(step) c = c + (step or 1); return c end
  end
  local c1, c2 = counter(), counter()
  c1(); c1(5); c2()
  say("closure", c1(), c2())
  local function va(...)
    local a, b = ...
    return select("#", ...), a, b, ...
  end
  say("vararg", va(1, nil, 3))
  local fns = {}
  for i = 1, 5 do fns[i] = function() return i * i end end
  say("upvals", fns[2](), fns[5]())
  local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
  say("fib", fib(20))
  local function tail(n, acc) if n == 0 then return acc end return tail(n - 1, acc + n) end
  say("tail", tail(10000, 0))
end

-- metatables
do
  local V = {}
  V.__index = V
  local function vec(x, y) return setmetatable({ x = x, y = y }, V) end
  V.__add = function(a, b) return vec(a.x + b.x, a.y + b.y) end
  V.__eq = function(a, b) return a.x == b.x and a.y == b.y end
  V.__lt = function(a, b) return a:len2() < b:len2() end
  V.__le = function(a, b) return a:len2() <= b:len2() end
  V.__tostring = function(v) return "(" .. v.x .. "," .. v.y .. ")" end
  V.__len = function(v) return 2 end
  V.__call = function(v, k) return v.x * k end
  V.__concat = function(a, b) return tostring(a) .. "~" .. tostring(b) end
  V.__unm = function(a) return vec(-a.x, -a.y) end
  function V:len2() return self.x * self.x + self.y * self.y end
  local a, b = vec(1, 2), vec(3, 4)
  say("meta", tostring(a + b), a == vec(1, 2), a < b, b <= a, #a, a(10), a .. b, tostring(-a))
  local log = {}
  local proxy = setmetatable({}, {
    __index = function(t, k) log[#log + 1] = "get " .. k; return k .. "!" end,
    __newindex = function(t, k, v) log[#log + 1] = "set " .. k; rawset(t, k, v) end,
  })
  local _ = proxy.foo
  proxy.bar = 1
  proxy.bar = 2
  say("proxy", proxy.bar, table.concat(log, ","))
  local weak = setmetatable({}, { __mode = "v" })
  weak.x = {}
  weak.y = "kept"
  collectgarbage()
  say("weak", weak.x, weak.y)
  local gcd = {}
  do
    local x <close> = setmetatable({}, { __close = function() gcd[#gcd + 1] = "closed" end })
    setmetatable({}, { __gc = function() gcd[#gcd + 1] = "gc" end })
  end
  collectgarbage(); collectgarbage()
  say("close", table.concat(gcd, ","))
end

-- errors and pcall
do
  say("pcall", pcall(error, "boom"))
  say("pcall2", select(2, pcall(error, { code = 7 })).code)
  local ok, e = pcall(error, setmetatable({}, { __tostring = function() return "obj" end }))
  say("pcall3", ok, tostring(e))
  say("pcall4", pcall(function() local x = nil; return x.y end))
  say("pcall5", pcall(function() return 1 + {} end))
  say("pcall6", pcall(function() return #nil end))
  say("pcall7", pcall(string.rep))
  say("pcall8", pcall(function() error("lvl2", 2) end))
  say("pcall9", select(2, pcall(function() return ("x"):bad() end)))
  say("xpcall", xpcall(function() error("deep") end, function(m) return "handled: " .. m end))
  say("nested", pcall(pcall, error, "e"))
  say("errnum", pcall(error, 42))
  local ok2, tb = xpcall(function() local t = nil; return t[1] end, debug.traceback)
  say("traceback", ok2, (tb:gsub("\n.*", "")))
  say("tostr", pcall(tostring))
  say("assert", pcall(assert, false, "asserted"), pcall(assert, 1 == 1, "fine"))
  say("arith", pcall(function() return 1 // 0 end), pcall(function() return 1 % 0 end), 1.0 // 0)
  say("cmperr", pcall(function() return {} < {} end))
  say("overflow", pcall(string.rep, "x", -1))
  say("stack", pcall(function() local function r() return 1 + r() end return r() end))
end

-- coroutines
do
  local function gen(n)
    return coroutine.wrap(function()
      for i = 1, n do coroutine.yield(i) end
      return "done"
    end)
  end
  local g = gen(3)
  say("wrap", g(), g(), g(), g())
  local co = coroutine.create(function(a, b)
    local c = coroutine.yield(a + b)
    local d, e = coroutine.yield(c * 2)
    return d + e
  end)
  say("co", coroutine.resume(co, 1, 2))
  say("co", coroutine.resume(co, 10))
  say("co", coroutine.resume(co, 3, 4))
  say("co", coroutine.resume(co), coroutine.status(co))
  local bad = coroutine.create(function() error("inside") end)
  say("coerr", coroutine.resume(bad))
  say("costatus", coroutine.status(bad), coroutine.isyieldable(), select(2, coroutine.running()))
  local ok, msg = pcall(coroutine.wrap(function() error("wrapped") end))
  say("wraperr", ok, msg)
  local closing = coroutine.create(function() coroutine.yield() end)
  coroutine.resume(closing)
  say("close", coroutine.close(closing), coroutine.status(closing))
  -- producer/consumer
  local prod = coroutine.wrap(function()
    for _, w in ipairs({ "alpha", "beta", "gamma" }) do coroutine.yield(w) end
  end)
  local acc = {}
  for w in prod do acc[#acc + 1] = w:upper() end
  say("pipe", table.concat(acc, "+"))
  -- yield across pcall
  local cy = coroutine.wrap(function()
    local ok, v = pcall(function() return coroutine.yield("in pcall") .. "!" end)
    return tostring(ok) .. " " .. v
  end)
  say("ypcall", cy(), cy("resumed"))
  -- sort with a yielding comparator is an error
  say("ysort", coroutine.wrap(function()
    return pcall(table.sort, { 3, 1, 2 }, function(a, b) coroutine.yield() return a < b end)
  end)())
end

-- goto
do
  local i, found = 1, nil
  ::top::
  if i <= 10 then
    if i * i > 30 then found = i; goto out end
    i = i + 1
    goto top
  end
  ::out::
  local odd = {}
  for k = 1, 10 do
    if k % 2 == 0 then goto continue end
    odd[#odd + 1] = k
    ::continue::
  end
  say("goto", found, table.concat(odd, ","))
end

-- load, dump, environments
do
  local f = load("local a, b = ... return a * b + 1")
  say("load", f(6, 7))
  local bin = string.dump(f)
  say("dump", load(bin, "bin", "b")(2, 3))
  say("loaderr", load("return +"))
  local env = { x = 5 }
  local g = load("y = x * 2; return y", "env", "t", env)
  say("env", g(), env.y)
  local src = {}
  for i = 1, 50 do
    src[#src + 1] = string.format("local v%d = %d\nif v%d %% 3 == 0 then n = n + v%d elseif v%d %% 3 == 1 then n = n - 1 else n = n * 1 end", i, i, i, i, i)
  end
  local chunk = load("local n = 0\n" .. table.concat(src, "\n") .. "\nreturn n")
  say("bigchunk", chunk())
  local pieces, k = { "return ", "1 ", "+ ", "2" }, 0
  say("reader", load(function() k = k + 1; return pieces[k] end)())
  say("while", (function()
    local n, steps = 27, 0
    while n ~= 1 do
      if n % 2 == 0 then n = n // 2 else n = 3 * n + 1 end
      steps = steps + 1
    end
    repeat steps = steps - 100 until steps < 0
    return steps
  end)())
end

-- a little workload so hot paths have large counts
do
  local words = {}
  for i = 1, 2000 do
    words[#words + 1] = string.format("w%03d", (i * 37) % 500)
  end
  local freq = {}
  for _, w in ipairs(words) do freq[w] = (freq[w] or 0) + 1 end
  local keys = {}
  for k in pairs(freq) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) if freq[a] ~= freq[b] then return freq[a] > freq[b] end return a < b end)
  say("freq", #keys, keys[1], freq[keys[1]], keys[#keys])
  local text = table.concat(words, " ")
  local count = select(2, text:gsub("w0%d%d", "%0"))
  say("text", #text, count)
end

io.write("bye\n")
io.stdout:flush()
os.exit(3)
