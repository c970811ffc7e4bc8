import { readFile } from 'node:fs/promises';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import XLSX from 'xlsx';
import { apiToken, logIn, seriousAxeViolations } from './support.ts';

/**
 * Issue 17 item 2 "done when": in Chromium an admin exports each kind (users, course participants
 * and progress, NPS answers, costs, consents) from /admin/exports and the downloaded file, opened by
 * a second reader (SheetJS), holds the right rows; an auditor exports consents.
 */
const COMPANY = 'Lekarne Zdravje d.o.o.';
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Ljubljana' }).format(new Date());

type Cell = XLSX.CellObject | undefined;
const readBook = async (path: string) => {
  const book = XLSX.read(await readFile(path), { type: 'buffer', cellNF: true });
  const sheet = book.Sheets[book.SheetNames[0] as string] as XLSX.WorkSheet;
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null });
  const cell = (r: number, c: number): Cell => sheet[XLSX.utils.encode_cell({ r, c })];
  return { names: book.SheetNames, header: rows[0] as string[], rows: rows.slice(1), cell };
};

const api = (request: APIRequestContext, token: string) => {
  const headers = { authorization: `JWT ${token}` };
  return {
    get: async <T>(url: string) => {
      const response = await request.get(url, { headers });
      expect(response.status(), `${url}: ${await response.text()}`).toBe(200);
      return (await response.json()) as T;
    },
    post: async <T>(url: string, data?: object) => {
      const response = await request.post(url, { headers, ...(data ? { data } : {}) });
      expect(response.status(), `${url}: ${await response.text()}`).toBeLessThan(300);
      return (await response.json()) as T;
    },
  };
};

/** No serious or critical accessibility violation (axe-core), in the state the page is in. */
const accessible = async (page: Page) => {
  expect(await seriousAxeViolations(page)).toEqual([]);
};

