import { beforeAll, describe, expect, it } from 'vitest'
import { servedDocument } from '../../scripts/docs-client.ts'
import type { LintProblem } from '../support/openapi-linters.ts'
import { redoclyProblems, spectralProblems } from '../support/openapi-linters.ts'

// /api/openapi.json as tools read it: Spectral (spectral:oas) and Redocly
// (recommended) find no error in it. Both run in this process under the test
// network fence (test/support/loopback-only.ts): one that reached for the network
// would fail here. Warnings are printed; the only ones accepted are info-contact
// and info-license, which need facts the project has not set (who to contact,
// which licence). Any other warning fails, so one fixed (e.g. an operation without
// a description) does not come back unnoticed.

type Json = Record<string, any>

let document: Json
beforeAll(async () => {
  // The document the service serves, built in-process from the registry (no upstream needed).
  document = await servedDocument()
}, 30_000)

function report(problems: LintProblem[]): void {
  const shown = problems.filter((p) => p.severity !== 'error')
  if (shown.length) console.info(shown.map((p) => `${p.linter} ${p.severity} ${p.rule} at ${p.at || '/'}: ${p.message}`).join('\n'))
}

const ACCEPTED_WARNINGS = new Set(['info-contact', 'info-license'])

const errors = (problems: LintProblem[]) => problems.filter((p) => p.severity === 'error').map((p) => `${p.rule} at ${p.at}: ${p.message}`)
const newWarnings = (problems: LintProblem[]) =>
  problems.filter((p) => p.severity !== 'error' && !ACCEPTED_WARNINGS.has(p.rule)).map((p) => `${p.rule} at ${p.at}: ${p.message}`)

describe('OpenAPI document under linters', () => {
  it('Spectral (spectral:oas, recommended rules): no errors, no warnings but the accepted ones', async () => {
    const problems = await spectralProblems(document)
    report(problems)
    expect(errors(problems)).toEqual([])
    expect(newWarnings(problems)).toEqual([])
  }, 60_000)

  it('Redocly (recommended rules): no errors, no warnings but the accepted ones', async () => {
    const problems = await redoclyProblems(document)
    report(problems)
    expect(errors(problems)).toEqual([])
    expect(newWarnings(problems)).toEqual([])
  }, 60_000)

  // The same linters on a copy with known faults: they see the document, and the
  // one exception made for Spectral leaves example values checked.
  it('both report a fault planted in a copy of the document', async () => {
    const broken = structuredClone(document)
    const uuid = broken.paths['/api/uuid'].get
    // An example answer its schema does not allow (uuid is a string).
    const example = Object.values<Json>(uuid.responses['200'].content['application/json'].examples)[0]!
    example.value.data.uuid = 42
    // Two operations with one id.
    broken.paths['/api/ulid'].get.operationId = uuid.operationId

    const spectral = await spectralProblems(broken)
    expect(spectral.filter((p) => p.severity === 'error').map((p) => p.rule)).toEqual(expect.arrayContaining(['oas3-valid-media-example', 'operation-operationId-unique']))
    const redocly = await redoclyProblems(broken)
    expect(redocly.filter((p) => p.severity === 'error').map((p) => p.rule)).toContain('operation-operationId-unique')
    expect(redocly.map((p) => p.rule)).toContain('no-invalid-media-type-examples')
  }, 60_000)
})
