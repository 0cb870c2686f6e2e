// The API reference page: Scalar's API reference rendering the OpenAPI document.
// Everything it loads comes from this service (the bundle, the document: their
// paths are their descriptors', registry/meta/); the Content-Security-Policy
// below makes the browser refuse anything else, so the page never reaches out to
// a CDN, a font host or Scalar's proxy.

/** Where the page finds what it links to: the paths of those endpoints' descriptors. */
export interface DocsPagePaths {
  /** The Scalar bundle (meta.docs-script). */
  script: string
  /** The OpenAPI document (meta.openapi). */
  document: string
  /** The endpoint list, for browsers without JavaScript (meta.endpoints). */
  endpoints: string
}

/** Scalar's configuration (https://github.com/scalar/scalar, ApiReferenceConfiguration). */
export const SCALAR_CONFIGURATION = {
  // The default fonts come from fonts.scalar.com; the system's fonts do.
  withDefaultFonts: false,
  // "Ask AI" talks to Scalar's servers.
  agent: { disabled: true },
  telemetry: false,
  // The "Open API Client" button links to client.scalar.com; "Test Request" stays.
  hideClientButton: true,
  showDeveloperTools: 'never',
  layout: 'modern',
  theme: 'default',
  tagsSorter: 'alpha',
  documentDownloadType: 'json',
  defaultOpenFirstTag: true,
  orderRequiredPropertiesFirst: true,
  metaData: { title: 'infralens API reference' },
} as const

// 'unsafe-inline' styles: the bundle injects its CSS in <style> elements.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ')

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** The page. `scriptVersion` goes into the script URL so a new bundle is not answered from a browser's cache. */
export function docsPage(scriptVersion: string, paths: DocsPagePaths): string {
  const configuration = escapeAttribute(JSON.stringify(SCALAR_CONFIGURATION))
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>infralens API reference</title>
</head>
<body>
<noscript>The API reference needs JavaScript. The OpenAPI document is at <a href="${paths.document}">${paths.document}</a>, and <a href="${paths.endpoints}">${paths.endpoints}</a> lists every endpoint.</noscript>
<script id="api-reference" data-url="${paths.document}" data-configuration="${configuration}"></script>
<script src="${paths.script}?v=${encodeURIComponent(scriptVersion)}"></script>
</body>
</html>
`
}