/** Starts the export filled in on the page, waits for it to finish in the list and downloads its file. */
const runAndDownload = async (page: Page) => {
  const asked = page.waitForResponse((r) => r.url().endsWith('/api/exports') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Začni izvoz' }).click();
  const response = await asked;
  expect(response.status()).toBe(202);
  const { id } = (await response.json()) as { id: number };
  const row = page.locator(`[data-testid="export-row"][data-export="${id}"]`);
  await expect(row.getByTestId('export-status')).toHaveAttribute('data-status', 'finished', { timeout: 30_000 });
  await expect(row.getByTestId('export-status')).toHaveText('Končano');
  const downloading = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Prenesi' }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^izvoz-${id}-[a-z]+\\.xlsx$`));
  return { id, row, book: await readBook((await file.path()) as string) };
};

test('an admin exports each kind and the files hold the right rows; an auditor exports consents', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const admin = api(page.request, await apiToken(page, 'admin'));
  const company = (await admin.get<{ items: { id: number; name: string }[] }>('/api/companies?pageSize=100')).items.find((c) => c.name === COMPANY);
  const units = await admin.get<{ items: { id: number; name: string }[] }>('/api/units?pageSize=100');
  const bezigrad = units.items.find((u) => u.name === 'Lekarna Bežigrad')?.id as number;

  // A course of its own, for Lekarna Bežigrad, that the pharmacist there answers and completes.
  const title = `Izvoz e2e ${Date.now()}`;
  const course = await admin.post<{ id: number }>('/api/courses', {
    type: 3,
    title,
    description: 'Izobraževanje, ki ga izvozimo v preizkusu.',
    cover: '/c.svg',
    creditPoints: 1,
    audience: { unitIds: [bezigrad] },
  });
  const nps = await admin.post<{ id: number }>(`/api/courses/${course.id}/blocks`, {
    block: {
      kind: 'nps',
      name: 'Zadovoljstvo',
      question: 'Bi priporočili?',
      set: 1,
      reasons: { detractor: [], neutral: [], promoter: ['Uporabno'] },
      commentEnabled: true,
    },
  });
  const points = await admin.post<{ id: number }>(`/api/courses/${course.id}/blocks`, { block: { kind: 'points', name: 'Točke', points: 1 } });
  await admin.post(`/api/courses/${course.id}/publish`);
  const pharmacist = await browser.newContext();
  const participant = api(pharmacist.request, await apiToken(await pharmacist.newPage(), 'lekarnar'));
  await participant.post(`/api/user-courses/${course.id}/start`);
  await participant.post(`/api/user-courses/${course.id}/blocks/${nps.id}/open`);
  await participant.post(`/api/user-courses/${course.id}/blocks/${nps.id}/nps`, { score: 9, reasons: ['Uporabno'], comment: 'Jasno in uporabno' });
  await participant.post(`/api/user-courses/${course.id}/blocks/${points.id}/open`);
  await pharmacist.close();

  // From the menu: Podatki > Izvozi.
  await logIn(page, 'admin');
  await page.locator('header [data-menu="data"]').click();
  await page.getByRole('menuitem', { name: 'Izvozi' }).click();
  await expect(page).toHaveURL(/\/admin\/exports$/);
  await expect(page.getByRole('heading', { name: 'Izvozi', level: 1 })).toBeVisible();

  // spec §5 and §8: nothing chosen, then a kind without its parameters.
  await page.getByRole('button', { name: 'Začni izvoz' }).click();
  await expect(page.getByTestId('export-form-error')).toHaveText('Za izvoz morajo biti izpolnjena vsa polja.');
  await page.getByLabel('Vrsta izvoza').selectOption({ label: 'Uporabniki' });
  await page.getByRole('button', { name: 'Začni izvoz' }).click();
  await expect(page.getByTestId('export-form-error')).toHaveText('Za izvoz morajo biti izpolnjena vsa polja.');
  await expect(page.getByLabel('Podjetje')).toHaveAttribute('aria-invalid', 'true');
  await accessible(page);

  // Users of the demo company, active: the same people as the users list.
  await page.getByLabel('Podjetje').selectOption({ label: COMPANY });
  await page.getByLabel('Stanje uporabnikov').selectOption({ label: 'aktivni' });
  await expect(page.getByTestId('export-form-error')).toBeVisible();
  const users = await runAndDownload(page);
  await expect(users.row).toContainText(`Podjetje: ${COMPANY}; Stanje uporabnikov: aktivni`);
  await expect(users.row).toContainText('Ana Skrbnik');
  expect(users.book.names).toEqual(['Uporabniki', 'O izvozu']);
  expect(users.book.header.slice(0, 6)).toEqual(['ID', 'Uporabniško ime', 'Ime', 'Srednje ime', 'Priimek', 'E-pošta']);
  const listed = await admin.get<{ items: { id: number }[]; total: number }>(`/api/users?companyId=${company?.id}&status=active&pageSize=100`);
  expect(users.book.rows.map((r) => r[0]).sort()).toEqual(listed.items.map((u) => u.id).sort());
  expect(users.book.rows.map((r) => r[1])).toEqual(expect.arrayContaining(['vodja', 'racunovodja', 'udelezenec', 'lekarnar']));
  expect(users.book.cell(1, 0)?.t).toBe('n');
  expect(XLSX.SSF.is_date(users.book.cell(1, 13)?.z as string)).toBe(true);

  // Course participants and progress: the pharmacist, completed, both blocks done.
  await page.getByLabel('Vrsta izvoza').selectOption({ label: 'Udeleženci izobraževanja in napredek' });
  await page.getByLabel('Izobraževanje').selectOption({ label: `${title} (#${course.id})` });
  await page.getByLabel('Termin').selectOption({ label: 'Ves čas' });
  const participants = await runAndDownload(page);
  expect(participants.book.rows).toHaveLength(1);
  const [row] = participants.book.rows as unknown[][];
  expect(row?.slice(1, 8)).toEqual(['Luka Lekarnar', 'lekarnar', 'lekarnar@demo.si', 'Magister farmacije', 'Lekarna Bežigrad', COMPANY, 'zaključeno']);
  expect(row?.slice(10, 13)).toEqual([2, 2, 1]);
  expect(participants.book.cell(1, 12)).toMatchObject({ t: 'n', v: 1, z: '0.0%' });

  // NPS answers of today: the one answer, score as a number.
  await page.getByLabel('Vrsta izvoza').selectOption({ label: 'Odgovori NPS' });
  await page.getByLabel('Izobraževanje').selectOption({ label: `${title} (#${course.id})` });
  await page.getByLabel('Od dne').fill(today());
  await page.getByLabel('Do dne').fill(today());
  const answers = await runAndDownload(page);
  expect(answers.book.header).toEqual([
    'Čas odgovora',
    'ID uporabnika',
    'Ime in priimek',
    'E-pošta',
    'Poklic',
    'Enota',
    'Podjetje',
    'Blok',
    'Ocena',
    'Skupina',
    'Razlogi',
    'Komentar',
  ]);
  expect(answers.book.rows).toHaveLength(1);
  expect(answers.book.rows[0]?.slice(7)).toEqual(['Zadovoljstvo', 9, 'promotor', 'Uporabno', 'Jasno in uporabno']);
  expect(answers.book.cell(1, 8)?.t).toBe('n');

  // Costs of the demo company: its courses as the company's cost page lists them, amounts in euros as numbers.
  await page.getByLabel('Vrsta izvoza').selectOption({ label: 'Stroški' });
  await page.getByLabel('Podjetje').selectOption({ label: COMPANY });
  await page.getByLabel('Od dne').fill('2020-01-01');
  await page.getByLabel('Do dne').fill(today());
  const costs = await runAndDownload(page);
  const billed = await admin.get<{ courses: { course: { id: number; title: string }; figures: { finalAmount: number } }[] }>(
    `/api/companies/${company?.id}/costs`,
  );
  expect(costs.book.rows.map((r) => r[1])).toEqual(billed.courses.map((c) => c.course.title));
  expect(costs.book.header[13]).toBe('Končni znesek (€)');
  expect(costs.book.cell(1, 5)).toMatchObject({ t: 'n', z: '#,##0.00 "€"' });
  expect(costs.book.rows[0]?.[13]).toBe((billed.courses[0]?.figures.finalAmount ?? 0) / 100);

  // Consents of everyone: the participant's rows are his consent history.
  await page.getByLabel('Vrsta izvoza').selectOption({ label: 'Privolitve (za revizorja)' });
  await page.getByLabel('Podjetje').selectOption({ label: 'Vsa podjetja' });
  await page.getByLabel('Od dne').fill('2020-01-01');
  await page.getByLabel('Do dne').fill(today());
  const consents = await runAndDownload(page);
  const udelezenec = users.book.rows.find((r) => r[1] === 'udelezenec')?.[0];
  const history = await admin.get<{ timeline: unknown[] }>(`/api/users/${udelezenec}/consents/history`);
  expect(consents.book.rows.filter((r) => r[1] === udelezenec)).toHaveLength(history.timeline.length);
  expect(consents.book.header.slice(0, 6)).toEqual(['Čas', 'ID uporabnika', 'Uporabnik', 'Uporabniško ime', 'Št. v verigi', 'Dejanje']);
  await accessible(page);
  await page.screenshot({ path: test.info().outputPath('admin-exports.png'), fullPage: true });

  // The auditor: Izvozi from the menu, only consents to choose, and the file.
  const auditorContext = await browser.newContext();
  const auditor = await auditorContext.newPage();
  await logIn(auditor, 'revizor');
  await auditor.locator('header [data-menu="exports"]').click();
  await expect(auditor).toHaveURL(/\/admin\/exports$/);
  await expect(auditor.getByLabel('Vrsta izvoza')).toHaveValue('consents');
  await expect(auditor.getByLabel('Vrsta izvoza').locator('option')).toHaveText(['Izberite vrsto izvoza', 'Privolitve (za revizorja)']);
  // The admin's exports of other kinds are not on the auditor's list; the consent export is.
  await expect(auditor.locator(`[data-testid="export-row"][data-export="${users.id}"]`)).toHaveCount(0);
  await expect(auditor.locator(`[data-testid="export-row"][data-export="${consents.id}"]`)).toBeVisible();
  await auditor.getByLabel('Podjetje').selectOption({ label: COMPANY });
  await auditor.getByLabel('Od dne').fill('2020-01-01');
  await auditor.getByLabel('Do dne').fill(today());
  const audited = await runAndDownload(auditor);
  await expect(audited.row).toContainText('Renata Revizor');
  expect(audited.book.rows.filter((r) => r[1] === udelezenec)).toHaveLength(history.timeline.length);
  expect(audited.book.rows.every((r) => r[14] === 'nedotaknjena')).toBe(true);
  await accessible(auditor);
  await auditorContext.close();
});
