import { describe, expect, it } from 'vitest';
import { formatDateTimeInput, formatDayInput, ljubljanaDay, parseDateTimeInput, parseDayInput } from './ljubljana-time.ts';

// The helpers never read the process's (the browser's) zone: run this file with TZ=UTC or
// TZ=America/New_York and it passes the same (the e2e tests do it in real browsers).
describe('dates and times typed in Ljubljana time (issue 18 item 4)', () => {
  it('reads d. m. yyyy HH:mm as Ljubljana wall-clock time in winter and summer', () => {
    expect(parseDateTimeInput('23. 11. 2026 10:00')).toBe('2026-11-23T09:00:00.000Z');
    expect(parseDateTimeInput('1. 7. 2026 10:00')).toBe('2026-07-01T08:00:00.000Z');
    expect(parseDateTimeInput('23.11.2026 10:00')).toBe('2026-11-23T09:00:00.000Z');
    expect(parseDateTimeInput('23. 11. 2026, 9:05')).toBe('2026-11-23T08:05:00.000Z');
    expect(parseDateTimeInput('2026-11-23T10:00')).toBe('2026-11-23T09:00:00.000Z');
    expect(parseDateTimeInput('1. 1. 2026 00:00:30')).toBe('2025-12-31T23:00:30.000Z');
  });

  it('refuses what is not a whole, real date and 24-hour time', () => {
    for (const text of ['', '23. 11. 2026', '23. 11. 2026 10', '31. 2. 2026 10:00', '23. 11. 2026 24:00', '11/23/2026 10:00 AM', '23. 11. 26 10:00', '10:00']) {
      expect(parseDateTimeInput(text), text).toBeNull();
    }
  });

  it('shows an instant as Ljubljana wall-clock text and reads it back unchanged', () => {
    expect(formatDateTimeInput('2026-11-23T09:00:00Z')).toBe('23. 11. 2026 10:00');
    expect(formatDateTimeInput('2026-03-31T23:30:00Z')).toBe('1. 4. 2026 01:30');
    expect(formatDateTimeInput('2026-11-23T09:00:05Z')).toBe('23. 11. 2026 10:00:05');
    expect(formatDateTimeInput(null)).toBe('');
    for (let hour = 0; hour < 24 * 400; hour += 7) {
      const iso = new Date(Date.UTC(2026, 0, 1) + hour * 3_600_000).toISOString();
      // Except the hour the autumn change repeats: it reads back as its second (winter) occurrence.
      if (iso.startsWith('2026-10-25T00:')) continue;
      expect(parseDateTimeInput(formatDateTimeInput(iso))).toBe(iso);
    }
  });

  it('takes a time the spring change skips an hour later and a repeated one in winter time', () => {
    expect(parseDateTimeInput('29. 3. 2026 02:30')).toBe('2026-03-29T01:30:00.000Z');
    expect(parseDateTimeInput('25. 10. 2026 02:30')).toBe('2026-10-25T01:30:00.000Z');
  });

  it('keeps calendar days as YYYY-MM-DD', () => {
    expect(parseDayInput('23. 11. 2026')).toBe('2026-11-23');
    expect(parseDayInput(' 1.2.2026 ')).toBe('2026-02-01');
    expect(parseDayInput('2026-02-01')).toBe('2026-02-01');
    expect(parseDayInput('29. 2. 2026')).toBeNull();
    expect(parseDayInput('2. 1.')).toBeNull();
    expect(formatDayInput('2026-02-01')).toBe('1. 2. 2026');
    expect(formatDayInput('')).toBe('');
    expect(ljubljanaDay('2026-03-31T23:30:00Z')).toBe('2026-04-01');
  });
});
