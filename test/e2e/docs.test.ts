import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'
import { startExampleService } from '../../scripts/docs-examples.ts'

// The API reference in a real browser: Debian's chromium (installed by .ci/run),
// driven by playwright-core, loads /api/docs from a real server on 127.0.0.1,
// lists every endpoint by tag, and runs one "try it" request against that server.
// Screenshots go to test/artifacts/ (gitignored).

const CHROMIUM = '/usr/bin/chromium'
const ARTIFACTS = join(ROOT, 'test', 'artifacts')

// Headless, and nothing that phones home. The resolver rule makes every host name
// but 127.0.0.1 unresolvable for the browser; a route below aborts (and records)
// any request that still aims elsewhere. playwright gives each launch a fresh
// temporary --user-data-dir.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
]

let world: Awaited<ReturnType<typeof startExampleService>>
let browser: Browser
let page: Page
const requested: string[] = []
const refused: string[] = []
const problems: string[] = []

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run installs it)`)
  world = await startExampleService()
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 30_000 })
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } })
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url())
    if (url.hostname === '127.0.0.1') {
      requested.push(`${route.request().method()} ${url.pathname}`)
      return route.continue()
    }
    refused.push(url.href)
    return route.abort('blockedbyclient')
  })
  context.setDefaultTimeout(60_000)
  page = await context.newPage()
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(`console ${message.type()}: ${message.text()}`)
  })
  mkdirSync(ARTIFACTS, { recursive: true })
}, 60_000)

/** Waits for a locator to be visible; the error names what was missing. */
async function visible(locator: Locator, what: string, timeout = 30_000): Promise<void> {
  try {
    await locator.waitFor({ state: 'visible', timeout })
  } catch (error) {
    throw new Error(`not visible: ${what} (${(error as Error).message.split('\n')[0]})`)
  }
}

afterAll(async () => {
  await browser?.close()
  await world?.close()
})

describe('/api/docs in headless Chromium', () => {
  it('renders the reference: every tag in the sidebar, and each endpoint exactly once in its tag', async () => {
    await page.goto(new URL('/api/docs', world.base).href)
    await expect.poll(() => page.title(), { timeout: 30_000 }).toMatch(/infralens/)
    await visible(page.getByRole('heading', { name: 'infralens', level: 1 }), 'the title', 60_000)
    await page.screenshot({ path: join(ARTIFACTS, 'docs-home.png') })

    const sidebar = page.getByRole('navigation', { name: /Sidebar/ })
    const tags = [...new Set(world.service.endpoints.map((e) => e.tag))].sort()
    for (const tag of tags) await visible(sidebar.getByRole('button', { name: new RegExp(`^${tag} (Open|Close) Group$`) }), `tag ${tag}`)
    // Every tag is opened (the first one is open from the start) and each endpoint
    // must be in it exactly once: one also routed with ?domain= included.
    for (const tag of tags) {
      const group = sidebar.getByRole('button', { name: new RegExp(`^${tag} (Open|Close) Group$`) })
      if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click()
      const summaries = world.service.endpoints.filter((e) => e.tag === tag).map((e) => e.summary)
      // An entry is its summary and then the method: no summary may begin another one.
      for (const a of summaries) for (const b of summaries) if (a !== b) expect(b.startsWith(a), `${a} / ${b}`).toBe(false)
      const counts = () =>
        page.evaluate((expected) => {
          const normal = (text: string) => text.replace(/\s+/g, ' ').trim()
          const entries = [...(document.querySelector('[aria-label^="Sidebar"]')?.querySelectorAll('button') ?? [])].map((b) => normal(b.innerText))
          return Object.fromEntries(expected.map((summary) => [summary, entries.filter((entry) => entry.startsWith(normal(summary))).length]))
        }, summaries)
      await expect
        .poll(async () => Object.entries(await counts()).filter(([, n]) => n === 0).map(([summary]) => summary), { timeout: 60_000, interval: 500, message: `endpoints missing under ${tag}` })
        .toEqual([])
      // Each endpoint once: an endpoint also routed with a query parameter (?domain=)
      // is one operation, not a second entry.
      expect(Object.entries(await counts()).filter(([, n]) => n !== 1), `entries under ${tag} that are not there exactly once`).toEqual([])
    }
  }, 180_000)

  it('shows an endpoint with its parameters, query controls and the recorded example answer', async () => {
    await page.getByRole('navigation', { name: /Sidebar/ }).getByRole('button', { name: 'One UUID, version 4 (random) or 7 (time-ordered) HTTP Method: GET', exact: true }).click()
    const section = page.locator('section[id$="/GET/api/uuid"]')
    await visible(section, 'the /api/uuid operation', 60_000)
    // Its own parameter, then query controls, each an entry of the parameter list.
    for (const name of ['version', 'format', 'fields', 'compact']) await visible(section.locator(`[id$=".query.${name}"]`), `parameter ${name}`)
    // One UUID is no list: the page offers no paging (the server would refuse it).
    for (const name of ['limit', 'offset', 'sort']) expect(await section.locator(`[id$=".query.${name}"]`).count(), `parameter ${name}`).toBe(0)
    // The example answer (plugins/meta/examples.json) is an envelope.
    await visible(section.getByText('"utilities.uuid"').filter({ visible: true }).first(), 'example answer')
    await visible(section.getByText('"request_id"').filter({ visible: true }).first(), 'example answer')
  }, 120_000)

  it('"try it": sends GET /api/uuid to this server and shows the envelope', async () => {
    await page.getByRole('button', { name: /Test Request\s*\(get \/api\/uuid\)/ }).click()
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/uuid', { timeout: 60_000 })
    answered.catch(() => undefined) // reported by the await below, not as an unhandled rejection
    await page.getByRole('button', { name: /^Send\b/ }).first().click()
    const response = await answered
    expect(response.status()).toBe(200)
    const envelope = (await response.json()) as { success: boolean; data: { uuid: string }; meta: { endpoint: string }; request_id: string }
    expect(envelope.success).toBe(true)
    expect(envelope.meta.endpoint).toBe('utilities.uuid')
    // What the page shows is that answer.
    await visible(page.getByText('200 OK').first(), 'status of the answer')
    await visible(page.getByText(`"${envelope.data.uuid}"`).first(), 'the UUID in the shown answer')
    await visible(page.getByText(`"${envelope.request_id}"`).first(), 'the request id in the shown answer')
    await page.screenshot({ path: join(ARTIFACTS, 'docs.png') })
  }, 120_000)

  it('loaded everything from this server and nothing from anywhere else, without errors', () => {
    expect(refused).toEqual([])
    expect(problems).toEqual([])
    expect(requested).toEqual(expect.arrayContaining(['GET /api/docs', 'GET /api/docs/scalar.js', 'GET /api/openapi.json', 'GET /api/uuid']))
  })
})
