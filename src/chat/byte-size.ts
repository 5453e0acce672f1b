/**
 * Byte counts for people, one way everywhere the element shows a size: the import and attachment limits,
 * file chips and the files panel.
 */

const UNITS = ['B', 'KiB', 'MiB', 'GiB'] as const;

/**
 * A byte count in the binary units it is computed in (`512 B`, `4.9 KiB`, `50 MiB`), with the locale's
 * digits and separators (`1,000 B`; `1.000 B` in German). Sizes past 1,024 bytes show one decimal at most,
 * **rounded up**, so a size over a limit never reads as the limit itself: 50 MiB + 1 byte is `50.1 MiB`
 * against a limit of `50 MiB` (rounded to nearest, both read `50 MiB`).
 *
 * @param locale a BCP 47 tag for the digits. @defaultValue `"en"`
 */
export function formatByteSize(bytes: number, locale = 'en'): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  // when value * 10 is truly a whole number it is computed exactly, so an exact size is never pushed up
  const shown = unit === 0 ? value : Math.ceil(value * 10) / 10;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(shown)} ${UNITS[unit]}`;
}
