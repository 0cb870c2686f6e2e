import { expect } from 'vitest'
import type { TestApp } from './app.ts'

/**
 * A reader of one endpoint's answers that checks each is a 200 whose data is
 * exactly the documented shape: zod's parse() drops undocumented members, so
 * equal means nothing more and nothing less than the data schema.
 */
export function documentedAnswer(app: () => TestApp, endpointName: string) {
  return async (path: string) => {
    const res = await app().json(path)
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200)
    const schema = app().endpoints.find((e) => e.name === endpointName)!.data
    expect(schema.parse(res.body.data)).toEqual(res.body.data)
    return res
  }
}

/** The max-age of a response's Cache-Control, -1 when it has none. */
export const maxAge = (headers: Headers): number => Number(/max-age=(\d+)/.exec(headers.get('cache-control') ?? '')?.[1] ?? -1)
