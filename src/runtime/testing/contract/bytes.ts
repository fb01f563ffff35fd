// The bytes the contract cases write and read back.

/** Bytes decoded as UTF-8. */
export const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
/** Every byte value once, 0 to 255: binary content must survive byte-exact. */
export const allBytes = () => Uint8Array.from({ length: 256 }, (_, i) => i);
