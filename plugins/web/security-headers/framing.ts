import type { Analysis, Check } from './check.ts'

// Clickjacking: CSP frame-ancestors, or X-Frame-Options where there is none
// (browsers ignore X-Frame-Options when frame-ancestors is set; RFC 7034 and CSP3
// §6.4.2). ALLOW-FROM was never widely supported and modern browsers ignore it,
// which leaves the page frameable.

export interface Framing {
  x_frame_options: string | null
  frame_ancestors: string[] | null
  protected: boolean
  via: 'frame-ancestors' | 'x-frame-options' | null
}

export function analyzeFraming(xfoValues: readonly string[], frameAncestors: string[] | null): Analysis<Framing> {
  const xfo = xfoValues.length ? xfoValues.join(', ') : null
  const id = 'framing'
  const fail = (header: string, reason: string, message: string): Analysis<Framing> => ({
    checks: [{ id, header, result: 'fail', points: -20, value: header === 'x-frame-options' ? xfo : (frameAncestors?.join(' ') ?? null), reason }],
    findings: [{ code: 'framing.unprotected', severity: 'medium', message, fix: "Send Content-Security-Policy: frame-ancestors 'self' (and X-Frame-Options: SAMEORIGIN for old browsers)." }],
    detail: { x_frame_options: xfo, frame_ancestors: frameAncestors, protected: false, via: null },
  })
  if (frameAncestors !== null) {
    if (frameAncestors.includes('*')) return fail('content-security-policy', "frame-ancestors * lets any site frame the page", 'CSP frame-ancestors * allows framing by any site (clickjacking).')
    const check: Check = { id, header: 'content-security-policy', result: 'pass', points: 0, value: frameAncestors.join(' ') || "'none'", reason: `frame-ancestors ${frameAncestors.join(' ') || "(empty = 'none')"}` }
    return { checks: [check], findings: [], detail: { x_frame_options: xfo, frame_ancestors: frameAncestors, protected: true, via: 'frame-ancestors' } }
  }
  if (xfo === null) return fail('x-frame-options', 'Neither X-Frame-Options nor CSP frame-ancestors: any site can frame the page', 'No X-Frame-Options or CSP frame-ancestors: the page can be framed by any site (clickjacking).')
  const values = xfoValues.flatMap((v) => v.split(',')).map((v) => v.trim().toUpperCase()).filter(Boolean)
  const distinct = [...new Set(values)]
  if (distinct.length === 1 && (distinct[0] === 'DENY' || distinct[0] === 'SAMEORIGIN')) {
    const check: Check = { id, header: 'x-frame-options', result: 'pass', points: 0, value: xfo, reason: `X-Frame-Options ${distinct[0]}` }
    return { checks: [check], findings: [], detail: { x_frame_options: xfo, frame_ancestors: null, protected: true, via: 'x-frame-options' } }
  }
  if (distinct.some((v) => v.startsWith('ALLOW-FROM'))) {
    return fail('x-frame-options', 'ALLOW-FROM is ignored by modern browsers, so the page is frameable', 'X-Frame-Options ALLOW-FROM is not supported by modern browsers: the page can be framed.')
  }
  return fail('x-frame-options', `"${xfo}" is not DENY or SAMEORIGIN, so browsers ignore it`, `X-Frame-Options "${xfo}" is invalid and ignored: the page can be framed.`)
}
