import { z } from 'zod'
import { CONTROL_NAMES } from './controls.ts'
import type { AnyEndpoint } from './define-endpoint.ts'

// Which query controls do something on an endpoint, read from its descriptor. The
// OpenAPI document declares exactly these, so a client generated from it cannot
// make a call the server refuses (test/gateway/openapi.test.ts asks the server).

export type ControlName = (typeof CONTROL_NAMES)[number]

/** Controls that act on lists; on data without one, runtime/shape.ts answers 400. */
const LIST_CONTROLS: ReadonlySet<ControlName> = new Set(['sort', 'order', 'limit', 'offset'])

/** Controls that act on data sent without the envelope: the serialization only. */
const RAW_CONTROLS: ReadonlySet<ControlName> = new Set(['format', 'pretty'])

/** The descriptor's `lists`, or data that is itself an array (shape.ts pages that too). */
export function hasList(endpoint: AnyEndpoint): boolean {
  return (endpoint.lists?.length ?? 0) > 0 || endpoint.data instanceof z.ZodArray
}

/**
 * The controls that apply to the endpoint, in CONTROL_NAMES order: none for a document
 * of its own (`contentType`: sent as-is), the serialization for data without the
 * envelope, the list controls only where there is a list, and never a name the
 * endpoint claims as its own parameter (an endpoint that pages itself owns
 * limit/offset; parseControls skips those).
 */
export function controlsFor(endpoint: AnyEndpoint): ControlName[] {
  if (endpoint.contentType !== undefined) return []
  const own = endpoint.params.shape as Record<string, unknown>
  return CONTROL_NAMES.filter((name) => {
    if (Object.hasOwn(own, name)) return false
    if (endpoint.envelope === false) return RAW_CONTROLS.has(name)
    return !LIST_CONTROLS.has(name) || hasList(endpoint)
  })
}
