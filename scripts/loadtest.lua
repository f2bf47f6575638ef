-- Mixed traffic for scripts/loadtest.ts (wrk -s scripts/loadtest.lua URL -- PHOTOS COLD SEED THREADS MODE BIG).
-- MODE "pages": page requests only, so that this wrk's latency figures are the pages' own,
-- measured inside the load; MODE "media": everything else (thumbnails, EXIF, ranges,
-- passwords). scripts/loadtest.ts runs one wrk of each at the same time.
-- Each thread builds its own requests; responses are counted by status class (503 apart,
-- with or without Retry-After) and by the Location of redirects, so the password lockout
-- can be checked under concurrency. wrk cannot tie a response to its request, so what a
-- response was is read from the response itself.

local threads = {}

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

local photos, cold, seed, mode, big
local cold_next, cold_end
local counters = { "sent_page", "sent_thumb", "sent_cold", "sent_exif", "sent_range", "sent_unlock", "sent_locked",
  "s2xx", "s3xx", "s4xx", "s5xx", "s503", "s503_retry", "wrong_password", "rate_limited", "other_redirect" }

function init(args)
  photos = tonumber(args[1]) or 30
  cold = tonumber(args[2]) or 1000
  seed = tonumber(args[3]) or 1
  local nthreads = tonumber(args[4]) or 1
  mode = args[5] or "media"
  big = tonumber(args[6]) or 6
  for _, name in ipairs(counters) do _G[name] = 0 end
  -- Each thread walks its own slice of the cold originals: every cold request is a miss.
  local per = math.floor(cold / nthreads)
  cold_next = id * per
  cold_end = cold_next + per
  math.randomseed(seed + id * 7919)
end

local function photo()
  return string.format("IMG_%04d.jpg", math.random(1, photos))
end

local function get(path, headers)
  return wrk.format("GET", path, headers)
end

local pages = { "/", "/home", "/photos", "/photos/load", "/photos/load/public", "/photos/load/public",
  "/photos/load/cold?page=2", "/photos/load/cold?page=7", "/photos/load/private" }

local function page()
  sent_page = sent_page + 1
  return get(pages[math.random(1, #pages)])
end

local function big_photo()
  return string.format("BIG_%02d.jpg", math.random(1, big))
end

function request()
  if mode == "pages" then return page() end
  local r = math.random(1, 100)
  if r <= 40 then
    -- Thumbnails: cached small ones of the public album, interleaved with cold medium and
    -- large ones of 24 MP photos (each name once: every one is a cache miss).
    if r <= 30 or cold_next >= cold_end then
      sent_thumb = sent_thumb + 1
      return get("/api/thumbnail?path=load%2Fpublic%2F" .. photo() .. "&size=small")
    end
    sent_cold = sent_cold + 1
    local name = string.format("C_%05d.jpg", cold_next)
    cold_next = cold_next + 1
    local size = (cold_next % 2 == 0) and "medium" or "large"
    return get("/api/thumbnail?path=load%2Fcold%2F" .. name .. "&size=" .. size)
  elseif r <= 62 then
    sent_exif = sent_exif + 1
    return get("/api/exif?path=load%2Fbig%2F" .. big_photo())
  elseif r <= 84 then
    sent_range = sent_range + 1
    local from = math.random(0, 4000000)
    return get("/albums/load/big/" .. big_photo(), { Range = string.format("bytes=%d-%d", from, from + 262143) })
  elseif r <= 88 then
    sent_locked = sent_locked + 1
    return get("/api/thumbnail?path=load%2Fprivate%2FIMG_0001.jpg&size=small")
  else
    sent_unlock = sent_unlock + 1
    local body = "albumPath=load%2Fprivate&password=wrong-" .. math.random(1, 1000000) .. "&returnUrl=%2Fphotos%2Fload%2Fprivate"
    return wrk.format("POST", "/api/unlock", { ["Content-Type"] = "application/x-www-form-urlencoded" }, body)
  end
end

local function header(headers, name)
  for k, v in pairs(headers) do
    if string.lower(k) == name then return v end
  end
  return nil
end

function response(status, headers, body)
  if status >= 500 then
    if status == 503 then
      s503 = s503 + 1
      if header(headers, "retry-after") then s503_retry = s503_retry + 1 end
    else
      s5xx = s5xx + 1
    end
  elseif status >= 400 then
    s4xx = s4xx + 1
  elseif status >= 300 then
    s3xx = s3xx + 1
    local location = header(headers, "location") or ""
    if string.find(location, "error=wrong-password", 1, true) then
      wrong_password = wrong_password + 1
    elseif string.find(location, "error=rate-limited", 1, true) then
      rate_limited = rate_limited + 1
    else
      other_redirect = other_redirect + 1
    end
  else
    s2xx = s2xx + 1
  end
end

function done(summary, latency, requests)
  local totals = {}
  for _, name in ipairs(counters) do totals[name] = 0 end
  for _, thread in ipairs(threads) do
    for _, name in ipairs(counters) do totals[name] = totals[name] + (thread:get(name) or 0) end
  end
  local parts = {}
  for _, name in ipairs(counters) do table.insert(parts, name .. "=" .. totals[name]) end
  table.insert(parts, "latency_p50_us=" .. latency:percentile(50))
  table.insert(parts, "latency_p99_us=" .. latency:percentile(99))
  table.insert(parts, "latency_max_us=" .. latency.max)
  table.insert(parts, "errors_timeout=" .. summary.errors.timeout)
  table.insert(parts, "errors_connect=" .. summary.errors.connect)
  table.insert(parts, "errors_read=" .. summary.errors.read)
  io.write("LOADTEST " .. table.concat(parts, " ") .. "\n")
end
