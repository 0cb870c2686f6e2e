import { spawnSync } from 'node:child_process'
import Papa from 'papaparse'
import { expect } from 'vitest'

// CSV as two independent strict readers see it: papaparse and python's csv module
// (strict=True, newline='' so a line break inside a quoted cell stays one). Both
// must read the same cells, or the text is not CSV anyone can rely on.

const PYTHON = [
  'import csv, io, json, sys',
  "texts = json.loads(sys.stdin.buffer.read().decode('utf-8'))",
  "print(json.dumps([list(csv.reader(io.StringIO(text, newline=''), strict=True)) for text in texts]))",
].join('\n')

const python = new Map<string, string[][]>()

/**
 * Reads texts with python's csv module in one run (a process per text is slow)
 * and keeps the answers for readCsv; a test primes with all it will read.
 */
export function primePython(texts: readonly string[]): void {
  const todo = [...new Set(texts)].filter((text) => !python.has(text))
  if (todo.length === 0) return
  const run = spawnSync('python3', ['-c', PYTHON], { input: JSON.stringify(todo), encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
  expect(run.stderr).toBe('')
  const read = JSON.parse(run.stdout) as string[][][]
  todo.forEach((text, i) => python.set(text, read[i]!))
}

/** Rows of cells as papaparse reads them, strictly: no errors, every record ending in CRLF (RFC 4180). */
export function readCsvPapa(text: string): string[][] {
  expect(text.endsWith('\r\n'), 'every record ends with CRLF').toBe(true)
  const papa = Papa.parse<string[]>(text.slice(0, -2), { header: false, delimiter: ',', newline: '\r\n' })
  expect(papa.errors).toEqual([])
  const width = papa.data[0]?.length
  for (const row of papa.data) expect(row.length, 'every row has the header\'s width').toBe(width)
  return papa.data
}

/** Rows of cells, read by both (python primed or run now), which must agree. */
export function readCsv(text: string): string[][] {
  const papa = readCsvPapa(text)
  primePython([text])
  expect(python.get(text), 'python\'s csv module reads the same cells').toEqual(papa)
  return papa
}

/**
 * Header (names as the data had them) and records by column name, cells as
 * written. Null-prototype records: a column may be called __proto__.
 */
export function readCsvTable(text: string): { fields: string[]; rows: Array<Record<string, string>> } {
  const [header = [], ...records] = readCsv(text)
  const fields = header.map(unquote)
  expect(new Set(fields).size, 'column names are unique').toBe(fields.length)
  const rows = records.map((record) => {
    const row = Object.create(null) as Record<string, string>
    fields.forEach((field, i) => (row[field] = record[i]!))
    return row
  })
  return { fields, rows }
}

/**
 * A cell's text as the data had it: a cell starting with ' had one put in front
 * (against formula injection, README "format=csv"), so one is dropped.
 */
export function unquote(cell: string): string {
  return cell.startsWith("'") ? cell.slice(1) : cell
}
