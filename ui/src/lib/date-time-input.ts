/** `datetime-local` text (the browser's zone) to an ISO instant, or null when empty or invalid. */
export const fromDateTimeInput = (local: string) => {
  if (!local) return null;
  const time = new Date(local);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
};

/** An ISO instant as `datetime-local` text in the browser's zone (to the second: what `step={1}` inputs show). */
export const toDateTimeInput = (iso: string | null) => {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
};
