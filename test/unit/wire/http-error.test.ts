import { describe, expect, it } from 'vitest';
import { HTTP_ERROR_MESSAGE_MAX, httpErrorMessage, readErrorBody } from '../../../src/wire/http-error.js';

describe('httpErrorMessage', () => {
  it('returns plain text trimmed', () => {
    expect(httpErrorMessage(500, 'Internal Server Error', '  database is down\n', 'text/plain')).toBe('database is down');
  });

  it('reads FastAPI {"detail": "..."}', () => {
    expect(httpErrorMessage(404, 'Not Found', '{"detail":"Session not found"}', 'application/json')).toBe('Session not found');
  });

  it('summarises a FastAPI 422 validation error by location and message', () => {
    const body = JSON.stringify({
      detail: [
        { type: 'missing', loc: ['body', 'message'], msg: 'Field required', input: {} },
        { type: 'int_parsing', loc: ['body', 'items', 0, 'count'], msg: 'Input should be a valid integer', input: 'x' },
      ],
    });
    expect(httpErrorMessage(422, 'Unprocessable Entity', body, 'application/json')).toBe(
      'Invalid request: body.message: Field required; body.items[0].count: Input should be a valid integer',
    );
  });

  it('lists at most three validation entries and counts the rest', () => {
    const detail = ['a', 'b', 'c', 'd', 'e'].map((f) => ({ loc: ['query', f], msg: 'bad', type: 'x' }));
    expect(httpErrorMessage(422, '', JSON.stringify({ detail }), 'application/json')).toBe(
      'Invalid request: query.a: bad; query.b: bad; query.c: bad; and 2 more',
    );
  });

  it('reads an OpenAI-style {"error": {"message"}}', () => {
    const body = '{"error": {"message": "Incorrect API key provided", "type": "invalid_request_error", "code": "invalid_api_key"}}';
    expect(httpErrorMessage(401, 'Unauthorized', body, 'application/json; charset=utf-8')).toBe('Incorrect API key provided');
  });

  it('reads {"error": "..."} and {"message": "..."}', () => {
    expect(httpErrorMessage(429, 'Too Many Requests', '{"error": "slow down"}', 'application/json')).toBe('slow down');
    expect(httpErrorMessage(400, 'Bad Request', '{"message": "message is empty"}', 'application/json')).toBe('message is empty');
  });

  it('detects JSON without a JSON content type', () => {
    expect(httpErrorMessage(400, 'Bad Request', '{"detail": "nope"}', 'text/plain')).toBe('nope');
  });

  it('gives compact JSON for a JSON body of no known shape', () => {
    expect(httpErrorMessage(500, '', '{ "status" : "failed", "n": 2 }', 'application/json')).toBe('{"status":"failed","n":2}');
  });

  it('gives the status text for an HTML page, not its markup', () => {
    const page = '<!DOCTYPE html><html><head><title>502</title></head><body><h1>Bad Gateway</h1></body></html>';
    expect(httpErrorMessage(502, 'Bad Gateway', page, 'text/html')).toBe('HTTP 502 Bad Gateway');
    expect(httpErrorMessage(503, '', '<html><body>down</body></html>', null)).toBe('HTTP 503 Service Unavailable');
  });

  it('gives the status text for an empty body', () => {
    expect(httpErrorMessage(500, 'Internal Server Error', '', 'text/plain')).toBe('HTTP 500 Internal Server Error');
    expect(httpErrorMessage(418, '', '   ', null)).toBe('HTTP 418 Error');
  });

  it('cuts a long body with an ellipsis', () => {
    const message = httpErrorMessage(500, '', 'x'.repeat(10_000), 'text/plain');
    expect(message.length).toBe(HTTP_ERROR_MESSAGE_MAX);
    expect(message.endsWith('…')).toBe(true);
  });

  it('keeps invalid JSON as text', () => {
    expect(httpErrorMessage(500, '', '{"detail": "unterminated', 'application/json')).toBe('{"detail": "unterminated');
  });
});

describe('readErrorBody', () => {
  it('reads a whole small body', async () => {
    expect(await readErrorBody(new Response('détail ✓', { status: 400 }))).toBe('détail ✓');
  });

  it('stops after maxBytes and cancels the rest of an endless body', async () => {
    let pulls = 0;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1;
        controller.enqueue(new TextEncoder().encode('abcdefghij'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const text = await readErrorBody(new Response(body, { status: 500 }), 25);
    expect(text).toBe('abcdefghijabcdefghijabcde');
    expect(cancelled).toBe(true);
    expect(pulls).toBeLessThan(10);
  });

  it('returns what was read before the body failed', async () => {
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1;
        if (pulls === 1) controller.enqueue(new TextEncoder().encode('partial'));
        else controller.error(new Error('reset'));
      },
    });
    expect(await readErrorBody(new Response(body, { status: 500 }))).toBe('partial');
  });
});
