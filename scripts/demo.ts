// npm run demo — the whole service on the loopback internet of the tests, to try
// every endpoint with real answers and no internet at all.
//
// Starts the fake upstreams (DNS servers with zones, RDAP, RIPEstat, crt.sh, the
// VRP export, web and TLS servers with their own test CA: test/support/
// loopback-internet.ts), then the service pointed at them on PORT (3000) and HOST
// (127.0.0.1), and prints one example request per endpoint. The network fence of
// the tests is loaded first: nothing this process does can leave the machine.
// Ctrl-C (SIGINT) or SIGTERM stops the service and the fakes.

import '../test/support/loopback-only.ts'
import { createApp } from '../runtime/app.ts'
import { drain, listen } from '../runtime/server.ts'
import { exampleRequest, hasJsonAnswer } from '../plugins/meta/examples.ts'
import { startLoopbackInternet } from '../test/support/loopback-internet.ts'

const port = Number(process.env.PORT ?? 3000)
const host = process.env.HOST ?? '127.0.0.1'

const internet = await startLoopbackInternet()
// The loopback internet's settings win over the environment's (they are what makes
// the demo offline). One person trying every endpoint is not abuse: the anonymous
// limit is raised unless INFRALENS_RATE_LIMITS says otherwise.
const service = await createApp({
  env: { LOG_LEVEL: 'warn', INFRALENS_RATE_LIMITS: 'anonymous=6000,free=60000,pro=600000', ...process.env, ...internet.env },
})
const server = await listen(service, { port, host })
const base = server.url!.replace(/\/$/, '')

// The bundled ASN and country data load in the background: the examples are
// printed once /api/ready says everything is there.
for (let waited = 0; (await fetch(`${base}/api/ready`)).status !== 200; waited += 100) {
  if (waited > 60_000) throw new Error('the demo service did not get ready within 60 s')
  await new Promise((resolve) => setTimeout(resolve, 100))
}

const lines = service.endpoints
  .filter(hasJsonAnswer)
  .map((endpoint) => {
    const request = exampleRequest(endpoint)
    const call =
      request.method === 'GET'
        ? `curl '${base}${request.path}'`
        : `curl -X ${request.method} '${base}${request.path}'${request.contentType ? ` -H 'content-type: ${request.contentType}'` : ''}${request.body !== undefined ? ` --data '${request.body.replaceAll("'", "'\\''")}'` : ''}`
    return `  ${endpoint.summary}\n    ${call}`
  })
console.log(
  [
    `infralens demo: ${base} (the loopback internet of the tests: every upstream is a local fake, nothing leaves this machine)`,
    `API reference: ${base}/api/docs    endpoints: ${base}/api/endpoints`,
    '',
    'One example per endpoint:',
    ...lines,
    '',
    'Ctrl-C stops it.',
  ].join('\n'),
)

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return
    stopping = true
    void (async () => {
      await drain(server)
      await service.close()
      await internet.close()
      process.exit(0)
    })()
  })
}
