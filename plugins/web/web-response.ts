// One HTTP exchange with a site, as the web checks see it. Header names are
// lowercased and kept in the order received, duplicates included (Set-Cookie,
// and a second CSP header, matter to the checks).

export interface HeaderField {
  name: string
  value: string
}

export interface TlsInfo {
  protocol: string | null
  cipher: string | null
  /** The ALPN protocol the server picked (h2, http/1.1), null when none. */
  alpn: string | null
  /** The chain verifies against the trusted roots and names the host. */
  authorized: boolean
  authorization_error: string | null
}

export interface WebTiming {
  /** Resolving the host with the service's resolver (0 for an IP literal). */
  dns_ms: number
  /** TCP handshake to the vetted address. */
  connect_ms: number
  /** TLS handshake; null over plain http. */
  tls_ms: number | null
  /** From sending the request to the response's status line and headers. */
  first_byte_ms: number
  /** Reading the (bounded) body. */
  download_ms: number
  total_ms: number
}

export type HttpVersion = '1.0' | '1.1' | '2'

/** What came back from the wire, before the body is bounded or decoded for anyone. */
export interface Exchange {
  status: number
  statusText: string
  httpVersion: HttpVersion
  headers: HeaderField[]
  body: Buffer
  /** The body was longer than the read limit; the rest was not read. */
  truncated: boolean
  /** The connection broke while the body was read (the headers are still good). */
  bodyError: string | null
  /** performance.now() when the headers were in, and when the body was. */
  headersAt: number
  endAt: number
}

export interface WebResponse {
  url: string
  status: number
  status_text: string
  http_version: HttpVersion
  headers: HeaderField[]
  body: Buffer
  truncated: boolean
  body_error: string | null
  /** The vetted address the socket went to, and its port. */
  address: string
  port: number
  timing: WebTiming
  tls: TlsInfo | null
}

/** Every value of a header, in order (names are compared lowercased). */
export function headerValues(headers: readonly HeaderField[], name: string): string[] {
  const lower = name.toLowerCase()
  return headers.filter((h) => h.name === lower).map((h) => h.value)
}

/** The first value of a header, or null. */
export function headerValue(headers: readonly HeaderField[], name: string): string | null {
  const lower = name.toLowerCase()
  return headers.find((h) => h.name === lower)?.value ?? null
}
