// Which CAA issuer domains (RFC 8659 "issuer-domain-name") each CA operator
// answers to, and the issuer organization names (the O of the issuing
// certificate's subject) its certificates carry. Written by hand for infralens,
// small on purpose: the facts are public — each CA operator discloses its CAA
// identifiers to the CCADB ("CAA Identifiers" of its CA owner records, the
// Common CA Database's AllCertificateRecords report) and in its CP/CPS section
// 4.2 — and this table takes only the widely used operators. An issuer whose
// organization is not here is reported as `unknown_issuer`, never as a CA the
// CAA set does not allow. Review when a CA operator is added or rebrands.

export interface CaEntry {
  /** The CA operator, as the answer names it. */
  ca: string
  /** CAA issuer domains the operator's CAs check for (lower case). */
  caa: readonly string[]
  /** Issuer organization names (O=) of its issuing CAs, compared case-insensitively. */
  organizations: readonly string[]
}

export const CA_IDENTIFIERS: readonly CaEntry[] = [
  { ca: "Let's Encrypt (ISRG)", caa: ['letsencrypt.org'], organizations: ["Let's Encrypt", 'Internet Security Research Group'] },
  { ca: 'Google Trust Services', caa: ['pki.goog'], organizations: ['Google Trust Services', 'Google Trust Services LLC'] },
  {
    ca: 'DigiCert',
    caa: ['digicert.com', 'www.digicert.com', 'symantec.com', 'geotrust.com', 'rapidssl.com', 'thawte.com', 'digicert.ne.jp'],
    organizations: ['DigiCert Inc', 'DigiCert, Inc.', 'GeoTrust Inc.', 'thawte, Inc.', 'Symantec Corporation'],
  },
  {
    ca: 'Sectigo',
    caa: ['sectigo.com', 'comodoca.com', 'comodo.com', 'usertrust.com', 'trust-provider.com'],
    organizations: ['Sectigo Limited', 'COMODO CA Limited', 'The USERTRUST Network', 'ZeroSSL'],
  },
  { ca: 'GlobalSign', caa: ['globalsign.com'], organizations: ['GlobalSign nv-sa', 'GlobalSign'] },
  { ca: 'Amazon Trust Services', caa: ['amazon.com', 'amazontrust.com', 'awstrust.com', 'amazonaws.com'], organizations: ['Amazon'] },
  { ca: 'GoDaddy', caa: ['godaddy.com', 'starfieldtech.com'], organizations: ['GoDaddy.com, Inc.', 'Starfield Technologies, Inc.'] },
  { ca: 'Entrust', caa: ['entrust.net', 'affirmtrust.com'], organizations: ['Entrust, Inc.', 'AffirmTrust'] },
  { ca: 'Microsoft', caa: ['microsoft.com'], organizations: ['Microsoft Corporation'] },
  { ca: 'Buypass', caa: ['buypass.com', 'buypass.no'], organizations: ['Buypass AS-983163327'] },
  { ca: 'SSL.com', caa: ['ssl.com'], organizations: ['SSL Corporation'] },
  { ca: 'HARICA', caa: ['harica.gr'], organizations: ['Hellenic Academic and Research Institutions CA', 'Hellenic Academic and Research Institutions Cert. Authority'] },
  { ca: 'Certum (Asseco)', caa: ['certum.pl', 'certum.eu'], organizations: ['Asseco Data Systems S.A.', 'Unizeto Technologies S.A.'] },
]

const byOrganization = new Map(CA_IDENTIFIERS.flatMap((e) => e.organizations.map((o) => [o.toLowerCase(), e] as const)))

/** The CA operator whose issuing CAs carry this organization name; null when it is not on the table. */
export function caOf(organization: string | null): CaEntry | null {
  if (organization === null) return null
  return byOrganization.get(organization.trim().toLowerCase()) ?? null
}
