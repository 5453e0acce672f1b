import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rasterType, RASTER_SNIFF_BYTES } from '../../../src/agent/raster-type.js';
import { dataUrlPayload } from '../../../src/agent/data-url.js';

const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../../fixtures/images/${name}`, import.meta.url)));
const ascii = (text: string): Uint8Array => new Uint8Array(Array.from(text, (c) => c.charCodeAt(0)));
const concat = (...parts: Array<Uint8Array | number[]>): Uint8Array => {
  const out: number[] = [];
  for (const p of parts) out.push(...p);
  return new Uint8Array(out);
};
const u32 = (n: number): number[] => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
/** An ISO-BMFF `ftyp` box: size, "ftyp", major brand, minor version 0, compatible brands. */
const ftyp = (major: string, ...compatible: string[]): Uint8Array =>
  concat(u32(16 + 4 * compatible.length), ascii('ftyp'), ascii(major), u32(0), ...compatible.map(ascii));

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" onload="parent.__pwned=1"><script>parent.__pwned=2</script></svg>';

describe('rasterType (bytes, never the declared type, decide what is an image)', () => {
  it('knows real PNG, JPEG, WebP, GIF and AVIF files', () => {
    expect(rasterType(fixture('pixel.png'))).toBe('image/png');
    expect(rasterType(fixture('pixel.jpg'))).toBe('image/jpeg');
    expect(rasterType(fixture('pixel.webp'))).toBe('image/webp');
    expect(rasterType(fixture('pixel.gif'))).toBe('image/gif');
    expect(rasterType(fixture('pixel.avif'))).toBe('image/avif');
  });

  it('needs only the first RASTER_SNIFF_BYTES bytes', () => {
    for (const name of ['pixel.png', 'pixel.jpg', 'pixel.webp', 'pixel.gif', 'pixel.avif']) {
      const bytes = fixture(name);
      expect(rasterType(bytes.subarray(0, RASTER_SNIFF_BYTES)), name).toBe(rasterType(bytes));
    }
  });

  it('takes GIF87a, the three WebP chunk kinds, and AVIF by its avif or avis brand, major or compatible', () => {
    expect(rasterType(concat(ascii('GIF87a'), [1, 0, 1, 0]))).toBe('image/gif');
    for (const chunk of ['VP8 ', 'VP8L', 'VP8X']) expect(rasterType(concat(ascii('RIFF'), u32(100), ascii(`WEBP${chunk}`), u32(0))), chunk).toBe('image/webp');
    expect(rasterType(ftyp('avif', 'mif1', 'miaf'))).toBe('image/avif');
    expect(rasterType(ftyp('avis', 'msf1'))).toBe('image/avif');
    expect(rasterType(ftyp('mif1', 'miaf', 'avif'))).toBe('image/avif');
    expect(rasterType(ftyp('msf1', 'avis'))).toBe('image/avif');
  });

  it('refuses an SVG, an HTML page and XML, whatever they were declared as', () => {
    expect(rasterType(ascii(SVG))).toBeUndefined();
    expect(rasterType(ascii('<!doctype html><script>alert(1)</script>'))).toBeUndefined();
    expect(rasterType(ascii('<?xml version="1.0"?><svg/>'))).toBeUndefined();
    // an SVG sent as data:image/png: the header says PNG, the bytes do not
    expect(rasterType(dataUrlPayload(`data:image/png;base64,${btoa(SVG)}`)!)).toBeUndefined();
  });

  it('refuses empty data, truncated signatures and prefixes that only look like one', () => {
    expect(rasterType(new Uint8Array())).toBeUndefined();
    // HTML behind a PNG-looking prefix shorter than the signature
    expect(rasterType(concat(PNG_SIGNATURE.slice(0, 4), ascii('<html><script>x</script>')))).toBeUndefined();
    expect(rasterType(concat(PNG_SIGNATURE.slice(0, 7), ascii('<html>')))).toBeUndefined();
    // the whole signature with HTML where the IHDR chunk must be
    expect(rasterType(concat(PNG_SIGNATURE, ascii('<html><script>x</script>')))).toBeUndefined();
    expect(rasterType(fixture('pixel.png').subarray(0, 15))).toBeUndefined();
    expect(rasterType(new Uint8Array([0xff, 0xd8]))).toBeUndefined();
    expect(rasterType(ascii('GIF89'))).toBeUndefined();
    expect(rasterType(ascii('GIF90a'))).toBeUndefined();
    expect(rasterType(ascii('RIFF\0\0\0\0WEBP'))).toBeUndefined();
    expect(rasterType(ascii('RIFF\0\0\0\0WAVEfmt '))).toBeUndefined();
    expect(rasterType(ascii('RIFF\0\0\0\0WEBPVP9 '))).toBeUndefined();
    expect(rasterType(fixture('pixel.avif').subarray(0, 11))).toBeUndefined();
  });

  it('refuses other ISO-BMFF files and a brand outside the ftyp box', () => {
    expect(rasterType(ftyp('heic', 'mif1', 'heic'))).toBeUndefined();
    expect(rasterType(ftyp('isom', 'mp41'))).toBeUndefined();
    // "avif" right after a box that ends before it
    expect(rasterType(concat(ftyp('isom'), ascii('avif')))).toBeUndefined();
    // a box too small to be an ftyp box
    expect(rasterType(concat(u32(8), ascii('ftypavif'), u32(0)))).toBeUndefined();
  });
});

describe('dataUrlPayload', () => {
  const png = fixture('pixel.png');
  const base64 = Buffer.from(png).toString('base64');

  it('decodes base64 and percent-encoded payloads', () => {
    expect(dataUrlPayload(`data:image/png;base64,${base64}`)).toEqual(png);
    expect(dataUrlPayload(`DATA:image/png;BASE64,${base64}`)).toEqual(png);
    expect(dataUrlPayload('data:image/svg+xml,%3Csvg%3E%E2%9C%93')).toEqual(new Uint8Array([...ascii('<svg>'), 0xe2, 0x9c, 0x93]));
    expect(dataUrlPayload('data:,<svg>✓')).toEqual(new Uint8Array([...ascii('<svg>'), 0xe2, 0x9c, 0x93]));
  });

  it('decodes only the first bytes asked for, whitespace in the base64 included', () => {
    expect(dataUrlPayload(`data:image/png;base64,${base64}`, 16)).toEqual(png.subarray(0, 16));
    expect(dataUrlPayload(`data:image/png;base64,${base64}`, 17)).toEqual(png.subarray(0, 17));
    const spaced = base64.replace(/(.{10})/g, '$1\n ');
    expect(dataUrlPayload(`data:image/png;base64,${spaced}`, 20)).toEqual(png.subarray(0, 20));
    expect(dataUrlPayload(`data:image/png;base64,${spaced}`)).toEqual(png);
    expect(dataUrlPayload('data:text/plain,%41%42%43%44', 2)).toEqual(ascii('AB'));
  });

  it('gives undefined for other URLs, a missing comma and broken base64', () => {
    expect(dataUrlPayload(`https://example.com/a.png`)).toBeUndefined();
    expect(dataUrlPayload('data:image/png;base64')).toBeUndefined();
    expect(dataUrlPayload('data:image/png;base64,@@@@')).toBeUndefined();
    expect(dataUrlPayload('data:image/png;base64,')).toEqual(new Uint8Array());
  });
});
