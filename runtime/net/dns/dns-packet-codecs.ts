// Typed access to dns-packet's per-record codecs. The package exports them (name, mx,
// soa, ...) and they are stable since 5.x, but @types/dns-packet only declares the
// whole-message API; this is the one place that bridges the two.

import * as dnsPacket from 'dns-packet'
import type { CaaData, DsData, HInfoData, MxData, NaptrData, Nsec3Data, NsecData, RrsigData, SoaData, SrvData, TlsaData } from 'dns-packet'

/** A dns-packet decoder: offset points at the RDLENGTH field; `bytes` is what it consumed, RDLENGTH included. */
export interface RdataDecoder<T> {
  decode: ((buf: Buffer, offset?: number) => T) & { bytes: number }
}

interface NameCodec {
  decode: ((buf: Buffer, offset?: number, options?: { mail?: boolean }) => string) & { bytes: number }
}

interface PacketCodecs {
  name: NameCodec
  a: RdataDecoder<string>
  aaaa: RdataDecoder<string>
  ptr: RdataDecoder<string>
  mx: RdataDecoder<Required<MxData>>
  txt: RdataDecoder<Buffer[]>
  soa: RdataDecoder<Required<SoaData>>
  caa: RdataDecoder<Required<CaaData>>
  srv: RdataDecoder<Required<SrvData>>
  ds: RdataDecoder<DsData>
  rrsig: RdataDecoder<RrsigData>
  nsec: RdataDecoder<NsecData>
  nsec3: RdataDecoder<Nsec3Data>
  tlsa: RdataDecoder<TlsaData>
  hinfo: RdataDecoder<HInfoData>
  naptr: RdataDecoder<NaptrData>
}

export const codecs = dnsPacket as unknown as PacketCodecs
