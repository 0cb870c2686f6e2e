import type { DnsClient } from '../../runtime/net/dns/dns-client.ts'
import { parseIp } from '../../runtime/ip/parse.ts'
import { reversePointer } from '../../runtime/ip/reverse-pointer.ts'
import { formatIp } from '../../runtime/ip/format.ts'
import type { RecordsAnswer } from './resolve-records.ts'
import { resolveRecords } from './resolve-records.ts'

const sameAddress = (a: string, b: string) => {
  const x = parseIp(a)
  const y = parseIp(b)
  return x.ok && y.ok && x.value.version === y.value.version && x.value.value === y.value.value
}

/** PTR names of an IP, each forward-confirmed: does the name resolve back to the IP? */
export async function reverseDns(dns: DnsClient, ip: string, signal: AbortSignal) {
  const parsed = parseIp(ip)
  if (!parsed.ok) throw new TypeError(parsed.error.reason)
  const name = reversePointer(parsed.value)
  const answer = await resolveRecords(dns, name, 'PTR', signal)
  const forwardType = parsed.value.version === 4 ? 'A' : 'AAAA'
  const ptr = await Promise.all(
    answer.records.map(async (record) => {
      const target = String(record.target)
      try {
        const forward: RecordsAnswer = await resolveRecords(dns, target, forwardType, signal)
        const addresses = forward.records.map((r) => String(r.address))
        return { name: target, ttl: record.ttl, forward_confirmed: addresses.some((a) => sameAddress(a, ip)), forward_addresses: addresses }
      } catch (error) {
        return { name: target, ttl: record.ttl, forward_confirmed: false, forward_addresses: [], error: (error as Error).message }
      }
    }),
  )
  return {
    ip: formatIp(parsed.value),
    reverse_name: name,
    rcode: answer.rcode,
    status: answer.status,
    fcrdns: ptr.some((p) => p.forward_confirmed),
    ptr,
    resolver: answer.resolver,
    ttl: answer.ttl,
  }
}
