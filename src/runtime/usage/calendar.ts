// Calendar days and months in a time zone, as budgets reset and reports group: `2026-12-02`,
// `2026-12`. Intl does the zone arithmetic (no time-zone library).

/** A formatter for `timeZone`; an unknown zone falls back to the host's (reported by the caller). */
function formatter(timeZone: string | undefined): Intl.DateTimeFormat {
  const options: Intl.DateTimeFormatOptions = {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hourCycle: "h23",
  };
  try {
    return new Intl.DateTimeFormat("en-CA", { ...options, ...(timeZone ? { timeZone } : {}) });
  } catch (err) {
    if (err instanceof RangeError) return new Intl.DateTimeFormat("en-CA", options);
    throw err;
  }
}

/** True when Intl knows `timeZone` (IANA name such as "Europe/Madrid", or "UTC"). */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-CA", { timeZone });
    return true;
  } catch (err) {
    if (err instanceof RangeError) return false;
    throw err;
  }
}

/** Turns epoch ms into calendar keys of one zone; one formatter reused for every call. */
export interface CalendarKeys {
  /** `YYYY-MM-DD` of `ts` in the zone. */
  day(ts: number): string;
  /** `YYYY-MM` of `ts` in the zone. */
  month(ts: number): string;
}

/** {@link CalendarKeys} for `timeZone` (undefined: the host's zone). */
export function calendarKeys(timeZone: string | undefined): CalendarKeys {
  const fmt = formatter(timeZone);
  const day = (ts: number): string => {
    const parts = fmt.formatToParts(new Date(ts));
    const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "00";
    return `${get("year")}-${get("month")}-${get("day")}`;
  };
  return { day, month: (ts) => day(ts).slice(0, 7) };
}

/** The UTC date (`YYYY-MM-DD`) of `ts`: the usage log's file name, whatever the zone. */
export function utcDay(ts: number): string {
  return new Date(ts).toISOString().slice(0, 10);
}
