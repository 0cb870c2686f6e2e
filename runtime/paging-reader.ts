import type { AnyEndpoint } from './define-endpoint.ts'
import type { Pagination } from './envelope.ts'

// meta.pagination of an endpoint that pages itself (descriptor `pagination`):
// read out of its data at the dotted paths the descriptor names, for a route's
// answer (runtime/pipeline.ts) and an invoked one (runtime/invoke.ts).

function readPath(data: unknown, path: string): unknown {
  let current = data
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined
    current = (current as Record<string, unknown>)[key]
  }
  return current
}

export function pagingReader(paths: NonNullable<AnyEndpoint['pagination']>): (data: unknown) => Pagination {
  return (data) => ({
    total: readPath(data, paths.total) as number | string,
    limit: readPath(data, paths.limit) as number | undefined,
    offset: readPath(data, paths.offset) as number | string,
  })
}
