/**
 * Opening hours text of the header (requirements R9.9), always evaluated in
 * the shop's time zone (Europe/Bratislava) whatever the machine's zone is.
 *
 * Literal spec rule: "after 15:30" means local time >= 15:30 (the shop is
 * closed at 15:30 sharp).
 *  - after 15:30 on Friday, Saturday or Sunday → "V pondelok otvorené od 08:00"
 *  - after 15:30 on Monday to Thursday          → "Zajtra otvorené od 08:00"
 *  - at any other time (also before 08:00 and on weekend mornings, as the
 *    spec says)                                 → "Dnes otvorené do 15:30"
 */

export const SHOP_TIME_ZONE = 'Europe/Bratislava';
export const OPENING_HOURS = { open: '08:00', close: '15:30' } as const;

/**
 * The days the rule above keeps the shop open: every one (before 15:30 the header says "open
 * today until 15:30" on any day). The contact page and its structured data state the hours from
 * here, so the shop never contradicts its own header.
 */
export const OPENING_DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export const OPENING_HOURS_SUMMARY = `Denne ${OPENING_HOURS.open} – ${OPENING_HOURS.close}`;

export type ShopLocalTime = {
  year: number;
  month: number;
  day: number;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
  hour: number;
  minute: number;
  second: number;
};

/**
 * The shop's zone as a rule instead of `Intl.DateTimeFormat`: a browser's first date formatter
 * makes a long task of main thread in the shell's boot, far longer on a phone. Slovakia keeps
 * Central European Time (UTC+1) and summer time (UTC+2) from 01:00 UTC
 * on the last Sunday of March to 01:00 UTC on the last Sunday of October (EU Directive 2000/84/EC).
 * The tests compare it with the time zone database hour by hour over years.
 */
function lastSundayAt0100Utc(year: number, monthIndex: number): number {
  const lastDay = new Date(Date.UTC(year, monthIndex + 1, 0));
  return Date.UTC(year, monthIndex, lastDay.getUTCDate() - lastDay.getUTCDay(), 1);
}

/** Offset of the shop's zone from UTC at an instant, in ms (UTC+2 → 7 200 000). */
function shopOffsetMs(epochMs: number): number {
  const year = new Date(epochMs).getUTCFullYear();
  const summer = epochMs >= lastSundayAt0100Utc(year, 2) && epochMs < lastSundayAt0100Utc(year, 9);
  return (summer ? 2 : 1) * 3_600_000;
}

/** Wall-clock time in the shop's zone at an instant. */
export function shopLocalTime(instant: Date): ShopLocalTime {
  const local = new Date(instant.getTime() + shopOffsetMs(instant.getTime()));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    weekday: local.getUTCDay(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
}

function minutesOf(hhmm: string): number {
  const [h = '0', m = '0'] = hhmm.split(':');
  return Number(h) * 60 + Number(m);
}

const CLOSE_MINUTES = minutesOf(OPENING_HOURS.close);
const CLOSE_HOUR = Math.floor(CLOSE_MINUTES / 60);
const CLOSE_MINUTE = CLOSE_MINUTES % 60;

/**
 * The instant of a wall-clock time in the shop's zone. Day overflow is
 * allowed (day + 1 at month end). The two-pass offset lookup handles DST;
 * the times used here (00:00, 15:30) never fall into a DST gap.
 */
function shopWallTimeToInstant(year: number, month: number, day: number, hour: number, minute: number): Date {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  let instant = wall - shopOffsetMs(wall);
  const corrected = wall - shopOffsetMs(instant);
  if (corrected !== instant) instant = corrected;
  return new Date(instant);
}

/** The header text for an instant. */
export function openingHoursText(now: Date): string {
  const t = shopLocalTime(now);
  const afterClosing = t.hour * 60 + t.minute >= CLOSE_MINUTES;
  if (!afterClosing) return `Dnes otvorené do ${OPENING_HOURS.close}`;
  const weekend = t.weekday === 5 || t.weekday === 6 || t.weekday === 0;
  return weekend ? `V pondelok otvorené od ${OPENING_HOURS.open}` : `Zajtra otvorené od ${OPENING_HOURS.open}`;
}

/**
 * The next instant after `now` when the text may change: today's 15:30 if it
 * is still ahead, otherwise the next midnight, both in Bratislava time.
 * The header sets a timer to this instant to re-render without a reload.
 */
export function nextOpeningHoursChange(now: Date): Date {
  const t = shopLocalTime(now);
  const closing = shopWallTimeToInstant(t.year, t.month, t.day, CLOSE_HOUR, CLOSE_MINUTE);
  if (closing.getTime() > now.getTime()) return closing;
  return shopWallTimeToInstant(t.year, t.month, t.day + 1, 0, 0);
}
