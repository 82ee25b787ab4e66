import { describe, expect, it } from 'vitest';
import { OPENING_HOURS, SHOP_TIME_ZONE, nextOpeningHoursChange, openingHoursText, shopLocalTime } from './opening-hours.ts';

const TODAY = 'Dnes otvorené do 15:30';
const TOMORROW = 'Zajtra otvorené od 08:00';
const MONDAY = 'V pondelok otvorené od 08:00';

const at = (iso: string) => new Date(iso);

describe('constants', () => {
  it('hold the required values', () => {
    expect(SHOP_TIME_ZONE).toBe('Europe/Bratislava');
    expect(OPENING_HOURS).toEqual({ open: '08:00', close: '15:30' });
  });
});

describe('shopLocalTime', () => {
  it('agrees with the time zone database for Europe/Bratislava from 2000 to 2040, and minute by minute around each change', () => {
    const zone = new Intl.DateTimeFormat('en-US', {
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
    const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
    const instants: number[] = [];
    // Every few hours with an odd step, so every hour of the day and many minutes come up over the years.
    for (let instant = Date.UTC(2000, 0, 1); instant < Date.UTC(2040, 0, 1); instant += (11 * 60 + 13) * 60_000 + 13_000)
      instants.push(instant);
    // Each change of offset (found by the database itself), every minute from two hours before to two after.
    for (let year = 2000; year < 2040; year += 1) {
      for (const month of [2, 9]) {
        for (let day = 24; day <= 31; day += 1) {
          const at = Date.UTC(year, month, day, 1);
          if (new Date(at).getUTCDay() !== 0) continue;
          for (let minute = -120; minute <= 120; minute += 1) instants.push(at + minute * 60_000);
        }
      }
    }
    for (const instant of instants) {
      const parts = Object.fromEntries(zone.formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
      const expected = {
        year: Number(parts.year),
        month: Number(parts.month),
        day: Number(parts.day),
        weekday: weekdays.indexOf(parts.weekday!),
        hour: Number(parts.hour),
        minute: Number(parts.minute),
        second: Number(parts.second),
      };
      const actual = shopLocalTime(new Date(instant));
      if (JSON.stringify(actual) !== JSON.stringify(expected)) expect(actual, new Date(instant).toISOString()).toEqual(expected);
    }
    expect(instants.length).toBeGreaterThan(45_000);
    // A correctness check of ~50,000 instants, not a speed check: a loaded machine may take longer than the default 5 s.
  }, 60_000);

  it('changes at 01:00 UTC on the last Sundays of March and October', () => {
    expect(shopLocalTime(new Date('2026-03-29T00:59:59Z')).hour).toBe(1);
    expect(shopLocalTime(new Date('2026-03-29T01:00:00Z')).hour).toBe(3);
    expect(shopLocalTime(new Date('2026-10-25T00:59:59Z')).hour).toBe(2);
    expect(shopLocalTime(new Date('2026-10-25T01:00:00Z')).hour).toBe(2);
    expect(shopLocalTime(new Date('2026-10-25T01:00:00Z')).minute).toBe(0);
  });
});

describe('test machine', () => {
  it('runs in a zone other than UTC and Bratislava (vitest.config.ts sets TZ)', () => {
    // 09:00 UTC is 10:00 in Bratislava in January; America/Los_Angeles gives 01:00.
    expect(new Date('2026-01-13T09:00:00Z').getHours()).toBe(1);
  });
});

// Winter, UTC+1: Thu 8 Jan … Tue 13 Jan 2026.
// Summer, UTC+2: Thu 2 Jul … Tue 7 Jul 2026.
describe.each([
  {
    season: 'winter (UTC+1)',
    thu1531: '2026-01-08T14:31:00Z',
    fri1531: '2026-01-09T14:31:00Z',
    sat1000: '2026-01-10T09:00:00Z',
    sun2000: '2026-01-11T19:00:00Z',
    mon0800: '2026-01-12T07:00:00Z',
    mon0030: '2026-01-11T23:30:00Z',
    tue1000: '2026-01-13T09:00:00Z',
    tue1529: '2026-01-13T14:29:59Z',
    tue1530: '2026-01-13T14:30:00Z',
    tue1600: '2026-01-13T15:00:00Z',
  },
  {
    season: 'summer (UTC+2)',
    thu1531: '2026-07-02T13:31:00Z',
    fri1531: '2026-07-03T13:31:00Z',
    sat1000: '2026-07-04T08:00:00Z',
    sun2000: '2026-07-05T18:00:00Z',
    mon0800: '2026-07-06T06:00:00Z',
    mon0030: '2026-07-05T22:30:00Z',
    tue1000: '2026-07-07T08:00:00Z',
    tue1529: '2026-07-07T13:29:59Z',
    tue1530: '2026-07-07T13:30:00Z',
    tue1600: '2026-07-07T14:00:00Z',
  },
])('openingHoursText in $season', (c) => {
  it('Friday 15:31 → Monday', () => {
    expect(openingHoursText(at(c.fri1531))).toBe(MONDAY);
  });
  it('Thursday 15:31 → tomorrow', () => {
    expect(openingHoursText(at(c.thu1531))).toBe(TOMORROW);
  });
  it('Monday 08:00 → today', () => {
    expect(openingHoursText(at(c.mon0800))).toBe(TODAY);
  });
  it('Monday 00:30 Bratislava (still Sunday in UTC) → today', () => {
    expect(openingHoursText(at(c.mon0030))).toBe(TODAY);
  });
  it('Sunday 20:00 → Monday', () => {
    expect(openingHoursText(at(c.sun2000))).toBe(MONDAY);
  });
  it('Saturday 10:00 → today (literal spec rule)', () => {
    expect(openingHoursText(at(c.sat1000))).toBe(TODAY);
  });
  it('Tuesday 10:00 → today', () => {
    expect(openingHoursText(at(c.tue1000))).toBe(TODAY);
  });
  it('Tuesday 15:29:59 → today, 15:30 sharp → tomorrow', () => {
    expect(openingHoursText(at(c.tue1529))).toBe(TODAY);
    expect(openingHoursText(at(c.tue1530))).toBe(TOMORROW);
  });
  it('Tuesday 16:00 → tomorrow', () => {
    expect(openingHoursText(at(c.tue1600))).toBe(TOMORROW);
  });
});

describe('nextOpeningHoursChange', () => {
  const next = (iso: string) => nextOpeningHoursChange(at(iso)).toISOString();

  it('before closing → today 15:30', () => {
    expect(next('2026-01-13T09:00:00Z')).toBe('2026-01-13T14:30:00.000Z');
    expect(next('2026-07-07T08:00:00Z')).toBe('2026-07-07T13:30:00.000Z');
    expect(next('2026-01-13T14:29:59.999Z')).toBe('2026-01-13T14:30:00.000Z');
  });
  it('at or after closing → next midnight in Bratislava', () => {
    expect(next('2026-01-13T14:30:00Z')).toBe('2026-01-13T23:00:00.000Z');
    expect(next('2026-01-13T15:00:00Z')).toBe('2026-01-13T23:00:00.000Z');
    expect(next('2026-07-07T14:00:00Z')).toBe('2026-07-07T22:00:00.000Z');
  });
  it('at midnight → 15:30 of the new day', () => {
    expect(next('2026-01-13T23:00:00Z')).toBe('2026-01-14T14:30:00.000Z');
  });
  it('rolls over month and year ends', () => {
    expect(next('2026-01-31T15:00:00Z')).toBe('2026-01-31T23:00:00.000Z');
    expect(next('2026-12-31T19:00:00Z')).toBe('2026-12-31T23:00:00.000Z');
  });
  it('handles the spring DST change (29 March 2026, 02:00 → 03:00)', () => {
    // Sat 28 Mar 20:00 CET → midnight is still CET.
    expect(next('2026-03-28T19:00:00Z')).toBe('2026-03-28T23:00:00.000Z');
    // From that midnight the closing time is in CEST.
    expect(next('2026-03-28T23:00:00Z')).toBe('2026-03-29T13:30:00.000Z');
    expect(next('2026-03-29T01:00:00Z')).toBe('2026-03-29T13:30:00.000Z');
  });
  it('handles the autumn DST change (25 October 2026, 03:00 → 02:00)', () => {
    // Sat 24 Oct 20:00 CEST → midnight is CEST.
    expect(next('2026-10-24T18:00:00Z')).toBe('2026-10-24T22:00:00.000Z');
    // Sunday's closing time is in CET.
    expect(next('2026-10-24T22:00:00Z')).toBe('2026-10-25T14:30:00.000Z');
    expect(next('2026-10-25T01:30:00Z')).toBe('2026-10-25T14:30:00.000Z');
    expect(next('2026-10-25T15:00:00Z')).toBe('2026-10-25T23:00:00.000Z');
  });
  it('is always in the future and the text changes only there', () => {
    let t = at('2026-03-27T10:00:00Z');
    for (let i = 0; i < 12; i += 1) {
      const change = nextOpeningHoursChange(t);
      expect(change.getTime()).toBeGreaterThan(t.getTime());
      expect(openingHoursText(new Date(change.getTime() - 1))).toBe(openingHoursText(t));
      t = change;
    }
  });
});
