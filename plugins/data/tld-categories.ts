// The IANA Root Zone Database's TLD types (https://www.iana.org/domains/root/db)
// for the TLDs a rule cannot derive. Everything not named here is classified by
// the rules in tlds.ts (two ASCII letters: country-code; else generic).

export const INFRASTRUCTURE = ['arpa']

export const GENERIC_RESTRICTED = ['biz', 'name', 'pro']

export const SPONSORED = ['aero', 'asia', 'cat', 'coop', 'edu', 'gov', 'int', 'jobs', 'mil', 'museum', 'post', 'tel', 'travel', 'xxx']

/**
 * The eleven IDN test TLDs (ICANN's 2007 IDN evaluation, "example" in ten
 * scripts). Type "test" in the root zone database; removed from the root zone in
 * 2013, so neither the PSL nor the IANA TLD list has them.
 */
export const TEST_TLDS = [
  'xn--kgbechtv', // إختبار Arabic
  'xn--hgbk6aj7f53bba', // آزمایشی Persian
  'xn--0zwm56d', // 测试 Chinese (Simplified)
  'xn--g6w251d', // 測試 Chinese (Traditional)
  'xn--80akhbyknj4f', // испытание Russian
  'xn--11b5bs3a9aj6g', // परीक्षा Hindi
  'xn--jxalpdlp', // δοκιμή Greek
  'xn--9t4b11yi5a', // 테스트 Korean
  'xn--deba0ad', // טעסט Yiddish
  'xn--zckzah', // テスト Japanese
  'xn--hlcj6aya9esc7a', // பரிட்சை Tamil
]

/**
 * Names the PSL carries at the top level that are special-use domain names
 * (RFC 6761 registry), not root-zone TLDs.
 */
export const SPECIAL_USE = ['onion']

/**
 * IDN ccTLDs and the two-letter code each stands for, from the country-code
 * comments ("// xn--p1ai ("rf", Russian-Cyrillic) : RU") of the ICANN section of
 * the Public Suffix List. Copy read: Debian publicsuffix 20230209.2326-1,
 * /usr/share/publicsuffix/public_suffix_list.dat. IDN ccTLDs delegated after that
 * copy would be classified generic until added here.
 */
export const IDN_CCTLDS: Readonly<Record<string, string>> = {
  'xn--2scrj9c': 'IN',
  'xn--3e0b707e': 'KR',
  'xn--3hcrj9c': 'IN',
  'xn--45br5cyl': 'IN',
  'xn--45brj9c': 'IN',
  'xn--4dbrk0ce': 'IL',
  'xn--54b7fta0cc': 'BD',
  'xn--80ao21a': 'KZ',
  'xn--90a3ac': 'RS',
  'xn--90ae': 'BG',
  'xn--90ais': 'BY',
  'xn--clchc0ea0b2g2a9gcd': 'SG',
  'xn--d1alf': 'MK',
  'xn--e1a4c': 'EU',
  'xn--fiqs8s': 'CN',
  'xn--fiqz9s': 'CN',
  'xn--fpcrj9c3d': 'IN',
  'xn--fzc2c9e2c': 'LK',
  'xn--gecrj9c': 'IN',
  'xn--h2breg3eve': 'IN',
  'xn--h2brj9c': 'IN',
  'xn--h2brj9c8c': 'IN',
  'xn--j1amh': 'UA',
  'xn--j6w193g': 'HK',
  'xn--kprw13d': 'TW',
  'xn--kpry57d': 'TW',
  'xn--l1acc': 'MN',
  'xn--lgbbat1ad8j': 'DZ',
  'xn--mgb2ddes': 'YE',
  'xn--mgb9awbf': 'OM',
  'xn--mgba3a4f16a': 'IR',
  'xn--mgba3a4fra': 'IR',
  'xn--mgbaam7a8h': 'AE',
  'xn--mgbah1a3hjkrd': 'MR',
  'xn--mgbai9a5eva00b': 'PK',
  'xn--mgbai9azgqp6j': 'PK',
  'xn--mgbayh7gpa': 'JO',
  'xn--mgbbh1a': 'IN',
  'xn--mgbbh1a71e': 'IN',
  'xn--mgbc0a9azcg': 'MA',
  'xn--mgbcpq6gpa1a': 'BH',
  'xn--mgberp4a5d4a87g': 'SA',
  'xn--mgberp4a5d4ar': 'SA',
  'xn--mgbgu82a': 'IN',
  'xn--mgbpl2fh': 'SD',
  'xn--mgbqly7c0a67fbc': 'SA',
  'xn--mgbqly7cvafr': 'SA',
  'xn--mgbtf8fl': 'SY',
  'xn--mgbtx2b': 'IQ',
  'xn--mgbx4cd0ab': 'MY',
  'xn--mix082f': 'MO',
  'xn--mix891f': 'MO',
  'xn--nnx388a': 'TW',
  'xn--node': 'GE',
  'xn--o3cw4h': 'TH',
  'xn--ogbpf8fl': 'SY',
  'xn--p1ai': 'RU',
  'xn--pgbs0dh': 'TN',
  'xn--q7ce6a': 'LA',
  'xn--qxa6a': 'EU',
  'xn--qxam': 'GR',
  'xn--rvc1e0am3e': 'IN',
  'xn--s9brj9c': 'IN',
  'xn--wgbh1c': 'EG',
  'xn--wgbl6a': 'QA',
  'xn--xkc2al3hye2a': 'LK',
  'xn--xkc2dl3a5ee0h': 'IN',
  'xn--y9a3aq': 'AM',
  'xn--yfro4i67o': 'SG',
  'xn--ygbi2ammx': 'PS',
}
