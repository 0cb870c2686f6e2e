// A minimal MaxMind DB writer (format spec 2.0, https://maxmind.github.io/MaxMind-DB/)
// for tests: an IPv6 search tree with 24-bit records (IPv4 networks under ::/96, where
// readers look for them), and a data section of maps, strings and unsigned integers.
// No npm package writes mmdb files (only readers are installed), and a test needs a
// second database shaped differently from the bundled one.

export type MmdbValue = string | number | bigint | MmdbValue[] | { [key: string]: MmdbValue }

export interface MmdbNetwork {
  /** "192.0.2.0/24" or "2001:db8::/32"; networks must not overlap. */
  cidr: string
  data: MmdbValue
}

export interface MmdbOptions {
  databaseType: string
  buildEpochSeconds: number
  description?: Record<string, string>
}

type Leaf = { data: MmdbValue }
interface Node {
  children: [Node | Leaf | null, Node | Leaf | null]
}

function ipv6Bits(text: string): bigint {
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined]
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n)
}

function networkBits(cidr: string): { value: bigint; length: number } {
  const [address, prefix] = cidr.split('/') as [string, string]
  if (address.includes(':')) return { value: ipv6Bits(address), length: Number(prefix) }
  const v4 = address.split('.').reduce((acc, o) => (acc << 8n) | BigInt(o), 0n)
  return { value: v4, length: 96 + Number(prefix) }
}

function controlBytes(type: number, size: number): Buffer {
  const head = (code: number) => (type <= 7 ? Buffer.from([(type << 5) | code]) : Buffer.from([code, type - 7]))
  if (size < 29) return head(size)
  if (size < 285) return Buffer.concat([head(29), Buffer.from([size - 29])])
  const rest = size - 285
  return Buffer.concat([head(30), Buffer.from([rest >> 8, rest & 0xff])])
}

function unsignedBytes(value: bigint): Buffer {
  const bytes: number[] = []
  for (let v = value; v > 0n; v >>= 8n) bytes.unshift(Number(v & 0xffn))
  return Buffer.from(bytes)
}

function encode(value: MmdbValue, type?: 'uint16' | 'uint32' | 'uint64'): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8')
    return Buffer.concat([controlBytes(2, bytes.length), bytes])
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    const bytes = unsignedBytes(BigInt(value))
    const code = { uint16: 5, uint32: 6, uint64: 9 }[type ?? 'uint32']
    return Buffer.concat([controlBytes(code, bytes.length), bytes])
  }
  if (Array.isArray(value)) return Buffer.concat([controlBytes(11, value.length), ...value.map((v) => encode(v))])
  const entries = Object.entries(value)
  return Buffer.concat([controlBytes(7, entries.length), ...entries.flatMap(([k, v]) => [encode(k), encode(v)])])
}

export function writeMmdb(networks: readonly MmdbNetwork[], options: MmdbOptions): Buffer {
  const root: Node = { children: [null, null] }
  for (const { cidr, data } of networks) {
    const { value, length } = networkBits(cidr)
    let node = root
    for (let depth = 0; depth < length; depth++) {
      const bit = Number((value >> BigInt(127 - depth)) & 1n)
      if (depth === length - 1) {
        node.children[bit] = { data }
        break
      }
      const next = node.children[bit] ?? null
      if (next === null) node = node.children[bit] = { children: [null, null] }
      else if ('children' in next) node = next
      else throw new Error(`${cidr} overlaps another network`)
    }
  }

  const nodes: Node[] = []
  for (const queue: Node[] = [root]; queue.length > 0; ) {
    const node = queue.shift()!
    nodes.push(node)
    for (const child of node.children) if (child && 'children' in child) queue.push(child)
  }
  const index = new Map(nodes.map((n, i) => [n, i]))
  const dataParts: Buffer[] = []
  let dataSize = 0
  const leafOffset = new Map<Leaf, number>()
  const record = (child: Node | Leaf | null): number => {
    if (child === null) return nodes.length
    if ('children' in child) return index.get(child)!
    let offset = leafOffset.get(child)
    if (offset === undefined) {
      const bytes = encode(child.data)
      offset = dataSize
      leafOffset.set(child, offset)
      dataParts.push(bytes)
      dataSize += bytes.length
    }
    // Data pointers start past the node count and the 16-byte separator.
    return nodes.length + 16 + offset
  }
  const tree = Buffer.alloc(nodes.length * 6)
  nodes.forEach((node, i) => {
    tree.writeUIntBE(record(node.children[0]), i * 6, 3)
    tree.writeUIntBE(record(node.children[1]), i * 6 + 3, 3)
  })

  const metadata = Buffer.concat([
    controlBytes(7, 9),
    encode('node_count'),
    encode(nodes.length, 'uint32'),
    encode('record_size'),
    encode(24, 'uint16'),
    encode('ip_version'),
    encode(6, 'uint16'),
    encode('database_type'),
    encode(options.databaseType),
    encode('languages'),
    encode(Object.keys(options.description ?? {})),
    encode('binary_format_major_version'),
    encode(2, 'uint16'),
    encode('binary_format_minor_version'),
    encode(0, 'uint16'),
    encode('build_epoch'),
    encode(options.buildEpochSeconds, 'uint64'),
    encode('description'),
    encode(options.description ?? {}),
  ])
  const marker = Buffer.concat([Buffer.from([0xab, 0xcd, 0xef]), Buffer.from('MaxMind.com')])
  return Buffer.concat([tree, Buffer.alloc(16), ...dataParts, marker, metadata])
}
