import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../../runtime/app.ts'

// README.md's typed-client example compiles as written: a reader who pastes it
// gets no type error. The block is compiled as a file at the project root (where
// its import paths start from), in memory, with the project's compiler options.

const README = join(ROOT, 'README.md')
/** Where the example is compiled as if it were; never written to disk. */
const EXAMPLE_FILE = join(ROOT, 'readme-typed-client.ts')

/** The ```ts blocks of the README that use openapi-fetch. */
function clientExamples(): string[] {
  const markdown = readFileSync(README, 'utf8')
  return [...markdown.matchAll(/^```(?:ts|typescript)\n([\s\S]*?)^```$/gm)].map((m) => m[1]!).filter((code) => code.includes("from 'openapi-fetch'"))
}

/** The compiler's errors in `source` when it is the file EXAMPLE_FILE. */
function typeErrors(source: string): string[] {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (file) => ts.sys.readFile(file))
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT)
  const host = ts.createCompilerHost(options)
  const { getSourceFile, fileExists, readFile } = host
  host.getSourceFile = (fileName, languageVersion, ...rest) =>
    fileName === EXAMPLE_FILE ? ts.createSourceFile(fileName, source, languageVersion) : getSourceFile.call(host, fileName, languageVersion, ...rest)
  host.fileExists = (fileName) => fileName === EXAMPLE_FILE || fileExists.call(host, fileName)
  host.readFile = (fileName) => (fileName === EXAMPLE_FILE ? source : readFile.call(host, fileName))
  const program = ts.createProgram([EXAMPLE_FILE], { ...options, noEmit: true }, host)
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(EXAMPLE_FILE))
    .map((d) => `${d.start !== undefined && d.file ? `line ${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`)
}

describe("README's typed-client example", () => {
  it('is there, once', () => {
    expect(clientExamples()).toHaveLength(1)
  })

  it('compiles as written against the generated types (strict)', () => {
    expect(typeErrors(clientExamples()[0]!)).toEqual([])
  }, 60_000)

  // What the example points out: the document lists JSON, YAML, XML and CSV
  // answers, and without the media type openapi-fetch types an answer as any of
  // them. The check above would catch an example that forgot it.
  it("would not compile without createClient's 'application/json'", () => {
    const example = clientExamples()[0]!
    expect(example).toContain("createClient<paths, 'application/json'>")
    expect(typeErrors(example.replace("createClient<paths, 'application/json'>", 'createClient<paths>'))).not.toEqual([])
  }, 60_000)
})
