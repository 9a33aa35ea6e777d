// A capture time is written in the ISO form of xsd:dateTime exactly as Date's toISOString writes it (the lifter
// compares it with the record's text to decide whether the text must be kept too), and parsed as Date.parse does.
import assert from 'node:assert/strict';
import { captureTime, isoDateTime } from '../../src/lift/capture-time.js';

describe('lift: capture times', () => {
  it('writes every time as toISOString does: each day of 400 years, leap days and century years included', () => {
    // 1900-03-01 .. 2300-03-01 covers a whole 400-year era of the calendar (2000 a leap year, 1900, 2100, 2200 not).
    const start = Date.UTC(1900, 2, 1);
    for (let day = 0; day <= 146_097; day++) {
      const time = start + day * 86_400_000 + ((day * 7_919_993) % 86_400_000);
      assert.equal(isoDateTime(time), new Date(time).toISOString());
    }
  });

  it('writes the ends of the four-digit years, the epoch and the milliseconds around them as toISOString does', () => {
    const edges = [
      0,
      -1,
      1,
      999,
      1000,
      86_399_999,
      -62_167_219_200_000,
      253_402_300_799_999,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(1969, 11, 31, 23, 59, 59, 999),
    ];
    for (const time of edges)
      for (const near of [time - 1, time, time + 1])
        assert.equal(isoDateTime(near), new Date(near).toISOString(), `time ${near}`);
  });

  it('writes years before 0000 and after 9999 with a sign and six digits, as toISOString does', () => {
    for (const time of [-62_167_219_200_001, 253_402_300_800_000, Date.UTC(-271_821, 3, 20), 8.64e15])
      assert.equal(isoDateTime(time), new Date(time).toISOString());
  });

  it('parses a capture time as Date.parse does, the same text twice in a row and other texts after it', () => {
    for (const text of [
      '2025-11-25T10:00:00.123Z',
      '2025-11-25T10:00:00.123Z',
      '2025-11-25T12:00:00+02:00',
      'not a time',
      '2025-11-25T10:00:00.123Z',
    ]) {
      assert.deepEqual(captureTime(text), Date.parse(text));
    }
  });
});
