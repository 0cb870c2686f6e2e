import type { CipherSuite, Strength } from './cipher-suites.ts'
import { STRENGTH_ORDER } from './cipher-suites.ts'

// Suites as the API shows them, and the one-line summary of a set of them.

export function suiteData(s: CipherSuite) {
  return {
    name: s.name,
    openssl_name: s.openssl_name,
    code: `0x${s.code.toString(16).toUpperCase().padStart(4, '0')}`,
    key_exchange: s.key_exchange,
    authentication: s.authentication,
    encryption: s.encryption,
    bits: s.bits,
    mac: s.mac,
    aead: s.aead,
    forward_secrecy: s.forward_secrecy,
    strength: s.strength,
    concerns: [...s.concerns],
  }
}

export function summarize(suites: readonly CipherSuite[]) {
  const by = { insecure: 0, weak: 0, secure: 0, recommended: 0 }
  for (const s of suites) by[s.strength]++
  const ranks = suites.map((s) => STRENGTH_ORDER.indexOf(s.strength))
  const fs = suites.filter((s) => s.forward_secrecy).length
  return {
    total: suites.length,
    by_strength: by,
    forward_secrecy: (suites.length > 0 && fs === suites.length ? 'all' : fs > 0 ? 'some' : 'none') as 'all' | 'some' | 'none',
    weakest: ranks.length ? (STRENGTH_ORDER[Math.min(...ranks)] as Strength) : null,
    strongest: ranks.length ? (STRENGTH_ORDER[Math.max(...ranks)] as Strength) : null,
  }
}
