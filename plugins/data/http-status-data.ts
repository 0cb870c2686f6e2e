import { STATUS_CODES } from 'node:http'
import type { z } from 'zod'
import type { HttpStatusCodesData } from '../../registry/data/schemas/data-schemas.ts'

// IANA "Hypertext Transfer Protocol (HTTP) Status Code Registry"
// (https://www.iana.org/assignments/http-status-codes/http-status-codes.xhtml),
// typed in from the registry as of mid-2025. Reasons as Node prints them come from
// node:http STATUS_CODES; codes only Node knows (509) are listed as unregistered.

type Row = z.input<typeof HttpStatusCodesData>['codes'][number]
type Status = Row['status']

// [code, description, reference, section, status (default active)]
const REGISTRY: Array<[number, string, string, string | null, Status?]> = [
  [100, 'Continue', 'RFC 9110', '15.2.1'],
  [101, 'Switching Protocols', 'RFC 9110', '15.2.2'],
  [102, 'Processing', 'RFC 2518', '10.1'],
  [103, 'Early Hints', 'RFC 8297', null],
  [104, 'Upload Resumption Supported (temporary registration)', 'draft-ietf-httpbis-resumable-upload', null, 'temporary'],
  [200, 'OK', 'RFC 9110', '15.3.1'],
  [201, 'Created', 'RFC 9110', '15.3.2'],
  [202, 'Accepted', 'RFC 9110', '15.3.3'],
  [203, 'Non-Authoritative Information', 'RFC 9110', '15.3.4'],
  [204, 'No Content', 'RFC 9110', '15.3.5'],
  [205, 'Reset Content', 'RFC 9110', '15.3.6'],
  [206, 'Partial Content', 'RFC 9110', '15.3.7'],
  [207, 'Multi-Status', 'RFC 4918', '11.1'],
  [208, 'Already Reported', 'RFC 5842', '7.1'],
  [226, 'IM Used', 'RFC 3229', '10.4.1'],
  [300, 'Multiple Choices', 'RFC 9110', '15.4.1'],
  [301, 'Moved Permanently', 'RFC 9110', '15.4.2'],
  [302, 'Found', 'RFC 9110', '15.4.3'],
  [303, 'See Other', 'RFC 9110', '15.4.4'],
  [304, 'Not Modified', 'RFC 9110', '15.4.5'],
  [305, 'Use Proxy', 'RFC 9110', '15.4.6'],
  [306, '(Unused)', 'RFC 9110', '15.4.7', 'unused'],
  [307, 'Temporary Redirect', 'RFC 9110', '15.4.8'],
  [308, 'Permanent Redirect', 'RFC 9110', '15.4.9'],
  [400, 'Bad Request', 'RFC 9110', '15.5.1'],
  [401, 'Unauthorized', 'RFC 9110', '15.5.2'],
  [402, 'Payment Required', 'RFC 9110', '15.5.3'],
  [403, 'Forbidden', 'RFC 9110', '15.5.4'],
  [404, 'Not Found', 'RFC 9110', '15.5.5'],
  [405, 'Method Not Allowed', 'RFC 9110', '15.5.6'],
  [406, 'Not Acceptable', 'RFC 9110', '15.5.7'],
  [407, 'Proxy Authentication Required', 'RFC 9110', '15.5.8'],
  [408, 'Request Timeout', 'RFC 9110', '15.5.9'],
  [409, 'Conflict', 'RFC 9110', '15.5.10'],
  [410, 'Gone', 'RFC 9110', '15.5.11'],
  [411, 'Length Required', 'RFC 9110', '15.5.12'],
  [412, 'Precondition Failed', 'RFC 9110', '15.5.13'],
  [413, 'Content Too Large', 'RFC 9110', '15.5.14'],
  [414, 'URI Too Long', 'RFC 9110', '15.5.15'],
  [415, 'Unsupported Media Type', 'RFC 9110', '15.5.16'],
  [416, 'Range Not Satisfiable', 'RFC 9110', '15.5.17'],
  [417, 'Expectation Failed', 'RFC 9110', '15.5.18'],
  [418, '(Unused)', 'RFC 9110', '15.5.19', 'unused'],
  [421, 'Misdirected Request', 'RFC 9110', '15.5.20'],
  [422, 'Unprocessable Content', 'RFC 9110', '15.5.21'],
  [423, 'Locked', 'RFC 4918', '11.3'],
  [424, 'Failed Dependency', 'RFC 4918', '11.4'],
  [425, 'Too Early', 'RFC 8470', '5.2'],
  [426, 'Upgrade Required', 'RFC 9110', '15.5.22'],
  [428, 'Precondition Required', 'RFC 6585', '3'],
  [429, 'Too Many Requests', 'RFC 6585', '4'],
  [431, 'Request Header Fields Too Large', 'RFC 6585', '5'],
  [451, 'Unavailable For Legal Reasons', 'RFC 7725', null],
  [500, 'Internal Server Error', 'RFC 9110', '15.6.1'],
  [501, 'Not Implemented', 'RFC 9110', '15.6.2'],
  [502, 'Bad Gateway', 'RFC 9110', '15.6.3'],
  [503, 'Service Unavailable', 'RFC 9110', '15.6.4'],
  [504, 'Gateway Timeout', 'RFC 9110', '15.6.5'],
  [505, 'HTTP Version Not Supported', 'RFC 9110', '15.6.6'],
  [506, 'Variant Also Negotiates', 'RFC 2295', '8.1'],
  [507, 'Insufficient Storage', 'RFC 4918', '11.5'],
  [508, 'Loop Detected', 'RFC 5842', '7.2'],
  [510, 'Not Extended (obsoleted)', 'RFC 2774', null, 'obsoleted'],
  [511, 'Network Authentication Required', 'RFC 6585', '6'],
]

export const HTTP_STATUS_SOURCE = {
  name: 'IANA Hypertext Transfer Protocol (HTTP) Status Code Registry',
  url: 'https://www.iana.org/assignments/http-status-codes/http-status-codes.xhtml',
  version: '2025-06 (hand-written copy)',
  licence: null,
  notes: [
    `node_reason: node:http STATUS_CODES of Node ${process.versions.node}`,
    'codes Node knows that IANA does not register are listed with registered: false',
  ],
}

const CLASSES: Record<number, Row['class']> = {
  1: 'informational',
  2: 'successful',
  3: 'redirection',
  4: 'client-error',
  5: 'server-error',
}

function row(code: number, reason: string, rfc: string | null, section: string | null, status: Status): Row {
  return {
    code,
    reason,
    node_reason: STATUS_CODES[code] ?? null,
    class: CLASSES[Math.floor(code / 100)] as Row['class'],
    registered: status !== 'unregistered',
    status,
    rfc,
    section,
  }
}

export function httpStatusCodes(): Row[] {
  const registered = new Set(REGISTRY.map(([code]) => code))
  const rows = REGISTRY.map(([code, reason, rfc, section, status = 'active']) => row(code, reason, rfc, section, status))
  for (const [code, text] of Object.entries(STATUS_CODES)) {
    const n = Number(code)
    if (!registered.has(n) && text !== undefined) rows.push(row(n, text, null, null, 'unregistered'))
  }
  return rows.sort((a, b) => a.code - b.code)
}
