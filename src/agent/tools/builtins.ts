/**
 * pagent's built-in tools (`pagent.defaults`) for the browser: `clock` and `region`, and
 * `DEFAULT_TOOLS = [clock, region]`. pagent's `readfile` and `bash ls` become the workspace tools
 * (`workspaceTools`), since a page has no process working directory.
 */
import { tool, type Tool } from './tools.js';

/** ISO 8601 with a numeric offset (`+00:00` for UTC), like Python's `datetime.isoformat()`. */
function isoWithOffset(date: Date, utc: boolean): string {
  const offsetMin = utc ? 0 : -date.getTimezoneOffset();
  const shifted = new Date(date.getTime() + offsetMin * 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return shifted.toISOString().slice(0, -1) + offset;
}

/**
 * `clock`: the current time as ISO 8601 (pagent's `clock`). `utc` (default true) gives UTC
 * (`2026-01-02T03:04:05.678+00:00`); `utc: false` gives local time with the browser's offset.
 * Milliseconds where Python prints microseconds.
 */
export const clock: Tool<{ utc?: boolean }> = /* @__PURE__ */ tool<{ utc?: boolean }>({
  name: 'clock',
  description: 'Current date and time as ISO 8601. utc=true (default) for UTC, utc=false for the user\'s local time.',
  parameters: {
    type: 'object',
    properties: { utc: { type: 'boolean', description: 'UTC (true, default) or local time (false).' } },
    additionalProperties: false,
  },
  execute: ({ utc = true }) => isoWithOffset(new Date(), utc),
});

/** What `region` reports. */
export interface RegionInfo {
  /** The browser's preferred language tag (`navigator.language`), else the `Intl` default locale. */
  locale: string;
  /** `navigator.languages`, when the browser gives them. */
  languages: string[];
  /** The IANA time zone (`Intl.DateTimeFormat().resolvedOptions().timeZone`). */
  timezone: string;
  /** The current UTC offset, `+HH:MM`. */
  utc_offset: string;
}

/** Reads the locale and time zone hint `region` returns (no geolocation, no permission prompt). */
export function regionInfo(): RegionInfo {
  const resolved = new Intl.DateTimeFormat().resolvedOptions();
  const nav = (globalThis as { navigator?: { language?: string; languages?: readonly string[] } }).navigator;
  const now = new Date();
  return {
    locale: nav?.language || resolved.locale,
    languages: nav?.languages ? [...nav.languages] : [resolved.locale],
    timezone: resolved.timeZone,
    utc_offset: isoWithOffset(now, false).slice(-6),
  };
}

/**
 * `region`: the user's locale and time zone hint as JSON (pagent's `region`: locale and timezone, no
 * GPS), e.g. `{"locale":"ja-JP","languages":["ja-JP","en"],"timezone":"Asia/Tokyo","utc_offset":"+09:00"}`.
 */
export const region: Tool<Record<string, never>> = /* @__PURE__ */ tool<Record<string, never>>({
  name: 'region',
  description: "The user's locale and time zone (a hint from the browser settings; no location).",
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  execute: () => JSON.stringify(regionInfo()),
});

/** pagent's `DEFAULT_TOOLS`: `[clock, region]`. */
export const DEFAULT_TOOLS: readonly Tool<never>[] = /* @__PURE__ */ Object.freeze([clock, region] as Tool<never>[]);
