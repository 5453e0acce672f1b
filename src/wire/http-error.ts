/**
 * Turning a non-2xx response into the readable text a `RunError{code: "http"}` carries: the server's own
 * message where it sent one, the status text otherwise.
 */

/** The longest message kept from an error body, in characters; longer ones are cut with "…". */
export const HTTP_ERROR_MESSAGE_MAX = 500;

/** The most bytes of an error body that are read; the rest is never downloaded. */
export const HTTP_ERROR_BODY_MAX_BYTES = 65_536; // 64 KiB

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/**
 * The readable message of an HTTP error response, from its status and body text.
 *
 * - JSON `{"detail": "..."}` (FastAPI, RFC 9457 problem details), `{"error": {"message": "..."}}` (OpenAI),
 *   `{"error": "..."}`, `{"message": "..."}`, `{"errors": [{"message"}]}` → that text;
 * - FastAPI's validation error `{"detail": [{loc, msg, type}, ...]}` → `Invalid request: body.message:
 *   Field required; …` (at most three entries, then "and N more");
 * - other JSON → the compact JSON text;
 * - an HTML page or an empty body → `HTTP <status> <status text>`;
 * - plain text → the trimmed text.
 *
 * Messages longer than {@link HTTP_ERROR_MESSAGE_MAX} characters are cut and end with "…".
 */
export function httpErrorMessage(status: number, statusText: string, body: string, contentType?: string | null): string {
  const fallback = `HTTP ${status} ${statusText.trim() || STATUS_TEXT[status] || 'Error'}`;
  const text = body.replace(/^\uFEFF/, '').trim();
  if (text === '') return fallback;
  const type = (contentType ?? '').toLowerCase();
  if (type.includes('html') || /^<(!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/i.test(text)) return fallback;
  if (type.includes('json') || /^[{[]/.test(text)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return cut(text);
    }
    return cut(jsonMessage(parsed) ?? JSON.stringify(parsed));
  }
  return cut(text);
}

function jsonMessage(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const { detail, error, message, errors, title } = body;
  if (nonEmpty(detail)) return detail;
  if (Array.isArray(detail) && detail.length > 0) return validationSummary(detail);
  if (isObject(detail) && nonEmpty(detail['message'])) return detail['message'];
  if (nonEmpty(error)) return error;
  if (isObject(error) && nonEmpty(error['message'])) return error['message'];
  if (nonEmpty(message)) return message;
  if (Array.isArray(errors)) {
    const messages = errors.map((e: unknown) => (isObject(e) && nonEmpty(e['message']) ? e['message'] : undefined));
    if (messages.length > 0 && messages.every(nonEmpty)) return messages.join('; ');
  }
  if (nonEmpty(title)) return title;
  return undefined;
}

/** FastAPI / pydantic `detail: [{loc: ["body", "message"], msg: "Field required", type}]`. */
function validationSummary(items: unknown[]): string {
  const shown = items.slice(0, 3).map((item) => {
    if (!isObject(item)) return JSON.stringify(item);
    const msg = nonEmpty(item['msg']) ? item['msg'] : nonEmpty(item['type']) ? item['type'] : 'invalid';
    const loc = Array.isArray(item['loc']) ? locationText(item['loc']) : '';
    return loc === '' ? msg : `${loc}: ${msg}`;
  });
  const more = items.length > 3 ? `; and ${items.length - 3} more` : '';
  return `Invalid request: ${shown.join('; ')}${more}`;
}

function locationText(loc: unknown[]): string {
  let out = '';
  for (const part of loc) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

function cut(text: string): string {
  return text.length > HTTP_ERROR_MESSAGE_MAX ? `${text.slice(0, HTTP_ERROR_MESSAGE_MAX - 1)}…` : text;
}

/**
 * Reads at most `maxBytes` of a response body as UTF-8 text, then cancels the rest of the download.
 * A body that fails mid-way gives what was read so far.
 *
 * @defaultValue maxBytes {@link HTTP_ERROR_BODY_MAX_BYTES}
 */
export async function readErrorBody(response: Response, maxBytes = HTTP_ERROR_BODY_MAX_BYTES): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let read = 0;
  try {
    while (read < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      const part = value.byteLength > maxBytes - read ? value.subarray(0, maxBytes - read) : value;
      read += part.byteLength;
      text += decoder.decode(part, { stream: true });
    }
    text += decoder.decode();
  } catch {
    text += decoder.decode();
  } finally {
    reader.cancel().catch(() => undefined);
  }
  return text;
}
