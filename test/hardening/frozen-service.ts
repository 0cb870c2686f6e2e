// Run by test/hardening/frozen-intrinsics.test.ts in a child process (freezing the
// prototypes of the test runner's own process would freeze vitest too): the
// service with every example request of the API reference, each answer format and
// the error examples, with the built-in prototypes frozen by runtime/harden.ts.
// Frozen before the service is even built, which is stricter than runtime/main.ts
// (it freezes once listening): the plugins and descriptors load, and the data sets
// load in the background, with the prototypes already frozen. Prints one JSON
// line: what failed, and whether they were frozen.

import '../support/loopback-only.ts'
import { collectEndpointExamples, collectErrorExamples, send, startExampleService } from '../../scripts/docs-examples.ts'
import { freezeIntrinsics, intrinsicsFrozen } from '../../runtime/harden.ts'

freezeIntrinsics()
const world = await startExampleService()
const failures: string[] = []
try {
  const examples = await collectEndpointExamples(world.base, world.service.endpoints)
  failures.push(...examples.failures)
  let client = 0
  for (const [name, example] of Object.entries(examples.examples)) {
    for (const format of ['yaml', 'xml', 'csv']) {
      const path = `${example.request.path}${example.request.path.includes('?') ? '&' : '?'}format=${format}`
      // A client address of its own per request: each is an anonymous caller with a fresh budget.
      const answer = await send(world.base, { ...example.request, path }, `127.0.1.${1 + (client++ % 250)}`)
      if (answer.status !== 200) failures.push(`${name} as ${format}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`)
    }
  }
  const errors = await collectErrorExamples(world.service.endpoints)
  failures.push(...errors.failures)
} catch (error) {
  failures.push(`threw: ${(error as Error).stack ?? String(error)}`)
} finally {
  await world.close()
}
console.log(JSON.stringify({ frozen: intrinsicsFrozen(), failures }))
process.exit(0)
