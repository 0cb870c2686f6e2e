// A value as JSON text with every object's keys in sorted order: equal values give
// equal text whatever order their keys were set in (the question key,
// runtime/question-key.ts). undefined alone is the text `undefined`; inside an
// object it is written like any value, so {a: undefined} and {} differ, as the
// inputs they stand for do (a schema default is a value).

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined'
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const keys = Object.keys(value)
  if (keys.length > 1) keys.sort()
  // A loop rather than map/join: this runs for every question not asked recently.
  let out = '{'
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!
    out += `${i === 0 ? '' : ','}${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`
  }
  return `${out}}`
}
