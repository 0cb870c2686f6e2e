import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dsMatchesKey } from '../../plugins/dnssec/ds-digest.ts'
import { nameOf } from '../../plugins/dnssec/names.ts'
import { loadTrustAnchors, parseTrustAnchors, TrustAnchorError } from '../../plugins/dnssec/trust-anchors.ts'
import { ROOT_ANCHOR_DNSKEY, ROOT_ANCHOR_DS } from '../support/dnssec-fixtures.ts'

// KSK-2017 as BIND 9.18 ships it in /etc/bind/bind.keys (initial-key 20326).
const KSK_2017 = `. 172800 IN DNSKEY 257 3 8 (
  AwEAAaz/tAm8yTn4Mfeh5eyI96WSVexTBAvkMgJzkKTOiW1vkIbzxeF3
  +/4RgWOq7HrxRixHlFlExOLAJr5emLvN7SWXgnLh4+B5xQlNVz8Og8kv
  ArMtNROxVQuCaSnIDdD5LKyWbRd2n9WGe2R8PzgCmr3EgVLrjyBxWezF
  0jLHwVN8efS3rCj/EWgvIWgb9tarpVUDK/b58Da+sqqls3eNbuv7pr+e
  oZG+SrDK6nWeL3c6H5Apxz7LjVc1uTIdsIXxuOLYA4/ilBmSVIzuDWfd
  RUfhHdY6+cn8HFRm+2hM8AnXGXws9555KrUB5qihylGa8subX2Nn6UwN
  R1AkUTV74bU= ) ; KSK-2017`

describe('trust anchors', () => {
  it('built in: the IANA root KSKs 20326 and 38696, RSASHA256, SHA-256', () => {
    const { anchors, source } = loadTrustAnchors(undefined)
    expect(source).toMatch(/IANA/)
    expect(anchors.map((a) => (a.type === 'DS' ? [a.owner.text, a.ds.keyTag, a.ds.algorithm, a.ds.digestType] : null))).toEqual([
      ['.', 20326, 8, 2],
      ['.', 38696, 8, 2],
    ])
  })

  it('the built-in DS for 20326 is the digest of KSK-2017', () => {
    const [key] = parseTrustAnchors(KSK_2017)
    expect(key?.type).toBe('DNSKEY')
    if (key?.type !== 'DNSKEY') return
    expect(key.dnskey.keyTag).toBe(20326)
    const [ds] = loadTrustAnchors(undefined).anchors
    if (ds?.type !== 'DS') throw new Error('expected a DS anchor')
    expect(dsMatchesKey(nameOf('.'), ds.ds, key.dnskey)).toBe(true)
  })

  it('reads master-file DS and DNSKEY records: TTL, class, comments, parentheses, split digests', () => {
    const anchors = parseTrustAnchors(`
; comment
$TTL 3600
.        IN DS 20326 8 2 ( E06D44B80B8F1D39A95C0B0D7C65D084
                           58E880409BBC683457104237C7F8EC8D )
example. 300 IN DS 1 13 2 ${'aa'.repeat(32)}
${KSK_2017}`)
    expect(anchors.map((a) => [a.owner.text, a.type])).toEqual([
      ['.', 'DS'],
      ['example', 'DS'],
      ['.', 'DNSKEY'],
    ])
    const first = anchors[0]!
    expect(first.type === 'DS' && first.ds.digest).toBe('e06d44b80b8f1d39a95c0b0d7c65d08458e880409bbc683457104237c7f8ec8d')
  })

  it('the test root anchor files name the same key', () => {
    const [ds] = loadTrustAnchors(ROOT_ANCHOR_DS).anchors
    const [key] = loadTrustAnchors(ROOT_ANCHOR_DNSKEY).anchors
    if (ds?.type !== 'DS' || key?.type !== 'DNSKEY') throw new Error('unexpected anchor types')
    expect(dsMatchesKey(nameOf('.'), ds.ds, key.dnskey)).toBe(true)
  })

  it('refuses what it cannot use, saying where', () => {
    expect(() => parseTrustAnchors('example IN DS 1 8 2 aabb')).toThrow(/absolute name/)
    expect(() => parseTrustAnchors('. IN A 192.0.2.1')).toThrow(/line 1: expected a DS or DNSKEY/)
    expect(() => parseTrustAnchors('\n. IN DS 1 8 2 xyz')).toThrow(/line 2: bad DS digest/)
    expect(() => parseTrustAnchors('. IN DS 70000 8 2 aabb')).toThrow(/key tag/)
    expect(() => loadTrustAnchors('/nonexistent/anchors')).toThrow(TrustAnchorError)
    const dir = mkdtempSync(join(tmpdir(), 'anchors-'))
    writeFileSync(join(dir, 'empty'), '; nothing\n')
    expect(() => loadTrustAnchors(join(dir, 'empty'))).toThrow(/holds no DS or DNSKEY/)
  })
})
