import type { TlsInfo } from '../web-response.ts'
import type { Analysis } from './check.ts'

// The ground the headers stand on: a page served over plain http can be altered
// in transit whatever its headers say, and one behind a certificate browsers
// reject is not reached at all. (/api/tls/* says why a certificate fails.)

export function analyzeTransport(finalUrl: string, tls: TlsInfo | null): Analysis<{ https: boolean }> {
  const https = finalUrl.startsWith('https:')
  if (!https) {
    return {
      checks: [{ id: 'https', header: '(transport)', result: 'fail', points: -30, value: null, reason: 'The page is served over plain http: anyone on the path can read and change it' }],
      findings: [{ code: 'https.missing', severity: 'critical', message: `The page is served over plain http (${finalUrl}).`, fix: 'Serve the site over https and redirect http to it.' }],
      detail: { https },
    }
  }
  if (tls && !tls.authorized) {
    return {
      checks: [{ id: 'https', header: '(transport)', result: 'fail', points: -20, value: null, reason: `Browsers reject the certificate (${tls.authorization_error ?? 'unverified'})` }],
      findings: [{ code: 'https.untrusted_certificate', severity: 'high', message: `The certificate is not trusted for this host: ${tls.authorization_error ?? 'unverified'}.`, fix: 'Install a certificate from a public CA that names the host, with its full chain (see /api/tls/analyze).' }],
      detail: { https },
    }
  }
  return { checks: [{ id: 'https', header: '(transport)', result: 'pass', points: 0, value: null, reason: `Served over https${tls?.protocol ? ` (${tls.protocol})` : ''}` }], findings: [], detail: { https } }
}
