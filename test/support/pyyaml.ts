import { spawnSync } from 'node:child_process'

// PyYAML (Debian's python3-yaml) as a strict YAML oracle. js-yaml and the `yaml`
// package accept characters YAML forbids (DEL, C1 controls, U+FFFE) and read
// U+0085/U+2028/U+2029 as YAML 1.2 does; PyYAML refuses the first and reads the
// second as YAML 1.1 line breaks, like the many clients built on it or on libyaml.
// Both of its loaders must agree: the pure-Python SafeLoader and libyaml's
// CSafeLoader (two independent readers).

const MISSING = 'PyYAML with libyaml is needed for the strict YAML tests: apt-get install python3-yaml (.ci/run does this)'

// Input: a JSON list of base64 documents (the bytes a client receives, so the
// reader's own UTF-8 decoding and character checks run). Output: one JSON entry
// per document. A value that is not JSON (a date, bytes, a set) is written as a
// marker so the comparison fails instead of the script.
const SCRIPT = `
import base64, json, sys
import yaml
if not yaml.__with_libyaml__:
    sys.exit(3)
def marker(o):
    return {'__not_json__': type(o).__name__, 'repr': repr(o)}
def load(loader, raw):
    try:
        return {'value': json.loads(json.dumps(yaml.load(raw, Loader=loader), default=marker, allow_nan=False))}
    except Exception as e:
        return {'error': '%s: %s' % (type(e).__name__, e)}
out = []
for doc in json.load(sys.stdin):
    raw = base64.b64decode(doc)
    out.append({'python': load(yaml.SafeLoader, raw), 'libyaml': load(yaml.CSafeLoader, raw)})
print(json.dumps(out))
`

export type PyYamlResult = { value: unknown } | { error: string }

/** Parses each document with both PyYAML loaders; throws when they disagree. */
export function pyyamlLoadAll(docs: ReadonlyArray<string | Uint8Array>): PyYamlResult[] {
  const input = JSON.stringify(docs.map((d) => Buffer.from(d).toString('base64')))
  const run = spawnSync('python3', ['-c', SCRIPT], { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 60_000 })
  if (run.error) throw new Error(`${MISSING} (python3: ${run.error.message})`)
  if (run.status === 3 || /ModuleNotFoundError: No module named 'yaml'/.test(run.stderr)) throw new Error(MISSING)
  if (run.status !== 0) throw new Error(`python3 failed (${run.status}): ${run.stderr}`)
  const results = JSON.parse(run.stdout) as Array<{ python: PyYamlResult; libyaml: PyYamlResult }>
  return results.map(({ python, libyaml }, i) => {
    // Same verdict from both readers; error wording differs between them.
    const same = 'error' in python ? 'error' in libyaml : 'value' in libyaml && JSON.stringify(python.value) === JSON.stringify(libyaml.value)
    if (!same) throw new Error(`PyYAML loaders disagree on document ${i}: python=${JSON.stringify(python)} libyaml=${JSON.stringify(libyaml)}`)
    return python
  })
}

/** One document: its value, or an error carrying PyYAML's message. */
export function pyyamlLoad(doc: string | Uint8Array): unknown {
  const [result] = pyyamlLoadAll([doc])
  if (!result || 'error' in result) throw new Error(`PyYAML refused the document: ${result?.error}`)
  return result.value
}
