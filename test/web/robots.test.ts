import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RobotsData } from '../../registry/web/schemas/robots-data.ts'
import { parseRobots } from '../../plugins/web/robots/robots-parse.ts'
import type { WebWorld } from './web-world.ts'
import { startWebWorld } from './web-world.ts'

let w: WebWorld
beforeAll(async () => {
  w = await startWebWorld()
  const text = { 'content-type': 'text/plain; charset=utf-8' }
  w.web.route('https://robots.web.test/robots.txt', {
    headers: text,
    body: [
      '\uFEFF# robots for robots.web.test',
      'User-agent: Googlebot',
      'User-agent: bingbot',
      'Disallow: /search',
      'Allow: /search/about',
      '',
      'User-agent: *',
      'Disallow: /admin/ # staff only',
      'Disallow: /*.pdf$',
      'Crawl-delay: 2',
      '',
      `Sitemap: https://robots.web.test:${w.web.httpsPort}/sitemap.xml`,
      'Sitemap: https://robots.web.test/news-sitemap.xml',
    ].join('\r\n'),
  })
  w.web.route('https://robots-bad.web.test/robots.txt', {
    headers: { 'content-type': 'application/octet-stream' },
    body: [
      'Disallow: /orphan',
      'User-agent: Googlebot/2.1',
      'Dissallow: /typo',
      'Disallow: private',
      'this line has no colon',
      'Sitemap: /relative.xml',
      'Host: robots-bad.web.test',
      'User-agent: *',
      'Disallow: /',
      'User-agent: googlebot/2.1',
      'Disallow: /x',
    ].join('\n'),
  })
  w.web.route('https://robots-5xx.web.test/robots.txt', { status: 503, body: 'down' })
  w.web.route('https://robots-redirect.web.test/robots.txt', { status: 301, headers: { location: '/real-robots.txt' } })
  w.web.route('https://robots-redirect.web.test/real-robots.txt', { headers: text, body: 'User-agent: *\nDisallow:\n' })
  w.web.route('https://html.web.test/robots.txt', { headers: { 'content-type': 'text/html' }, body: '<!doctype html><h1>Page not found</h1>' })
  w.web.route('https://big.web.test/robots.txt', { headers: text, body: `User-agent: *\n${'Disallow: /a-very-long-path-to-fill-the-file\n'.repeat(15_000)}` })
  for (let i = 0; i < 8; i++) w.web.route(`https://many.web.test/robots.txt${i ? `?${i}` : ''}`, { status: 302, headers: { location: `/robots.txt?${i + 1}` } })
})
afterAll(async () => {
  await w.close()
})

