/**
 * JSON text sequences (RFC 7464, `application/json-seq`) read as NDJSON. Loaded by `WireClient` with the
 * first such response.
 */

/**
 * Drops RS (0x1E), which RFC 7464 puts before each record. The byte never occurs inside UTF-8 multi-byte
 * characters or valid JSON text, so what is left is plain NDJSON.
 */
export function stripRecordSeparators(): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      controller.enqueue(chunk.includes(0x1e) ? chunk.filter((byte) => byte !== 0x1e) : chunk);
    },
  });
}
