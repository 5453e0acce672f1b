/**
 * Errors of pagent-web. Every error the SDK throws or reports is a {@link PagentError}; the subclasses
 * have a literal `name` so `err.name === 'WireDecodeError'` works across realms and bundles.
 */

/**
 * What went wrong, as carried by a `RunError` event's `code`. Open-ended: servers may send others, and the
 * SDK also uses `config` (options that can never work), `redirect` (a refused redirect), `store` and `busy`.
 */
export type ErrorCode = 'http' | 'network' | 'provider' | 'truncated' | 'timeout' | 'decode' | (string & {});

/**
 * The message of a thrown value: an `Error`'s `message`, anything else as `String(value)` (code may throw
 * strings, `undefined` or plain objects).
 */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Options shared by every {@link PagentError}. */
export interface PagentErrorOptions {
  /** The error code, as in `RunError.code`. */
  code: ErrorCode;
  /** HTTP status, when the failure was an HTTP response. */
  status?: number | undefined;
  /** Where it happened (e.g. `"llm"`, `"tool:get_weather"`, `"store"`). */
  where?: string | undefined;
  /** The underlying error. */
  cause?: unknown;
}

/** The base error: a failed run, request or stream. */
export class PagentError extends Error {
  override name: string = 'PagentError';
  /** The error code, as in `RunError.code`. */
  readonly code: ErrorCode;
  /** HTTP status, when the failure was an HTTP response. */
  readonly status: number | undefined;
  /** Where it happened, when known. */
  readonly where: string | undefined;

  constructor(message: string, options: PagentErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    this.status = options.status;
    this.where = options.where;
  }

  /** Builds the error a consumer sees for a `RunError` event's params. */
  static fromRunError(params: { message: string; code: ErrorCode; where?: string; status?: number }): PagentError {
    return new PagentError(params.message, { code: params.code, where: params.where, status: params.status });
  }
}

/** Why a wire line could not be decoded. */
export type WireDecodeReason = 'invalid-json' | 'not-an-event' | 'unknown-method' | 'invalid-params' | 'line-too-long';

/** A wire line that is not a valid event. Streams report it through `onDecodeError` and go on. */
export class WireDecodeError extends PagentError {
  override name = 'WireDecodeError' as const;
  /** Why the line was rejected. */
  readonly reason: WireDecodeReason;
  /** 1-based line (or SSE message) number, when a stream knows it. */
  readonly lineNumber: number | undefined;
  /** The raw line, cut to 200 characters. */
  readonly line: string;

  constructor(reason: WireDecodeReason, message: string, line: string, lineNumber?: number, cause?: unknown) {
    super(lineNumber === undefined ? message : `${message} (line ${lineNumber})`, { code: 'decode', where: 'wire', cause });
    this.reason = reason;
    this.line = line.slice(0, 200);
    this.lineNumber = lineNumber;
  }
}

/** A non-2xx HTTP response. `message` is the server's own error text where it sent one. */
export class HttpError extends PagentError {
  override name = 'HttpError' as const;
  declare readonly status: number;
  constructor(message: string, status: number, where?: string) {
    super(message, { code: 'http', status, where });
  }
}

/** Why a session store operation failed. */
export type StoreErrorReason =
  | 'quota'
  | 'blocked'
  | 'deleted'
  | 'corrupt'
  | 'invalid'
  | 'not-found'
  | 'unavailable';

/**
 * A session store operation that failed. Nothing was written when it is thrown, and the session you
 * passed in is left as it was. `reason` says what happened: `quota` (the origin ran out of storage),
 * `blocked` (the database could not be opened: another tab holds it during an upgrade or delete),
 * `deleted` (the session or the whole database vanished while this page was using it), `corrupt` (a stored
 * record is not a valid record; other sessions stay readable), `invalid` (an import file or a message is
 * malformed), `not-found` (no session has that id), `unavailable` (no IndexedDB, or it refused the request).
 */
export class StoreError extends PagentError {
  override name = 'StoreError' as const;
  /** What went wrong. */
  readonly reason: StoreErrorReason;
  /** The session the operation was about, when there was one. */
  readonly sessionId: string | undefined;
  constructor(reason: StoreErrorReason, message: string, options: { sessionId?: string | undefined; cause?: unknown } = {}) {
    super(message, { code: 'store', where: 'store', cause: options.cause });
    this.reason = reason;
    this.sessionId = options.sessionId;
  }
}
