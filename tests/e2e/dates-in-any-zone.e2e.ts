import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { CONSENT_TEXTS } from '../../domain/consents/consent.rules.ts';
import { apiToken, courseIdByTitle, logIn } from './support.ts';

/**
 * Issue 18 item 4: dates and times are typed in Slovenian order and 24-hour time and mean
 * Europe/Ljubljana whatever the browser's zone and language. Two browsers far from Ljubljana, both
 * in American English: an admin types 10:00 into a news item's "Prikazuj od", a course's interval
 * (start and end) and the costs page's "as of"; the API receives and stores the Ljubljana instant
 * (09:00Z in winter, 08:00Z in summer), and after a reload 10:00 is shown again, in the fields and
 * in the text around them. The costs timeline's chart axis and table (and the profit tab's) write a
 * day or a month the same way.
 */
const ZONES = [
  { timezoneId: 'UTC', locale: 'en-US' },
  { timezoneId: 'America/New_York', locale: 'en-US' },
] as const;

const COURSE = 'Interakcije zdravil v lekarni';

const courseId = async (request: APIRequestContext, headers: Record<string, string>) => {
  return courseIdByTitle(request, headers, COURSE);
};

/** A participant of the demo participant's unit, made for this test (no other suite's participant changes); its API headers. */
const newParticipant = async (page: Page, admin: Record<string, string>) => {
  const template = (await (await page.request.get('/api/users/me', { headers: { authorization: `JWT ${await apiToken(page, 'udelezenec')}` } })).json()) as {
    profession: { id: number } | null;
    userRoles: { role_id: number; unit_id: number; company_id: number }[];
  };
  const place = template.userRoles.find((r) => r.role_id === 10) as { unit_id: number; company_id: number };
  const tag = Date.now().toString(36);
  const created = await page.request.post('/api/users', {
    headers: admin,
    data: {
      username: `ura${tag}`,
      email: `ura${tag}@demo.si`,
      firstName: 'Urša',
      lastName: 'Časovna',
      phone: '041 123 456',
      professionId: template.profession?.id ?? null,
      licenceNumber: '12345',
      roles: [{ roleId: 10, companyId: place.company_id, unitId: place.unit_id }],
      sendWelcome: false,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const userId = ((await created.json()) as { id: number }).id;
  const link = (await (await page.request.post(`/api/users/${userId}/login-tokens`, { headers: admin })).json()) as { token: string };
  const session = (await (await page.request.post('/api/auth/token', { data: { token: link.token } })).json()) as { authToken: string };
  const headers = { authorization: `JWT ${session.authToken}` };
  const consents = await page.request.post('/api/users/me/consents', {
    headers,
    data: { consents: CONSENT_TEXTS.map((t) => ({ type: t.type, textVersion: t.version })) },
  });
  expect(consents.status(), await consents.text()).toBeLessThan(300);
  return headers;
};

for (const zone of ZONES) {
  test(`a browser in ${zone.timezoneId} (${zone.locale}): 10:00 typed is 10:00 in Ljubljana, sent as its instant and shown again`, async ({ browser }) => {
    const context = await browser.newContext({ timezoneId: zone.timezoneId, locale: zone.locale });
    const page = await context.newPage();
    await page.goto('/prijava');
    // The browser really is elsewhere: its own zone and language.
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(zone.timezoneId);
    expect(await page.evaluate(() => navigator.language)).toBe(zone.locale);
    await logIn(page, 'admin');
    const headers = { authorization: `JWT ${await apiToken(page, 'admin')}` };

    // A news item (inactive: no other suite sees it) from 8:00 UTC on 10 January 2027, i.e. 9:00 in Ljubljana.
    const created = await page.request.post('/api/news', {
      headers,
      data: {
        title: `Ura v ${zone.timezoneId} ${Date.now().toString(36)}`,
        htmlContent: '<p>Časi so v ljubljanskem času.</p>',
        active: false,
        dateFrom: '2027-01-10T08:00:00.000Z',
        dateTo: '2027-02-10T08:00:00.000Z',
      },
    });
    expect(created.status(), await created.text()).toBeLessThan(300);
    const { id } = (await created.json()) as { id: number };
    try {
      await page.goto(`/admin/news/${id}`);
      const from = page.getByRole('textbox', { name: 'Prikazuj od' });
      const to = page.getByRole('textbox', { name: 'Prikazuj do' });
      await expect(from).toHaveValue('10. 1. 2027 09:00');
      await expect(to).toHaveValue('10. 2. 2027 09:00');

      // Typed: winter and summer time, and something no Slovenian would type (US order with AM/PM) refused on the field.
      await from.fill('12/1/2027 10:00 AM');
      await from.blur();
      await expect(page.getByText('Vnesite datum in uro kot d. m. llll hh:mm (24-urni čas), npr. 23. 11. 2026 10:00.')).toBeVisible();
      await from.fill('1. 12. 2027 10:00');
      await to.fill('15. 7. 2028 22:30');
      const saved = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith(`/api/news/${id}`));
      await page.getByRole('button', { name: 'Shrani' }).click();
      const body = (await saved).postDataJSON() as { dateFrom: string; dateTo: string };
      expect(body.dateFrom).toBe('2027-12-01T09:00:00.000Z');
      expect(body.dateTo).toBe('2028-07-15T20:30:00.000Z');
      await expect(page.getByText('Spremembe so shranjene.')).toBeVisible();
      const stored = (await (await page.request.get(`/api/news/${id}`, { headers })).json()) as { dateFrom: string; dateTo: string };
      expect(Date.parse(stored.dateFrom)).toBe(Date.parse('2027-12-01T09:00:00Z'));
      await page.reload();
      await expect(from).toHaveValue('1. 12. 2027 10:00');
      await expect(to).toHaveValue('15. 7. 2028 22:30');

      // The calendar is Slovenian, starts on Monday, and picking a day keeps the time typed.
      await page.getByRole('button', { name: 'Izberi datum v koledarju' }).first().click();
      const calendar = page.locator('[data-dates-dropdown], .mantine-Popover-dropdown').filter({ hasText: 'december 2027' });
      await expect(calendar).toBeVisible();
      await expect(calendar.locator('thead th').first()).toHaveText(/^po/i);
      await calendar.getByRole('button', { name: '3. december 2027', exact: true }).click();
      await expect(from).toHaveValue('3. 12. 2027 10:00');
    } finally {
      await page.request.delete(`/api/news/${id}`, { headers });
    }

    // A course's interval (a past one, so its costs window shows it whole): start in winter, end in
    // summer time, typed in Ljubljana time.
    const made = await page.request.post('/api/courses', {
      headers,
      data: {
        type: 3,
        title: `Termin v ${zone.timezoneId} ${Date.now().toString(36)}`,
        description: 'Izobraževanje, katerega termin je vnesen v ljubljanskem času.',
        cover: '/covers/ura.svg',
        creditPoints: 1,
        public: false,
      },
    });
    expect(made.status(), await made.text()).toBe(201);
    const { id: newCourse } = (await made.json()) as { id: number };
    try {
      await page.goto(`/admin/courses/${newCourse}/general`);
      await page.getByRole('button', { name: 'Dodaj termin' }).click();
      const interval = page.getByTestId('interval-0');
      const start = interval.getByRole('textbox', { name: 'Začetek' });
      const stop = interval.getByRole('textbox', { name: 'Konec' });
      // What the fields ask for: Slovenian order, 24-hour time.
      await expect(start).toHaveAttribute('placeholder', 'd. m. llll hh:mm');
      await start.fill('3. 3. 2025 10:00');
      await stop.fill('2. 6. 2025 22:30');
      const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith(`/api/courses/${newCourse}`));
      await page.getByRole('button', { name: 'Shrani' }).click();
      const sent = (await put).postDataJSON() as { intervals: { startsAt: string; stopsAt: string }[] };
      expect(sent.intervals).toEqual([{ startsAt: '2025-03-03T09:00:00.000Z', stopsAt: '2025-06-02T20:30:00.000Z' }]);
      await expect(page.getByText('Spremembe so shranjene.')).toBeVisible();
      const course = (await (await page.request.get(`/api/courses/${newCourse}`, { headers })).json()) as {
        fields: { intervals: { startsAt: string; stopsAt: string }[] };
      };
      expect(course.fields.intervals.map((i) => [Date.parse(i.startsAt), Date.parse(i.stopsAt)])).toEqual([
        [Date.parse('2025-03-03T09:00:00Z'), Date.parse('2025-06-02T20:30:00Z')],
      ]);
      await page.reload();
      await expect(page.getByTestId('interval-0').getByRole('textbox', { name: 'Začetek' })).toHaveValue('3. 3. 2025 10:00');
      await expect(page.getByTestId('interval-0').getByRole('textbox', { name: 'Konec' })).toHaveValue('2. 6. 2025 22:30');
      // And as text: the course's costs for that interval name it in Ljubljana time, 24-hour.
      await page.goto(`/admin/courses/${newCourse}/costs/1`);
      await expect(page.getByTestId('stats-window')).toContainText('Termin 3. mar. 2025, 10:00 – 2. jun. 2025, 22:30');
    } finally {
      await page.request.delete(`/api/courses/${newCourse}`, { headers });
    }

    // The costs page, where the user test found it: "as of" 10:00 asks the API for 09:00Z and shows 10:00.
    const course = await courseId(page.request, headers);
    await page.goto(`/admin/courses/${course}/costs/0`);
    await expect(page.getByRole('heading', { name: 'Stroški' })).toBeVisible();
    await page.getByTestId('stats-as-of').fill('20. 11. 2026 10:00');
    const asked = page.waitForRequest((r) => r.url().includes('/api/') && new URL(r.url()).searchParams.has('asOf'));
    await page.getByRole('button', { name: 'Prikaži', exact: true }).click();
    expect(new URL((await asked).url()).searchParams.get('asOf')).toBe('2026-11-20T09:00:00.000Z');
    await expect(page.getByTestId('stats-window')).toContainText('stanje na 20. nov. 2026, 10:00');
    await page.reload();
    await expect(page.getByTestId('stats-as-of')).toHaveValue('20. 11. 2026 10:00');
    await expect(page.getByTestId('stats-window')).toContainText('stanje na 20. nov. 2026, 10:00');

    // One date format in tables and charts: the costs timeline's days read the same on the chart's axis
    // as in the table below it ("23. nov. 2026", never "2026-11-23"). A course of its own, opened once
    // (a view) by a participant made for it, so the timeline has a day.
    const viewed = await page.request.post('/api/courses', {
      headers,
      data: {
        type: 3,
        title: `Časovnica v ${zone.timezoneId} ${Date.now().toString(36)}`,
        description: 'Izobraževanje, katerega ogledi so na časovnici stroškov.',
        cover: '/covers/ura.svg',
        creditPoints: 1,
        public: true,
      },
    });
    expect(viewed.status(), await viewed.text()).toBe(201);
    const { id: viewedId } = (await viewed.json()) as { id: number };
    expect(
      (await page.request.post(`/api/courses/${viewedId}/blocks`, { headers, data: { block: { kind: 'points', name: 'Točke', points: 1 } } })).status(),
    ).toBe(201);
    expect((await page.request.post(`/api/courses/${viewedId}/publish`, { headers })).status()).toBe(200);
    const started = await page.request.post(`/api/user-courses/${viewedId}/start`, { headers: await newParticipant(page, headers) });
    expect(started.status(), await started.text()).toBeLessThan(300);
    await page.goto(`/admin/courses/${viewedId}/costs/0`);
    const firstPeriod = page.getByTestId('costs-timeline').locator('tbody tr').first().locator('td').first();
    await expect(firstPeriod).toHaveText(/^\d{1,2}\. \p{L}{3,4}\.? \d{4}$/u);
    const axis = page.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value');
    await expect(axis.first()).toHaveText(await firstPeriod.innerText());
    await expect(axis.filter({ hasText: /\d{4}-\d{2}/ })).toHaveCount(0);
    // By month: "nov. 2026" on the axis and in the table alike.
    await page.getByText('Meseci', { exact: true }).click();
    await expect(firstPeriod).toHaveText(/^\p{L}{3,4}\.? \d{4}$/u);
    await expect(axis.first()).toHaveText(await firstPeriod.innerText());
    const month = await firstPeriod.innerText();
    // The profit tab's months read the same.
    await page.goto(`/admin/courses/${viewedId}/profit`);
    await expect(page.getByTestId('profit-timeline').locator('tbody tr').first().locator('td').first()).toHaveText(month);
    await page.request.delete(`/api/courses/${viewedId}`, { headers });
    await context.close();
  });
}
