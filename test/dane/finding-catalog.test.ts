import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DANE_FINDINGS } from '../../registry/dns/schemas/dane-findings.ts'
import { ROOT } from '../../runtime/app.ts'

// docs/dns.md's DANE table and the catalog the answers' severities come from
// (registry/dns/schemas/dane-findings.ts) name the same ids with the same severities.

describe('DANE finding ids', () => {
  it('docs/dns.md lists every id of the catalog with its severity, and no other', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'dns.md'), 'utf8')
    const rows = [...doc.matchAll(/^\| `(dane\.[a-z_]+)` \| ([a-z]+) \|/gm)].map((m) => [m[1], m[2]])
    expect(rows.sort()).toEqual(Object.entries(DANE_FINDINGS).map(([id, f]) => [id, f.severity]).sort())
  })
})
