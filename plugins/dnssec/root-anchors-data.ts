// The built-in trust anchors: the IANA root zone KSKs as DS records, from
// https://data.iana.org/root-anchors/root-anchors.xml (KeyDigest elements
// Klajeyz = KSK-2017, key tag 20326, valid from 2017-02-02; and KSK-2024, key tag
// 38696, valid from 2024-07-18). Both are algorithm 8 (RSASHA256), digest type 2
// (SHA-256). Cross-checked against BIND 9.18's /etc/bind/bind.keys: its KSK-2017
// DNSKEY hashes to the first digest (dnssec-dsfromkey -2) and its initial-ds for
// 38696 is the second. INFRALENS_TRUST_ANCHORS replaces these with a file.

export const ROOT_ANCHORS_SOURCE = 'IANA root-anchors.xml (KSK-2017, KSK-2024)'

export const ROOT_ANCHORS = `
. IN DS 20326 8 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D
. IN DS 38696 8 2 683D2D0ACB8C9B712A1948B27F741219298D0A450D612C483AF444A4C0FB2B16
`
