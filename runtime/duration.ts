// Descriptors state TTLs as short strings ('30s', '5m', '1h', '1d') so they read as data.

export type Duration = `${number}${'s' | 'm' | 'h' | 'd'}` | number

const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400 } as const

/** Seconds in a duration; a bare number is already seconds. */
export function toSeconds(duration: Duration): number {
  if (typeof duration === 'number') return duration
  const match = /^(\d+(?:\.\d+)?)([smhd])$/.exec(duration)
  if (!match) throw new Error(`Invalid duration "${duration}": use a number followed by s, m, h or d`)
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS]
}
