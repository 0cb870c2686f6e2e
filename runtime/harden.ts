// Defence in depth against prototype pollution: once the service has started,
// the built-in prototypes can no longer be changed, so even a missed path from a
// client string to a property write cannot plant a property every object
// inherits (the way ?fields=__proto__.x once did, and took the process down).
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

const PROTOTYPES: readonly object[] = [
  Object.prototype,
  Array.prototype,
  Function.prototype,
  String.prototype,
  Number.prototype,
  Boolean.prototype,
  Symbol.prototype,
  BigInt.prototype,
  RegExp.prototype,
  Date.prototype,
  Promise.prototype,
  Map.prototype,
  Set.prototype,
  WeakMap.prototype,
  WeakSet.prototype,
  ArrayBuffer.prototype,
  Object.getPrototypeOf(Uint8Array.prototype) as object,
  Uint8Array.prototype,
  Object.getPrototypeOf(function* () {}) as object,
  Object.getPrototypeOf(async function () {}) as object,
]

/** Freezes the built-in prototypes (idempotent). */
export function freezeIntrinsics(): void {
  for (const prototype of PROTOTYPES) Object.freeze(prototype)
}

/** Whether they are frozen (for /api/ready's operators and the tests). */
export function intrinsicsFrozen(): boolean {
  return PROTOTYPES.every((p) => Object.isFrozen(p))
}
