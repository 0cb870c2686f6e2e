// Which regional registry answered. The port43 whois server names it reliably
// (it is data, not where we connected); the RDAP host is the fallback.

const RIRS: ReadonlyArray<[RegExp, string]> = [
  [/(^|\.)arin\.net$/, 'ARIN'],
  [/(^|\.)ripe\.net$/, 'RIPE NCC'],
  [/(^|\.)apnic\.net$/, 'APNIC'],
  [/(^|\.)lacnic\.net$/, 'LACNIC'],
  [/(^|\.)afrinic\.net$/, 'AFRINIC'],
]

function rirOfHost(host: string): string | null {
  const h = host.toLowerCase()
  return RIRS.find(([re]) => re.test(h))?.[1] ?? null
}

export function registryName(port43: string | null, url: string): string | null {
  if (port43) {
    const byWhois = rirOfHost(port43)
    if (byWhois) return byWhois
  }
  try {
    return rirOfHost(new URL(url).hostname)
  } catch {
    return null
  }
}
