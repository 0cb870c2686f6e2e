import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

/**
 * Configuration under which the service reaches nothing but loopback: DNS goes to
 * a closed loopback port and fails fast, the RPKI VRP set is a local file. Every
 * service a test or benchmark starts (in process or as a child process) gets it
 * unless it brings its own loopback upstreams; the embedded defaults are public
 * resolvers and https://console.rpki-client.org, fetched at start.
 */
export const HERMETIC_ENV: Readonly<Record<string, string>> = Object.freeze({
  INFRALENS_DNS_RESOLVERS: '127.0.0.1:1',
  INFRALENS_PROPAGATION_RESOLVERS: 'nowhere=127.0.0.1:1',
  INFRALENS_DNS_TIMEOUT_MS: '200',
  // A local VRP file: the public default would only fail (offline), and readiness
  // would then depend on how fast that failure comes.
  INFRALENS_VRP_URL: join(ROOT, 'test', 'fixtures', 'rpki', 'test-vrps.json'),
  // Mozilla's TLS guidelines: a closed loopback port, so an analysis says its
  // compliance part is unavailable at once (test/tls/profiles.test.ts and the
  // loopback internet serve a document written for the tests).
  INFRALENS_TLS_PROFILES_URL: 'http://127.0.0.1:1/guidelines/latest.json',
})
