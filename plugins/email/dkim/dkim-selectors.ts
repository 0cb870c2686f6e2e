// Selectors commonly used by mail platforms. DKIM keys live at
// <selector>._domainkey.<domain> and nothing lists them, so a check can only try
// names; a domain whose selectors are all custom shows as "none found", which is
// why ?selectors= exists (the selector is in the s= tag of any signed message).

export const COMMON_SELECTORS = [
  'default',
  'dkim',
  'dkim1',
  'dkim2',
  'mail',
  'email',
  'selector1', // Microsoft 365
  'selector2',
  'google', // Google Workspace
  'k1', // Mailchimp / Mandrill
  'k2',
  'k3',
  'mandrill',
  's1', // SendGrid
  's2',
  'smtpapi',
  'mg', // Mailgun
  'mta',
  'pic',
  'krs',
  'smtp',
  'key1',
  'key2',
  'sig1',
  'mxvault',
  'everlytickey1',
  'everlytickey2',
  'mailjet',
  'zoho',
  'zmail',
  'protonmail', // Proton
  'protonmail2',
  'protonmail3',
  'fm1', // Fastmail
  'fm2',
  'fm3',
  'pm', // Postmark
  'cm', // Campaign Monitor
  'hs1', // HubSpot
  'hs2',
  'zendesk1',
  'zendesk2',
] as const
