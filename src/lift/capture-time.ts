// A capture record's time (`ts`): parsed once for the record's check and the lifter both, and written back in the
// ISO form of xsd:dateTime without making a Date (per message, a Date and its toISOString cost more than the rest
// of the timestamp's quads).
import { flatString } from '../core/flat-string.js';

let lastText: string | undefined;
let lastTime = NaN;

/**
 * `Date.parse(ts)` (NaN when it does not parse). The last text is remembered: records.ts checks a record's `ts`
 * and the lifter then reads the same string, so each parses once.
 */
export function captureTime(ts: string): number {
  if (ts !== lastText) {
    lastTime = Date.parse(ts);
    lastText = ts;
  }
  return lastTime;
}

const dayMs = 86_400_000;
/**
 * 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: toISOString writes years past these with a sign and six
 * digits.
 */
const firstFourDigitYear = -62_167_219_200_000;
const lastFourDigitYear = 253_402_300_799_999;

/** "00" to "99", and "000" to "999": the digits of times, without a padStart per field. */
const twoDigits = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
const threeDigits = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));

/** The day of the last time written, and its `YYYY-MM-DDT`: a capture's records mostly share their day. */
let lastDay = NaN;
let lastDayText = '';

/** `new Date(time).toISOString()` for a time in ms since the epoch, computed from the number. */
export function isoDateTime(time: number): string {
  if (!Number.isInteger(time) || time < firstFourDigitYear || time > lastFourDigitYear)
    return new Date(time).toISOString();
  const days = Math.floor(time / dayMs);
  let ms = time - days * dayMs;
  if (days !== lastDay) {
    lastDay = days;
    lastDayText = civilDate(days);
  }
  const hours = Math.floor(ms / 3_600_000);
  ms -= hours * 3_600_000;
  const minutes = Math.floor(ms / 60_000);
  ms -= minutes * 60_000;
  const seconds = Math.floor(ms / 1000);
  ms -= seconds * 1000;
  return flatString(
    `${lastDayText}${twoDigits[hours]}:${twoDigits[minutes]}:${twoDigits[seconds]}.${threeDigits[ms]}Z`,
  );
}

/** `YYYY-MM-DDT` of a day count since the epoch (H. Hinnant's days_from_civil inverse: 400-year eras starting on
 *  March 1st). */
function civilDate(days: number): string {
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${twoDigits[month]}-${twoDigits[day]}T`;
}
