// WHOIS dates, as registries write them, to UTC ISO 8601 (the form RDAP answers
// use: no milliseconds, "Z"). Port 43 has no date format: every registry picks
// its own, and the text is the server's, so nothing here trusts Date.parse (whose
// accepted forms are implementation-defined) and nothing throws. Read forms:
//
//   2018-03-12T21:44:25+01:00   2019-08-29T02:41:07-0700   2025-12-03T10:12:00.351952Z
//   2003-03-17 12:20:05         2020-04-21                  19970529 (registro.br)
//   2005/05/30                  2017/06/01 01:05:09 (JST)   (JPRS)
//   11-Jun-2014  11-jun-2015    (Nominet, Verisign of old)  27-05-1999 (SIDN, day first)
//   16/09/03                    (Red.es: day/month/two-digit year)
//   Tue Dec 12 2000             (DNS Belgium)
//
// A time without a zone is taken as UTC (registries rarely say which zone they
// mean; CNNIC's times are Beijing time, so such a date may be off by hours, never
// by more than a day). Anything else is null: the raw text is in the answer.

const MONTHS = new Map<string, number>(['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].map((m, i) => [m, i + 1]))

/** Named zones registries write after a time. */
const ZONES = new Map<string, number>([
  ['utc', 0],
  ['gmt', 0],
  ['z', 0],
  ['jst', 9 * 60],
  ['cst', 8 * 60], // CNNIC writes China Standard Time this way when it writes one at all
  ['cet', 60],
  ['cest', 120],
])

function twoDigitYear(y: number): number {
  return y < 70 ? 2000 + y : 1900 + y
}

/** UTC ms of a calendar date and time, or null when the fields are not a real date. */
function utc(year: number, month: number, day: number, h = 0, m = 0, s = 0, offsetMinutes = 0): number | null {
  if (year < 1970 - 100 || year > 9999 || month < 1 || month > 12 || day < 1 || day > 31 || h > 24 || m > 59 || s > 60) return null
  const ms = Date.UTC(year, month - 1, day, h, m, Math.min(s, 59))
  const back = new Date(ms)
  // Date.UTC rolls 31 February into March; a registry that wrote it meant nothing real.
  if (back.getUTCDate() !== day || back.getUTCMonth() !== month - 1) return null
  return ms - offsetMinutes * 60_000
}

function offsetOf(zone: string | undefined): number | null {
  if (zone === undefined || zone === '') return 0
  const named = ZONES.get(zone.replace(/[()]/g, '').trim().toLowerCase())
  if (named !== undefined) return named
  const numeric = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone.trim())
  if (!numeric) return null
  const minutes = Number(numeric[2]) * 60 + Number(numeric[3] ?? 0)
  return numeric[1] === '-' ? -minutes : minutes
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?\s*(Z|[+-]\d{2}:?\d{2}|\(?[A-Za-z]{1,5}\)?)?$/
const SLASHED_YMD = /^(\d{4})\/(\d{1,2})\/(\d{1,2})(?:\s+(\d{2}):(\d{2})(?::(\d{2}))?)?\s*(\(?[A-Za-z]{1,5}\)?|[+-]\d{2}:?\d{2})?$/
const DAY_FIRST = /^(\d{1,2})[./-](\d{1,2})[./-](\d{2}|\d{4})(?:\s+(\d{2}):(\d{2})(?::(\d{2}))?)?$/
const DAY_MONTH_NAME = /^(\d{1,2})[- ]([A-Za-z]{3})[A-Za-z]*[- ](\d{4})(?:\s+(\d{2}):(\d{2})(?::(\d{2}))?)?\s*(Z|UTC|GMT)?$/
const WEEKDAY_MONTH_DAY_YEAR = /^(?:[A-Za-z]{3},?\s+)?([A-Za-z]{3})[A-Za-z]*\.?\s+(\d{1,2}),?\s+(\d{4})(?:\s+(\d{2}):(\d{2})(?::(\d{2}))?)?$/
const COMPACT = /^(\d{4})(\d{2})(\d{2})$/

const n = (v: string | undefined): number => (v === undefined ? 0 : Number(v))

/** UTC ISO 8601 ("2018-03-12T20:44:25Z"), or null when the text is not a date this reads. */
export function whoisDate(text: string): string | null {
  // Registries append notes: "19970529 #44960" (registro.br), "2020-01-01 (renewal pending)".
  const value = text.trim().slice(0, 64).replace(/\s+#.*$/, '').replace(/\.$/, '')
  if (value === '') return null
  let ms: number | null = null
  let m: RegExpExecArray | null
  if ((m = ISO.exec(value))) {
    const offset = offsetOf(m[7])
    if (offset !== null) ms = utc(n(m[1]), n(m[2]), n(m[3]), n(m[4]), n(m[5]), n(m[6]), offset)
  } else if ((m = SLASHED_YMD.exec(value))) {
    const offset = offsetOf(m[7])
    if (offset !== null) ms = utc(n(m[1]), n(m[2]), n(m[3]), n(m[4]), n(m[5]), n(m[6]), offset)
  } else if ((m = DAY_FIRST.exec(value))) {
    const year = m[3]!.length === 2 ? twoDigitYear(n(m[3])) : n(m[3])
    ms = utc(year, n(m[2]), n(m[1]), n(m[4]), n(m[5]), n(m[6]))
  } else if ((m = DAY_MONTH_NAME.exec(value))) {
    const month = MONTHS.get(m[2]!.toLowerCase())
    if (month !== undefined) ms = utc(n(m[3]), month, n(m[1]), n(m[4]), n(m[5]), n(m[6]))
  } else if ((m = WEEKDAY_MONTH_DAY_YEAR.exec(value))) {
    const month = MONTHS.get(m[1]!.toLowerCase())
    if (month !== undefined) ms = utc(n(m[3]), month, n(m[2]), n(m[4]), n(m[5]), n(m[6]))
  } else if ((m = COMPACT.exec(value))) {
    ms = utc(n(m[1]), n(m[2]), n(m[3]))
  }
  if (ms === null || !Number.isFinite(ms)) return null
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}
