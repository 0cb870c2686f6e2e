import { createConfig, lintFromString } from '@redocly/openapi-core'
import { Document, Ruleset, Spectral } from '@stoplight/spectral-core'
import Parsers from '@stoplight/spectral-parsers'
import { oas } from '@stoplight/spectral-rulesets'

// Two OpenAPI linters run as libraries, in-process and offline: Spectral with its
// spectral:oas ruleset (recommended rules) and Redocly's `recommended` rules, through
// @redocly/openapi-core's lint API (the CLI's telemetry is not part of it). The
// document is linted as given; only local $refs, so neither resolves anything remote.

export interface LintProblem {
  linter: 'spectral' | 'redocly'
  severity: 'error' | 'warn' | 'info' | 'hint'
  rule: string
  /** JSON pointer (Redocly) or dotted path (Spectral) of the place. */
  at: string
  message: string
}

// Neither linter reads these files: the names place the document and the ruleset
// for Spectral's overrides, and name the document in messages.
const DOCUMENT_FILE = '/infralens/openapi.json'
const RULESET_FILE = '/infralens/.spectral.json'

type Json = Record<string, unknown>

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1')

/** JSON pointers of the `examples` maps of every Media Type Object (`content.<type>.examples`). */
export function mediaExamplePointers(document: Json): string[] {
  const pointers: string[] = []
  const walk = (node: unknown, path: string[]): void => {
    if (typeof node !== 'object' || node === null) return
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, [...path, String(i)]))
    for (const [key, value] of Object.entries(node)) {
      if (key === 'examples' && path.at(-2) === 'content') pointers.push(`/${[...path, key].map(escapePointer).join('/')}`)
      else walk(value, [...path, key])
    }
  }
  walk(document, [])
  return pointers
}

/**
 * spectral:oas, recommended rules. One exception, scoped: oas3-valid-schema-example
 * is off inside the media types' Example Objects. That rule takes any object with
 * `default` or `example` beside `type` for a schema, and walks into example values
 * to find them (stoplightio/spectral#1972, open): /api/endpoints' example lists
 * parameters, which carry both. Example values are answers, not schemas;
 * oas3-valid-media-example still checks each against its operation's schema.
 */
export async function spectralProblems(document: Json): Promise<LintProblem[]> {
  const ruleset = new Ruleset(
    {
      extends: [[oas, 'recommended']],
      overrides: [{ files: mediaExamplePointers(document).map((pointer) => `openapi.json#${pointer}`), rules: { 'oas3-valid-schema-example': 'off' } }],
    },
    { source: RULESET_FILE },
  )
  const spectral = new Spectral()
  spectral.setRuleset(ruleset)
  const results = await spectral.run(new Document(JSON.stringify(document, null, 2), Parsers.Json, DOCUMENT_FILE))
  const severities = ['error', 'warn', 'info', 'hint'] as const
  return results.map((r) => ({ linter: 'spectral', severity: severities[r.severity], rule: String(r.code), at: r.path.join('.'), message: r.message }))
}

/** Redocly's `recommended` rules. */
export async function redoclyProblems(document: Json): Promise<LintProblem[]> {
  const config = await createConfig({ extends: ['recommended'] })
  const problems = await lintFromString({ source: JSON.stringify(document, null, 2), absoluteRef: DOCUMENT_FILE, config })
  return problems.map((p) => ({ linter: 'redocly', severity: p.severity, rule: p.ruleId, at: p.location[0]?.pointer ?? '', message: p.message }))
}
