// Defence in depth against prototype pollution: once the service has started,
// the built-in prototypes can no longer be changed, so even a missed path from a
// client string to a property write cannot plant a property every object
// inherits (the way ?fields=__proto__.x once did, and took the process down).
// Opt-in (INFRALENS_FREEZE_INTRINSICS=true): on Node 20 a service with them frozen
// spends ~7-14 % more CPU per small request (instruction counts and CPU time of
// /api/uuid, bench/RESULTS.md "Hardening on the request pipeline"), and the issue
// that asked for it asked for it only at no cost on the hot path.
//
// Frozen after start-up rather than at launch (node --frozen-intrinsics): every
// module has loaded and set itself up by then. What is frozen is the prototypes
// objects and arrays inherit from, the targets of a pollution gadget. The Error
// prototypes are left alone: assigning err.name or err.message on an instance (as
// libraries' error classes do) would throw once those properties are read-only on
// the prototype (the "override mistake"); for the same reason a library assigning
// obj.toString = ... on a plain object would now throw in strict code. Every
// endpoint's example, in every format, and every documented error are answered
// with them frozen (test/hardening/frozen-intrinsics.test.ts). The CPU pool's workers freeze their own
// realm the same way once set up (runtime/cpu/worker.ts).

// How: Object.freeze for every prototype but three. Measured on Node 20 (V8 11.3,
// bench/frozen-intrinsics.bench.ts): Object.freeze(Object.prototype) makes every
// element store into a Buffer or Uint8Array take V8's slow path (~20x per store in
// a loop), so Object.prototype has its properties made read-only and
// non-configurable one by one, then is made non-extensible (Object.isFrozen is
// true, as after freeze; locking every prototype that way measured slower on the
// request pipeline than freezing them, bench/RESULTS.md). The typed-array
// prototypes are only sealed (nothing added or removed; their methods stay
// writable): any read-only property on them slows those stores 6-60x, and a
// pollution gadget cannot reach them from parsed input, which has no typed arrays.
// RegExp.prototype is left as it is: V8 runs split, replace and match on its fast
// path only while that prototype is untouched (even Object.preventExtensions on it
// made split(/\r?\n/) of a 100k-line body ~20x slower), and no parsed value is a
// RegExp either.

const FROZEN: readonly object[] = [
  Array.prototype,
  Function.prototype,
  String.prototype,
  Number.prototype,
  Boolean.prototype,
  Symbol.prototype,
  BigInt.prototype,
  Date.prototype,
  Promise.prototype,
  Map.prototype,
  Set.prototype,
  WeakMap.prototype,
  WeakSet.prototype,
  ArrayBuffer.prototype,
  Object.getPrototypeOf(function* () {}) as object,
  Object.getPrototypeOf(async function () {}) as object,
]

const SEALED: readonly object[] = [Object.getPrototypeOf(Uint8Array.prototype) as object, Uint8Array.prototype]

/** Every own property read-only and non-configurable, then no new ones: what Object.freeze does, property by property. */
function lock(prototype: object): void {
  for (const key of Reflect.ownKeys(prototype)) {
    const descriptor = Object.getOwnPropertyDescriptor(prototype, key)!
    if (!descriptor.configurable && (!('value' in descriptor) || !descriptor.writable)) continue
    Object.defineProperty(prototype, key, 'value' in descriptor ? { writable: false, configurable: false } : { configurable: false })
  }
  Object.preventExtensions(prototype)
}

/** Freezes the built-in prototypes (Object.prototype property by property), seals the typed-array ones (idempotent). */
export function freezeIntrinsics(): void {
  lock(Object.prototype)
  for (const prototype of FROZEN) Object.freeze(prototype)
  for (const prototype of SEALED) Object.seal(prototype)
}

/** Whether they are frozen (for /api/ready's operators and the tests). */
export function intrinsicsFrozen(): boolean {
  return Object.isFrozen(Object.prototype) && FROZEN.every((p) => Object.isFrozen(p)) && SEALED.every((p) => Object.isSealed(p))
}
