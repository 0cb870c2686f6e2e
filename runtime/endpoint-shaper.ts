import type { Controls } from './controls.ts'
import type { AnyEndpoint } from './define-endpoint.ts'
import { InputError } from './errors.ts'
import type { FieldTree } from './field-tree.ts'
import { compileFieldTree } from './field-tree.ts'
import type { Shaped } from './shape.ts'
import { compileListPaths, hasShaping, shape } from './shape.ts'

// The query controls that shape data (sort/order, limit/offset, fields/exclude)
// applied to one endpoint's answers, compiled once per endpoint: a route's answer
// (runtime/pipeline.ts), an invoked one (runtime/invoke.ts: a batch item shaped by
// the controls in its own path), and one item at a time for NDJSON lines.

export interface EndpointShaper {
  /** The data as the controls shape it; as it is (and no pagination) when they ask for nothing. */
  (data: unknown, controls: Controls): Shaped
  /**
   * The shaping of one item of the list the endpoint streams (descriptor
   * `stream`), for NDJSON lines: fields= and exclude= name paths inside that
   * list as they would in the whole answer (`results.status`); sort, limit and
   * offset have no meaning for items sent as they finish, and a path outside the
   * list selects nothing in a line: both are a 400 before anything is sent.
   * Undefined when the controls leave items as they are.
   */
  line(controls: Controls): ((item: unknown) => unknown) | undefined
}

export function defineShaper(endpoint: AnyEndpoint): EndpointShaper {
  const listPaths = compileListPaths(endpoint.lists)
  // The data schema's field names, for fields=/exclude=/sort= typos; compiled on first use.
  let fieldTree: FieldTree | undefined
  const fieldsOf = () => (fieldTree ??= compileFieldTree(endpoint.data))
  const shaper = ((data: unknown, controls: Controls): Shaped =>
    hasShaping(controls) ? shape(data, listPaths, controls, controls.fields || controls.exclude || controls.sort ? fieldsOf() : undefined) : { data, pagination: undefined }) as EndpointShaper

  const streamPath = endpoint.stream === undefined ? undefined : endpoint.stream.split('.')
  shaper.line = (controls) => {
    if (!hasShaping(controls)) return undefined
    if (streamPath === undefined) throw new Error(`${endpoint.name} streams no list`)
    const list = streamPath.join('.')
    for (const param of ['sort', 'limit', 'offset'] as const) {
      const given = param === 'offset' ? controls.offset !== 0 : controls[param] !== undefined
      if (given) {
        throw new InputError(`Query parameter "${param}" does not apply to NDJSON: each line is one item of ${list}, sent as it finishes. Remove it, or ask for JSON (no Accept: application/x-ndjson) to ${param === 'sort' ? 'sort' : 'page'} the whole answer.`, {
          param,
        })
      }
    }
    for (const param of ['fields', 'exclude'] as const) {
      for (const path of controls[param] ?? []) {
        const inside = path.length > streamPath.length && streamPath.every((segment, i) => path[i] === segment)
        if (!inside) {
          throw new InputError(`Query parameter "${param}" names "${path.join('.')}", which is not in an NDJSON line: each line is one item of ${list}; name fields inside it, like "${list}.<field>".`, {
            param,
            value: path.join('.'),
          })
        }
      }
    }
    // The paths are checked against the schema once, here, not per line.
    shape({}, [], controls, fieldsOf())
    const wrap = (item: unknown): unknown => {
      let value: unknown = [item]
      for (let i = streamPath.length - 1; i >= 0; i--) value = { [streamPath[i]!]: value }
      return value
    }
    const unwrap = (data: unknown): unknown => {
      let value = data
      for (const segment of streamPath) value = (value as Record<string, unknown>)[segment]
      return (value as unknown[])[0]
    }
    const itemControls: Controls = { ...controls, sort: undefined, limit: undefined, offset: 0 }
    return (item) => unwrap(shape(wrap(item), [], itemControls).data)
  }
  return shaper
}
