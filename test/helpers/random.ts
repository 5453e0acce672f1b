/**
 * Seeded randomness for tests: the same seed always gives the same numbers, so a test that cuts a stream
 * at random places fails the same way on every run. Pure, no I/O: usable in Node, in the browser and in
 * the test server.
 */

/** A seeded PRNG (mulberry32) returning numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Cuts text or bytes into consecutive pieces of 1..max characters or bytes (seeded), which joined give
 * the whole back. Byte pieces are views (`subarray`), and may cut a UTF-8 sequence.
 */
export function randomPieces(text: string, max: number, seed: number): string[];
export function randomPieces<B extends Uint8Array>(bytes: B, max: number, seed: number): B[];
export function randomPieces(whole: string | Uint8Array, max: number, seed: number): Array<string | Uint8Array> {
  const next = seededRandom(seed);
  const out: Array<string | Uint8Array> = [];
  for (let at = 0; at < whole.length; ) {
    const size = 1 + Math.floor(next() * Math.max(1, max));
    out.push(typeof whole === 'string' ? whole.slice(at, at + size) : whole.subarray(at, at + size));
    at += size;
  }
  return out;
}
