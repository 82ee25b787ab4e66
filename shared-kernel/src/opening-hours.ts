/**
 * Opening hours text of the header (spec section 9), always evaluated in
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

type LocalTime = {
  year: number;
  month: number;
  day: number;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
  hour: number;
  minute: number;
  second: number;
};

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

const shopClock = new Intl.DateTimeFormat('en-US', {
  timeZone: SHOP_TIME_ZONE,
  hourCycle: 'h23',
  weekday: 'short',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

function shopLocalTime(instant: Date): LocalTime {
  const parts: Record<string, string> = {};
  for (const part of shopClock.formatToParts(instant)) parts[part.type] = part.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    weekday: WEEKDAYS[parts.weekday ?? ''] ?? 0,
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

function minutesOf(hhmm: string): number {
  const [h = '0', m = '0'] = hhmm.split(':');
  return Number(h) * 60 + Number(m);
}

const CLOSE_MINUTES = minutesOf(OPENING_HOURS.close);
const CLOSE_HOUR = Math.floor(CLOSE_MINUTES / 60);
const CLOSE_MINUTE = CLOSE_MINUTES % 60;

/** Offset of the shop's zone from UTC at an instant, in ms (UTC+2 → 7 200 000). */
function shopOffsetMs(epochMs: number): number {
  const t = shopLocalTime(new Date(epochMs));
  const asUtc = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  return asUtc - Math.floor(epochMs / 1000) * 1000;
}

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
  return weekend
    ? `V pondelok otvorené od ${OPENING_HOURS.open}`
    : `Zajtra otvorené od ${OPENING_HOURS.open}`;
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
