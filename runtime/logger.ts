import pino from 'pino'
import type { DestinationStream, Logger } from 'pino'

/**
 * JSON lines to stdout (or the given stream): one record per event, request ids
 * included. Times come from the app's clock (runtime/clock.ts), like every other
 * date the service writes.
 */
export function createLogger(level: string, destination: DestinationStream | undefined, isoNow: () => string): Logger {
  return pino(
    { level, base: { service: 'infralens' }, timestamp: () => `,"time":"${isoNow()}"` },
    destination ?? pino.destination({ sync: false }),
  )
}
