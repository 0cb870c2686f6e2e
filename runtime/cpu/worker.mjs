// The CPU pool's worker entry. A worker thread starts as plain Node whatever its
// parent runs under (tsx for `npm start`, vitest's module runner for the tests,
// neither of which a new thread inherits reliably), so it registers tsx's loader
// itself before importing the TypeScript. Plain .mjs on purpose: it is the one
// file Node must load without help.
import { register } from 'tsx/esm/api'

register()
const { default: run } = await import('./worker.ts')
export default run
