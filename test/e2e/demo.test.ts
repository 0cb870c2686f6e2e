import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'

// npm run demo (issue 19, item 7): the service on the loopback internet of the
// tests, so every endpoint can be tried with real answers and no internet. Each
// example the demo prints is sent as printed (its curl line, parsed), and each
// answers 200 (with a success envelope, where the endpoint has one); Ctrl-C stops the demo and its fakes.

interface Printed {
  method: string
  url: string
  contentType?: string
  body?: string
}

/** The curl lines the demo printed: `curl [-X POST] 'url' [-H 'content-type: x'] [--data '...']`. */
function curls(output: string): Printed[] {
  return output
    .split('\n')
    .filter((line) => line.trim().startsWith('curl '))
    .map((line) => {
      const quoted = [...line.matchAll(/'((?:[^']|'\\'')*)'/g)].map((m) => m[1]!.replaceAll("'\\''", "'"))
      const method = /-X (\w+)/.exec(line)?.[1] ?? 'GET'
      const contentType = quoted.find((q) => q.startsWith('content-type: '))?.slice('content-type: '.length)
      return { method, url: quoted[0]!, ...(contentType ? { contentType } : {}), ...(line.includes('--data ') ? { body: quoted.at(-1)! } : {}) }
    })
}

describe('npm run demo', () => {
  it('serves every endpoint from the loopback internet: each printed example answers 200; Ctrl-C stops it', async () => {
    const demo = spawn('npm', ['run', 'demo', '--silent'], { cwd: ROOT, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    demo.stdout!.on('data', (c: Buffer) => (out += c.toString()))
    demo.stderr!.on('data', (c: Buffer) => (out += c.toString()))
    const exited = new Promise<number | null>((resolve) => demo.once('exit', resolve))
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => {
          if (out.includes('Ctrl-C stops it.')) {
            clearInterval(timer)
            resolve()
          }
        }, 50)
        void exited.then((code) => {
          clearInterval(timer)
          reject(new Error(`demo exited ${code}: ${out}`))
        })
      })
      const examples = curls(out)
      expect(examples.length).toBeGreaterThan(50)
      const failed: string[] = []
      for (const e of examples) {
        const res = await fetch(e.url, { method: e.method, ...(e.contentType ? { headers: { 'content-type': e.contentType } } : {}), ...(e.body !== undefined ? { body: e.body } : {}) })
        const body = (await res.json()) as { success?: boolean }
        // Envelope-less documents (the OpenAPI document) have no success field.
        if (res.status !== 200 || ('success' in body && body.success !== true)) failed.push(`${e.method} ${e.url}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`)
      }
      expect(failed, failed.join("\n")).toEqual([])
      demo.kill('SIGINT')
      expect(await exited).toBe(0)
    } finally {
      // A failed run still stops the demo through npm (which forwards the signal to
      // it): a SIGKILL to npm alone would leave the demo and its fakes running.
      if (demo.exitCode === null) {
        demo.kill('SIGINT')
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))])
        if (demo.exitCode === null) demo.kill('SIGKILL')
      }
    }
  }, 180_000)
})
