import { z } from 'zod'
import { defineEndpoint } from '../../../runtime/define-endpoint.ts'

export default defineEndpoint({
  name: 'test.invoker',
  tag: 'utilities',
  method: 'GET',
  path: '/api/test/invoker',
  summary: 'Fixture: runs the scenario a test sets, which calls ctx.invoke',
  params: z.object({}),
  data: z.record(z.string(), z.unknown()),
  cache: false,
  cost: 1,
})
