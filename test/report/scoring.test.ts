import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ReportFinding } from '../../registry/flagship/schemas/report-findings.ts'
import { AREAS, SEVERITIES } from '../../registry/flagship/schemas/report-findings.ts'
import { countBySeverity, mergeFindings } from '../../plugins/report/findings.ts'
import { gradeOf, overallScore, scoreFromFindings } from '../../plugins/report/scoring.ts'
import { GRADES, WEIGHTS } from '../../registry/flagship/schemas/report-scale.ts'

// The arithmetic of the report: properties over arbitrary inputs.

const finding = fc.record({
  area: fc.constantFrom(...AREAS),
  id: fc.string({ maxLength: 12 }),
  severity: fc.constantFrom(...SEVERITIES),
  message: fc.string({ maxLength: 20 }),
  fix: fc.option(fc.string({ maxLength: 10 }), { nil: null }),
}) as fc.Arbitrary<ReportFinding>
const rank = (f: ReportFinding) => SEVERITIES.indexOf(f.severity)

describe('mergeFindings', () => {
  it('keeps every finding, most severe first, then in area order, then in the order each part gave them', () => {
    fc.assert(
      fc.property(fc.array(fc.array(finding, { maxLength: 8 }), { maxLength: 6 }), (lists) => {
        const merged = mergeFindings(lists)
        expect(merged.length).toBe(lists.flat().length)
        expect(new Set(merged)).toEqual(new Set(lists.flat()))
        const flat = lists.flat()
        for (let i = 1; i < merged.length; i++) {
          const [a, b] = [merged[i - 1]!, merged[i]!]
          expect(rank(a)).toBeLessThanOrEqual(rank(b))
          if (rank(a) === rank(b)) {
            expect(AREAS.indexOf(a.area)).toBeLessThanOrEqual(AREAS.indexOf(b.area))
            if (a.area === b.area) expect(flat.indexOf(a)).toBeLessThan(flat.indexOf(b))
          }
        }
      }),
    )
  })

  it('countBySeverity counts each finding once, under its severity', () => {
    fc.assert(
      fc.property(fc.array(finding, { maxLength: 30 }), (list) => {
        const counts = countBySeverity(list)
        expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(list.length)
        for (const s of SEVERITIES) expect(counts[s]).toBe(list.filter((f) => f.severity === s).length)
      }),
    )
  })
})

describe('scores', () => {
  it('scoreFromFindings: 100 without findings, within 0..100, and never raised by one more finding', () => {
    expect(scoreFromFindings([])).toBe(100)
    fc.assert(
      fc.property(fc.array(finding, { maxLength: 12 }), finding, (list, extra) => {
        const score = scoreFromFindings(list)
        expect(score).toBeGreaterThanOrEqual(0)
        expect(score).toBeLessThanOrEqual(100)
        expect(scoreFromFindings([...list, extra])).toBeLessThanOrEqual(score)
      }),
    )
  })

  it('info findings cost nothing', () => {
    fc.assert(fc.property(fc.array(finding.map((f) => ({ ...f, severity: 'info' as const })), { maxLength: 10 }), (list) => {
        expect(scoreFromFindings(list)).toBe(100)
      }))
  })

  const areaScore = fc.record({ area: fc.constantFrom(...AREAS), score: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }) })

  it('overallScore: null when nothing is scored, otherwise between the lowest and highest area score', () => {
    fc.assert(
      fc.property(fc.uniqueArray(areaScore, { selector: (a) => a.area }), (areas) => {
        const scored = areas.flatMap((a) => (a.score === null ? [] : [a.score]))
        const overall = overallScore(areas)
        if (scored.length === 0) expect(overall).toBeNull()
        else {
          expect(overall).toBeGreaterThanOrEqual(Math.min(...scored))
          expect(overall).toBeLessThanOrEqual(Math.max(...scored))
        }
      }),
    )
  })

  it('overallScore weighs areas: a TLS 0 costs more than a registration 0', () => {
    const all = (score: number) => AREAS.map((area) => ({ area, score }))
    const without = (area: string) => all(100).map((a) => (a.area === area ? { ...a, score: 0 } : a))
    expect(overallScore(all(100))).toBe(100)
    expect(overallScore(without('tls'))).toBe(100 - WEIGHTS.tls)
    expect(overallScore(without('registration'))).toBe(100 - WEIGHTS.registration)
    expect(Object.values(WEIGHTS).reduce((a, b) => a + b, 0)).toBe(100)
  })

  it('gradeOf never rises as the score falls', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a]
        expect(GRADES.indexOf(gradeOf(lo))).toBeGreaterThanOrEqual(GRADES.indexOf(gradeOf(hi)))
      }),
    )
    expect([gradeOf(100), gradeOf(97), gradeOf(96), gradeOf(90), gradeOf(59)]).toEqual(['A+', 'A+', 'A', 'A', 'F'])
  })
})
