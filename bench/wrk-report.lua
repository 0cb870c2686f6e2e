-- wrk's summary as one JSON line for bench/load-server.ts. No response() hook:
-- with one, wrk hands every answer to Lua and becomes the bottleneck. wrk counts
-- answers with a status of 300 or more in errors.status.

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('REPORT {"rps":%.1f,"p50_us":%d,"p99_us":%d,"non2xx":%d,"errors":%d}\n',
    summary.requests / (summary.duration / 1e6), latency:percentile(50), latency:percentile(99), e.status, e.connect + e.read + e.write + e.timeout))
end
