import { defineFormat } from '../../runtime/define-format.ts'

export const jsonFormat = defineFormat({
  name: 'json',
  contentType: 'application/json; charset=utf-8',
  success: (envelope, ctx) => (ctx.pretty ? JSON.stringify(envelope, null, 2) : JSON.stringify(envelope)),
  error: (envelope, ctx) => (ctx.pretty ? JSON.stringify(envelope, null, 2) : JSON.stringify(envelope)),
  raw: (data, ctx) => (ctx.pretty ? JSON.stringify(data, null, 2) : JSON.stringify(data)),
})
