// Whether a date the owner wrote exists on the calendar: `2026-02-30` and `2022-13` match a date's shape
// but name no day, and JavaScript's Date rolls them over (to March 2) instead of refusing them. Pure.

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** Days in `month` (1–12) of `year`, by the Gregorian rule (2028-02-29 exists, 2100-02-29 does not). */
function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Why `text` (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`, digits already checked by its caller) names no day of the
 * calendar, or null when it does: "there is no month 13", "February 2026 has 28 days".
 */
export function missingDate(text: string): string | null {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(text);
  if (match === null) return 'it is not written YYYY, YYYY-MM or YYYY-MM-DD';
  const year = Number(match[1]);
  if (match[2] === undefined) return null;
  const month = Number(match[2]);
  if (month < 1 || month > 12) return `there is no month ${match[2]}`;
  if (match[3] === undefined) return null;
  const day = Number(match[3]);
  const days = daysIn(year, month);
  if (day < 1 || day > days) return `${MONTHS[month - 1]} ${year} has ${days} days, so there is no day ${match[3]}`;
  return null;
}
