/** Files for the attachment tests, made here (never by the code under test), and the scripted model. */
import { expect, inject } from 'vitest';
import { LLM } from '../../../src/agent/llm/llm.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import type { ScriptedResponse } from '../../server/replay.js';

const api = inject('apiUrl');

export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary);
}

export async function dataUrlOf(blob: Blob, type: string): Promise<string> {
  return `data:${type};base64,${base64(new Uint8Array(await blob.arrayBuffer()))}`;
}

/** A two-colour PNG of the given size. */
export async function pngFile(name: string, width: number, height: number): Promise<File> {
  const canvas = new OffscreenCanvas(width, height);
  const g = canvas.getContext('2d')!;
  g.fillStyle = '#c33';
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#36c';
  g.fillRect(0, 0, width / 2, height / 2);
  return new File([await canvas.convertToBlob({ type: 'image/png' })], name, { type: 'image/png' });
}

/** A JPEG whose EXIF says "rotate 90° clockwise" (orientation 6): stored `width`×`height`, shown turned. */
export async function rotatedJpeg(name: string, width: number, height: number): Promise<File> {
  const canvas = new OffscreenCanvas(width, height);
  const g = canvas.getContext('2d')!;
  g.fillStyle = '#2a2';
  g.fillRect(0, 0, width, height);
  const jpeg = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/jpeg' })).arrayBuffer());
  // APP1 "Exif\0\0", big-endian TIFF header, IFD0 with one entry: 0x0112 (Orientation) SHORT 1 = 6
  const tiff = [0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0];
  const payload = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff];
  const app1 = [0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload];
  const out = new Uint8Array(jpeg.length + app1.length);
  out.set(jpeg.subarray(0, 2));
  out.set(app1, 2);
  out.set(jpeg.subarray(2), 2 + app1.length);
  return new File([out], name, { type: 'image/jpeg' });
}

/** The pixel size of a data URL's image, decoded by the browser. */
export async function imageSize(url: string): Promise<{ width: number; height: number; bytes: number }> {
  const blob = await (await fetch(url)).blob();
  const bitmap = await createImageBitmap(blob);
  const size = { width: bitmap.width, height: bitmap.height, bytes: blob.size };
  bitmap.close();
  return size;
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> => ({
  id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1767225600, model: 'scripted',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const answer = (text: string): ScriptedResponse => ({ chunks: [chunk({ role: 'assistant', content: text }), chunk({}, 'stop')] });

/** An LLM on the local scripted server answering each request with the next text, and the raw bodies it received. */
export async function scriptedLlm(...answers: string[]): Promise<{ llm: LLM; bodies: () => Promise<Array<{ messages: ChatMessage[] }>> }> {
  const key = crypto.randomUUID();
  const res = await fetch(`${api}/replay/_script/${key}`, { method: 'POST', body: JSON.stringify({ responses: answers.map(answer) }) });
  expect(res.ok).toBe(true);
  return {
    llm: new LLM('scripted', { baseURL: `${api}/replay/_script/${key}/v1`, retries: 0 }),
    bodies: async () => (await (await fetch(`${api}/replay/_script/${key}/requests`)).json()) as Array<{ messages: ChatMessage[] }>,
  };
}

export { api };
