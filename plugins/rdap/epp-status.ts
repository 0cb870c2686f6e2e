// RDAP status values (the IANA "RDAP JSON Values" registry, type "status") with the
// EPP status each one maps from (RFC 8056 §2) and what it means to a domain holder.
// Registries send the RDAP spelling ("client transfer prohibited"); some send the
// EPP name ("clientTransferProhibited"), or the EPP name followed by ICANN's URL.
// Both are read, and the answer carries both spellings.

interface StatusInfo {
  epp: string | null
  meaning: string
}

const STATUS: Record<string, StatusInfo> = {
  active: { epp: 'ok', meaning: 'No pending operations or prohibitions; the object is in normal use.' },
  inactive: { epp: 'inactive', meaning: 'The domain has no name servers, so it is not in DNS.' },
  validated: { epp: null, meaning: 'The data of the object has been checked by the registry or registrar.' },
  'renew prohibited': { epp: null, meaning: 'Renewal of the object is not allowed.' },
  'update prohibited': { epp: null, meaning: 'Changes to the object are not allowed.' },
  'transfer prohibited': { epp: null, meaning: 'Transfer to another registrar or holder is not allowed.' },
  'delete prohibited': { epp: null, meaning: 'Deletion of the object is not allowed.' },
  proxy: { epp: null, meaning: 'The registrant is a proxy or privacy service acting for someone else.' },
  private: { epp: null, meaning: 'The object is not shown in full for privacy reasons.' },
  removed: { epp: null, meaning: 'Some data of the object has been removed from the answer.' },
  obscured: { epp: null, meaning: 'Some data of the object has been altered in the answer.' },
  associated: { epp: 'linked', meaning: 'The object is linked to other registered objects.' },
  locked: { epp: null, meaning: 'Changes to the object are not allowed.' },
  administrative: { epp: null, meaning: 'The object is held by the registry operator for its own use.' },
  reserved: { epp: null, meaning: 'The object is reserved by the registry and cannot be registered.' },
  'pending create': { epp: 'pendingCreate', meaning: 'A request to create the object is being processed.' },
  'pending renew': { epp: 'pendingRenew', meaning: 'A request to renew the object is being processed.' },
  'pending transfer': { epp: 'pendingTransfer', meaning: 'A transfer to another registrar is being processed.' },
  'pending update': { epp: 'pendingUpdate', meaning: 'A request to change the object is being processed.' },
  'pending delete': { epp: 'pendingDelete', meaning: 'The domain is about to be deleted and released (after the redemption period).' },
  'pending restore': { epp: 'pendingRestore', meaning: 'The registrar asked to restore the deleted domain; the registry is waiting for the restore report.' },
  'add period': { epp: 'addPeriod', meaning: 'Grace period after first registration; deleting now refunds the registrar.' },
  'auto renew period': { epp: 'autoRenewPeriod', meaning: 'Grace period after the registry renewed the domain automatically at expiry.' },
  'renew period': { epp: 'renewPeriod', meaning: 'Grace period after an explicit renewal.' },
  'transfer period': { epp: 'transferPeriod', meaning: 'Grace period after a transfer to a new registrar.' },
  'redemption period': { epp: 'redemptionPeriod', meaning: 'The registrar deleted the domain; it can still be restored before it is purged.' },
  'client delete prohibited': { epp: 'clientDeleteProhibited', meaning: 'The registrar refuses requests to delete the domain (a registrar lock).' },
  'client hold': { epp: 'clientHold', meaning: 'The registrar took the domain out of DNS; it does not resolve.' },
  'client renew prohibited': { epp: 'clientRenewProhibited', meaning: 'The registrar refuses requests to renew the domain.' },
  'client transfer prohibited': { epp: 'clientTransferProhibited', meaning: 'The registrar refuses transfers to another registrar (a transfer lock).' },
  'client update prohibited': { epp: 'clientUpdateProhibited', meaning: 'The registrar refuses changes to the domain.' },
  'server delete prohibited': { epp: 'serverDeleteProhibited', meaning: 'The registry refuses deletion of the domain (a registry lock).' },
  'server hold': { epp: 'serverHold', meaning: 'The registry took the domain out of DNS; it does not resolve.' },
  'server renew prohibited': { epp: 'serverRenewProhibited', meaning: 'The registry refuses renewal of the domain.' },
  'server transfer prohibited': { epp: 'serverTransferProhibited', meaning: 'The registry refuses transfers of the domain (a registry lock).' },
  'server update prohibited': { epp: 'serverUpdateProhibited', meaning: 'The registry refuses changes to the domain (a registry lock).' },
}

const BY_EPP = new Map(Object.entries(STATUS).flatMap(([code, info]) => (info.epp ? [[info.epp.toLowerCase(), code] as const] : [])))

export interface StatusCode {
  /** The RDAP spelling (RFC 8056), lowercased. */
  code: string
  /** The EPP status code it corresponds to, when there is one. */
  epp: string | null
  meaning: string | null
}

/** One status as sent, in either spelling, to both spellings and a meaning. */
export function describeStatus(raw: string): StatusCode {
  // "clientTransferProhibited https://icann.org/epp#clientTransferProhibited"
  const word = raw.trim().split(/\s+https?:\/\//i)[0]!.trim()
  const spaced = word.toLowerCase()
  if (STATUS[spaced]) return { code: spaced, epp: STATUS[spaced].epp, meaning: STATUS[spaced].meaning }
  const fromEpp = BY_EPP.get(word.replace(/\s+/g, '').toLowerCase())
  if (fromEpp) return { code: fromEpp, epp: STATUS[fromEpp]!.epp, meaning: STATUS[fromEpp]!.meaning }
  return { code: spaced, epp: null, meaning: null }
}
