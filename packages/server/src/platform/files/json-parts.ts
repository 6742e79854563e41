/**
 * JSON text given in parts, to be read joined in their order: texts, and UTF-8 bytes handed over
 * by whoever gives them. A large file read back from the store goes to where it is parsed as it
 * is, without first becoming one text in the event loop's thread (turning 10 MiB of bytes into a
 * text and copying that text took 100–200 ms of it).
 */
export type JsonParts = readonly (string | Uint8Array)[];

/**
 * Whether bytes can be handed to another thread or isolate as they are (their memory moved, not
 * copied): not shared memory, nor the slab Node cuts small Buffers from (`Buffer.poolSize`), which
 * other Buffers share. Whoever hands bytes over must not read them again.
 */
export function handOverable(bytes: Uint8Array): boolean {
  return !(bytes.buffer instanceof SharedArrayBuffer) && bytes.buffer.byteLength > Buffer.poolSize;
}
