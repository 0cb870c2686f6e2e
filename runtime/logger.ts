import pino from 'pino'
import type { DestinationStream, Logger } from 'pino'

/** JSON lines to stdout (or the given stream): one record per event, request ids included. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    { level, base: { service: 'infralens' }, timestamp: pino.stdTimeFunctions.isoTime },
    destination ?? pino.destination({ sync: false }),
  )
}
