import { describe, expect, it } from 'vitest';
import sl from '../../ui/src/locales/sl.json' with { type: 'json' };
import { APPROVAL_MAIL_KINDS } from '../courses/course-approval-mail.job.ts';
import { NOTIFICATION_KINDS, notificationMailKind } from '../courses/course-notifications.ts';
import { IDENTITY_MAIL_KINDS } from '../users/identity-mail.job.ts';

/**
 * The admin's mail log (/admin/posta) names each message's kind; issue 33 item 8 found
 * "course-manual" there untranslated. Every kind the platform sends mail under has a Slovenian name.
 */
describe('mail kinds in the mail log', () => {
  const labels: Record<string, string> = sl.identity.outbox.kinds;
  const kinds = [...IDENTITY_MAIL_KINDS, ...NOTIFICATION_KINDS.map(notificationMailKind), ...APPROVAL_MAIL_KINDS];

  it('names every kind of mail in Slovenian, never by its code', () => {
    for (const kind of kinds) {
      expect(labels[kind], kind).toMatch(/\S/);
      expect(labels[kind], kind).not.toBe(kind);
    }
    expect(labels['course-manual']).toBe('Obvestilo izobraževanja');
    expect(labels['course-reminder']).toBe('Opomnik izobraževanja');
    expect(labels['course-new-course']).toBe('Novo izobraževanje');
    // Issue 36: approval mail.
    expect(labels['course-approval-waiting']).toBe('Izobraževanje čaka na odobritev');
    expect(labels['course-approval-granted']).toBe('Izobraževanje je odobreno');
    expect(labels['course-approval-rejected']).toBe('Izobraževanje je zavrnjeno');
  });
});
