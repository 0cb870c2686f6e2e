import * as errors from '../errors.ts'
import { ApiError } from '../errors.ts'

// Errors cross the thread boundary as data: structured clone keeps an Error's
// message but drops its class and fields, and the pipeline answers by class
// (InputError is a 400 with its details). So the worker sends the fields and the
// main thread rebuilds the same class: the error envelope, the status, the log
// line and the error hooks of layers see what an in-process resolver would throw.

export type WireError =
  | { api: true; name: string; status: number; code: string; message: string; details: Record<string, unknown>; headers: Record<string, string>; stack?: string }
  | { api: false; name: string; message: string; stack?: string }

/** The runtime's ApiError classes by name (every one runtime/errors.ts exports). */
const CLASSES = new Map<string, typeof ApiError>(
  Object.values(errors)
    .filter((value): value is typeof ApiError => typeof value === 'function' && (value === ApiError || value.prototype instanceof ApiError))
    .map((cls) => [cls.name, cls]),
)

export function toWire(error: unknown): WireError {
  if (error instanceof ApiError) {
    return { api: true, name: error.name, status: error.status, code: error.code, message: error.message, details: error.details, headers: error.headers, stack: error.stack }
  }
  const e = error instanceof Error ? error : new Error(String(error))
  return { api: false, name: e.name, message: e.message, stack: e.stack }
}

export function fromWire(wire: WireError): Error {
  if (!wire.api) {
    const error = new Error(wire.message)
    error.name = wire.name
    if (wire.stack) error.stack = wire.stack
    return error
  }
  const error = new ApiError(wire.status, wire.code, wire.message, wire.details, wire.headers)
  // Another ApiError subclass (a plugin's own) keeps ApiError's class: the same
  // status, code and envelope, which is all the pipeline reads.
  const cls = CLASSES.get(wire.name)
  if (cls && cls !== ApiError) Object.setPrototypeOf(error, cls.prototype)
  error.name = wire.name
  if (wire.stack) error.stack = wire.stack
  return error
}
