import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../infrastructure/main/demo-data.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

/** The demo (issue 36 "the demo shows a course in approval and an approved one"): the pharmacy chain's approval, as its approvers and client see it. */
describe('the demo’s course approval', () => {
  let p: TestPlatform;
  const get = async (token: string, url: string) => p.app.inject({ method: 'GET', url, headers: { authorization: `JWT ${token}` } });

  beforeAll(async () => {
    p = await startTestPlatform();
    expect(await p.loadDemo()).toBe(true);
  }, 180_000);
  afterAll(async () => p?.close());

  it('has one course waiting for legal and regulatory review and one approved and published with its code', async () => {
    const pravo = (await p.login('pravo', DEMO_PASSWORD)).token;
    const inbox = (await get(pravo, '/api/approvals/inbox')).json() as { items: { courseId: number; title: string; step: string }[] };
    expect(inbox.items.map((i) => [i.title, i.step])).toEqual([['Vitamin D pri odraslih', 'legal']]);
    const medicina = (await p.login('medicina', DEMO_PASSWORD)).token;
    expect(((await get(medicina, '/api/approvals/inbox')).json() as { total: number }).total).toBe(0);

    const client = (await p.login('narocnik', DEMO_PASSWORD)).token;
    const courses = (await get(client, '/api/courses')).json() as { items: { id: number; title: string }[] };
    const approvedId = courses.items.find((c) => c.title === 'Samozdravljenje bolečine v lekarni')?.id;
    const approval = (await get(client, `/api/courses/${approvedId}/approval`)).json() as {
      required: boolean;
      upToDate: boolean;
      lastApproved: { code: string };
      published: { approvalCode: string };
    };
    expect(approval.required).toBe(true);
    expect(approval.upToDate).toBe(true);
    expect(approval.lastApproved.code).toMatch(/^MEDI-\d{4}-0001$/);
    expect(approval.published.approvalCode).toBe(approval.lastApproved.code);
    const pendingId = inbox.items[0]?.courseId;
    const pending = (await get(client, `/api/courses/${pendingId}/approval`)).json() as { current: { status: string; steps: { decision: string | null }[] } };
    expect(pending.current.status).toBe('pending');
    expect(pending.current.steps.map((s) => s.decision)).toEqual(['approved', null, null]);
  });
});