const robots = async (host: string) => {
  const res = await w.t.json(`/api/web/robots/${encodeURIComponent(host)}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  expect(RobotsData.safeParse(res.body.data).success).toBe(true)
  return res.body.data
}

describe('/api/web/robots', () => {
  it('parses groups (several user-agents share one), rules with lines, crawl-delay and sitemaps', async () => {
    const d = await robots(w.web.https('robots.web.test'))
    expect(d).toMatchObject({ availability: 'found', access: 'rules', status: 200, url: `https://robots.web.test:${w.web.httpsPort}/robots.txt`, all_disallowed: false, truncated: false })
    expect(d.groups).toEqual([
      {
        user_agents: ['Googlebot', 'bingbot'],
        rules: [
          { type: 'disallow', path: '/search', line: 4 },
          { type: 'allow', path: '/search/about', line: 5 },
        ],
        crawl_delay: null,
        line: 2,
      },
      {
        user_agents: ['*'],
        rules: [
          { type: 'disallow', path: '/admin/', line: 8 },
          { type: 'disallow', path: '/*.pdf$', line: 9 },
        ],
        crawl_delay: 2,
        line: 7,
      },
    ])
    expect(d.sitemaps.map((s: { url: string }) => s.url)).toEqual([`https://robots.web.test:${w.web.httpsPort}/sitemap.xml`, 'https://robots.web.test/news-sitemap.xml'])
    expect(d.problems).toEqual([])
  })

  it('lists syntax problems with their lines', async () => {
    const d = await robots(w.web.https('robots-bad.web.test'))
    const messages = d.problems.map((p: { line: number | null; message: string }) => `${p.line}: ${p.message}`)
    expect(messages.join('\n')).toMatchInlineSnapshot(`
      "null: Content-Type is application/octet-stream; robots.txt should be text/plain
      1: disallow before any user-agent line: it belongs to no group and is ignored
      2: user-agent "Googlebot/2.1" is not a product token (letters, "_" and "-"); crawlers match their name against it, so a version or URL never matches
      3: unknown key "dissallow" — did you mean "disallow"? Crawlers ignore the line
      4: disallow path "private" does not start with "/"; it matches no URL path
      5: no ":" — not a "key: value" line ("this line has no colon")
      6: sitemap "/relative.xml" is not an absolute http(s) URL
      7: "host" is not part of RFC 9309; most crawlers ignore it
      10: user-agent "googlebot/2.1" is not a product token (letters, "_" and "-"); crawlers match their name against it, so a version or URL never matches
      null: user-agent googlebot/2.1 has 2 groups; crawlers combine their rules (RFC 9309 §2.2.1)"
    `)
    expect(d.all_disallowed).toBe(true)
    expect(d.other_records).toEqual([
      { name: 'dissallow', value: '/typo', line: 3 },
      { name: 'host', value: 'robots-bad.web.test', line: 7 },
    ])
  })

  it('status decides when there is no file: 5xx disallows everything, 4xx allows everything', async () => {
    expect(await robots(w.web.https('robots-5xx.web.test'))).toMatchObject({ status: 503, availability: 'unreachable', access: 'disallow_all', groups: [] })
    expect(await robots(w.web.https('robots-404.web.test'))).toMatchObject({ status: 404, availability: 'unavailable', access: 'allow_all' })
  })

  it('redirects are followed (up to five); more is "unavailable"', async () => {
    const d = await robots(w.web.https('robots-redirect.web.test'))
    expect(d).toMatchObject({ final_url: `https://robots-redirect.web.test:${w.web.httpsPort}/real-robots.txt`, availability: 'found' })
    expect(d.groups[0].rules).toEqual([{ type: 'disallow', path: '', line: 2 }])
    expect(d.redirects).toHaveLength(1)
    const before = w.web.requests.length
    const many = await robots(w.web.https('many.web.test'))
    expect(many).toMatchObject({ availability: 'unavailable', access: 'allow_all', stopped: 'too_many_redirects' })
    // the first request and five redirects; the last response is the one shown
    expect(w.web.requests.length - before).toBe(6)
    expect(many.redirects).toHaveLength(5)
  })

  it('an HTML page served as robots.txt is called out', async () => {
    const d = await robots(w.web.https('html.web.test'))
    expect(d.problems[0].message).toMatch(/looks like an HTML page/)
  })

  it('only 500 KiB are parsed; the rest is flagged', async () => {
    const d = await robots(w.web.https('big.web.test'))
    expect(d.truncated).toBe(true)
    expect(d.size_bytes).toBe(500 * 1024 + 1)
    expect(d.problems.at(-1).message).toMatch(/500 KiB/)
  })

  it('a path in host is ignored: robots.txt lives at the origin', async () => {
    const d = await robots(`https://robots.web.test:${w.web.httpsPort}/some/page?x=1`)
    expect(d.url).toBe(`https://robots.web.test:${w.web.httpsPort}/robots.txt`)
  })
})

describe('parseRobots', () => {
  it('a user-agent line after rules starts a new group; blank lines and comments do not', () => {
    const p = parseRobots('user-agent: a\n\n# c\ndisallow: /x\nuser-agent: b\nallow: /\n')
    expect(p.groups.map((g) => g.user_agents)).toEqual([['a'], ['b']])
  })
})
