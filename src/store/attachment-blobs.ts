/**
 * Attachments in the session store: the base64 `data:` URLs of a user message's image and file parts are
 * kept as `Blob`s in records of their own (key `["blob", id, seq, part]`), and the message record keeps
 * the part with an empty URL plus the list of parts to fill in. `list()` never reads them, `append` writes
 * a turn's blobs once, and `load`/`export` put the data URLs back, byte for byte.
 */
import type { ChatMessage } from '../agent/messages.js';
import type { UserContentPart } from '../agent/content-parts.js';
import { dataUrlBytes } from '../agent/content-parts.js';
import { StoreError } from '../errors.js';
import { RECORD_VERSION, type MessageRecord } from './records.js';
import type { MessageFeedback } from './feedback.js';

/** Key of one attachment's data: session id, message sequence number, index of the part. */
export type BlobKey = ['blob', string, number, number];

/** One attachment's data, key {@link BlobKey}. */
export interface BlobRecord {
  version: 1;
  /** The data URL's header without the comma, e.g. `data:image/png;base64` (kept so the URL comes back exact). */
  header: string;
  /**
   * The bytes, typed `application/octet-stream` whatever the header says (the header alone types the data
   * URL that comes back): a Blob typed after an attacker's `data:image/svg+xml` would render as a page.
   */
  blob: Blob;
}

const BASE64_DATA = /^data:[^,]*;base64$/;

export const blobKey = (id: string, seq: number, part: number): BlobKey => ['blob', id, seq, part];
/** Every blob key of one session (an array sorts after every number). */
export const blobRange = (id: string): IDBKeyRange => IDBKeyRange.bound(['blob', id], ['blob', id, []]);

function dataOf(part: UserContentPart): string | undefined {
  if (part.type === 'image_url') return part.image_url.url;
  if (part.type === 'file') return part.file.file_data;
  return undefined;
}

function withData(part: UserContentPart, data: string): UserContentPart {
  if (part.type === 'image_url') return { ...part, image_url: { ...part.image_url, url: data } };
  if (part.type === 'file') return { ...part, file: { ...part.file, file_data: data } };
  return part;
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function encodeBase64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let out = '';
  const CHUNK = 0x6000; // a multiple of 3, so no chunk but the last is padded
  for (let i = 0; i < bytes.length; i += CHUNK) out += btoa(String.fromCharCode(...bytes.subarray(i, i + CHUNK)));
  return out;
}

/** The attachments' data of a message that would move to blob records: `[part index, data URL]`. */
function externalParts(message: ChatMessage): Array<[number, string]> {
  if (message.role !== 'user' || typeof message.content === 'string') return [];
  const out: Array<[number, string]> = [];
  message.content.forEach((part, i) => {
    const data = dataOf(part);
    if (data === undefined) return;
    const comma = data.indexOf(',');
    if (comma > 0 && BASE64_DATA.test(data.slice(0, comma))) out.push([i, data]);
  });
  return out;
}

/**
 * Writes one message at `seq` inside a readwrite transaction: its attachments' data as blob records and
 * the message record without them.
 *
 * @throws StoreError `invalid` when an attachment's base64 does not decode.
 */
export function putMessage(
  store: IDBObjectStore,
  key: IDBValidKey,
  id: string,
  seq: number,
  message: ChatMessage,
  place: { parent: number | null; depth: number; feedback?: MessageFeedback },
): void {
  const parts = externalParts(message);
  if (parts.length === 0) {
    store.put({ version: RECORD_VERSION, message, ...place } satisfies MessageRecord, key);
    return;
  }
  const content = (message.content as UserContentPart[]).slice();
  for (const [i, data] of parts) {
    const comma = data.indexOf(',');
    const header = data.slice(0, comma);
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = decodeBase64(data.slice(comma + 1));
    } catch (err) {
      throw new StoreError('invalid', `Session store: ${describeAttachment(content[i]!, data)} of message ${seq} is not valid base64`, {
        sessionId: id,
        cause: err,
      });
    }
    const record: BlobRecord = { version: 1, header, blob: new Blob([bytes], { type: 'application/octet-stream' }) };
    store.put(record, blobKey(id, seq, i));
    content[i] = withData(content[i]!, '');
  }
  const record: MessageRecord = { version: RECORD_VERSION, message: { role: 'user', content }, blobs: parts.map(([i]) => i), ...place };
  store.put(record, key);
}

/** Says what is wrong with a stored blob record, or `undefined`. */
export function blobRecordProblem(r: unknown): string | undefined {
  if (typeof r !== 'object' || r === null) return 'the attachment record is not an object';
  const b = r as Partial<BlobRecord>;
  if (b.version !== 1) return `the attachment record has schema version ${String(b.version)}`;
  if (typeof b.header !== 'string' || !BASE64_DATA.test(b.header) || !(b.blob instanceof Blob)) return 'the attachment record holds no data';
  return undefined;
}

/**
 * Puts the attachments' data back into messages read from their records: `blobs[seq]` maps a part index
 * to its blob record.
 *
 * @throws {Error} with the reason when a listed attachment is missing or unreadable (the caller reports it
 *   as a corrupt session).
 */
export async function restoreMessage(record: MessageRecord, blobs: ReadonlyMap<number, unknown> | undefined, seq: number): Promise<ChatMessage> {
  const listed = record.blobs;
  if (!listed || listed.length === 0) return record.message;
  const message = record.message;
  if (message.role !== 'user' || typeof message.content === 'string') throw new Error(`message ${seq} lists attachments but has no parts`);
  const content = message.content.slice();
  for (const i of listed) {
    const blob: unknown = blobs?.get(i);
    const problem = blob === undefined ? 'is missing' : blobRecordProblem(blob);
    if (problem || !content[i]) throw new Error(`attachment ${i} of message ${seq} ${problem ?? 'has no part'}`);
    const { header, blob: data } = blob as BlobRecord;
    content[i] = withData(content[i]!, `${header},${await encodeBase64(data)}`);
  }
  return { role: 'user', content };
}

function describeAttachment(part: UserContentPart, data: string): string {
  // the exact count: a developer reads it beside the quota, and no unit (MB or MiB) can be misread
  const size = `${dataUrlBytes(data).toLocaleString('en')} bytes`;
  return part.type === 'file' ? `the attachment "${part.file.filename}" (${size})` : `an image attachment (${size})`;
}

/**
 * The largest attachment among messages being written, described for an error message
 * (`the attachment "notes.pdf" (1,258,291 bytes)`, or `an image attachment (3,565,158 bytes) in message 2`), or
 * `undefined`.
 */
export function largestAttachment(messages: readonly ChatMessage[]): string | undefined {
  let best: { text: string; bytes: number } | undefined;
  messages.forEach((message, seq) => {
    for (const [i, data] of externalParts(message)) {
      const bytes = dataUrlBytes(data);
      if (best && best.bytes >= bytes) continue;
      const part = (message.content as UserContentPart[])[i]!;
      const text = describeAttachment(part, data) + (part.type === 'file' ? '' : ` in message ${seq + 1} of the write`);
      best = { text, bytes };
    }
  });
  return best?.text;
}

/**
 * A quota error of a write that carried attachments, named after the largest one; other errors as they are.
 */
export function nameQuotaAttachment(err: unknown, messages: readonly ChatMessage[]): unknown {
  if (!(err instanceof StoreError) || err.reason !== 'quota') return err;
  const what = largestAttachment(messages);
  if (!what) return err;
  return new StoreError('quota', `${err.message} while storing ${what}; nothing of this write was stored`, {
    sessionId: err.sessionId,
    cause: err.cause ?? err,
  });
}
