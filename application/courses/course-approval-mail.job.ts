import { z } from 'zod';
import type { JobHandler, Jobs } from '../../infrastructure/jobs/jobs.port.ts';
import type { Projection } from '../../infrastructure/projections/projection.port.ts';
import { approvalCourse, approvalPeople } from '../../projections/courses/course-approvals.queries.ts';
import type { CourseReadDb } from '../../projections/courses/courses.queries.ts';
import { alreadySent, deliverMail, type MailDeps, messageIdFor } from '../shared/deliver-mail.ts';
import { mailLayout } from '../shared/mail-layout.ts';
import { loadApprovalSettings, scopeOf } from './course-approval.ts';

/**
 * Mail of approval (issue 36 item 4, decision 0063): the approvers named on the steps of a version
 * just submitted are told it waits for them; its author is told when it is approved (granted) or
 * rejected. Work mail about a person's own duties, so it goes to active accounts whatever their
 * communications consent (as a password reset does). One job per event, one message per person,
 * each sent once (`alreadySent`), so a job run again sends nobody anything twice.
 */
export const APPROVAL_MAIL_QUEUE = 'course.approval.mail';

/** The kinds approval mail is logged under (the admin's mail log names each in Slovenian: identity.outbox.kinds). */
export const APPROVAL_MAIL_KINDS = ['course-approval-waiting', 'course-approval-granted', 'course-approval-rejected'] as const;
type ApprovalMailKind = (typeof APPROVAL_MAIL_KINDS)[number];

export const courseApprovalMailReactor = (jobs: Pick<Jobs, 'send'>): Projection => ({
  name: 'course_approval_mail_jobs',
  version: 1,
  tables: [],
  setup: () => [],
  handles: ['CourseApprovalSubmitted', 'CourseApprovalSigned', 'CourseApprovalGranted'],
  apply: async (_context, events) => {
    for (const event of events) {
      if (event.type === 'CourseApprovalSigned' && (event.data as { decision?: string }).decision !== 'rejected') continue;
      await jobs.send(APPROVAL_MAIL_QUEUE, { streamName: event.streamName, eventId: event.eventId }, { id: messageIdFor(event.eventId, 'approval-mail') });
    }
  },
});

type Submitted = { approvalVersion: number; steps: { key: string; label: string }[]; submittedBy: number | null; comment: string | null };
type Signed = { approvalVersion: number; step: string; comment: string | null; signerName: string };
type Granted = { approvalVersion: number; code: string };

export type ApprovalMailDeps = MailDeps & { readonly db: CourseReadDb; readonly publicUrl: string };

const triggered = z.object({ streamName: z.string().regex(/^course-\d+$/), eventId: z.string() });

export const mailApprovalEvent =
  (deps: ApprovalMailDeps): JobHandler =>
  async (data, meta) => {
    const { streamName, eventId } = triggered.parse(data);
    const events = (await deps.store.readStream(streamName)).events;
    const event = events.find((e) => e.eventId === eventId);
    if (!event) return;
    const courseId = Number(streamName.slice('course-'.length));
    const course = await approvalCourse(deps.db, courseId);
    if (!course) return;
    // The approver's review of the version (the UI's /odobritve/:courseId/:approvalVersion), the author's course page.
    const reviewUrl = (version: number) => `${deps.publicUrl}/odobritve/${courseId}/${version}`;
    const courseUrl = `${deps.publicUrl}/admin/courses/${courseId}/general`;
    const submittedOf = (version: number) =>
      events.find((e) => e.type === 'CourseApprovalSubmitted' && (e.data as Submitted).approvalVersion === version)?.data as Submitted | undefined;

    const send = async (userId: number, content: { subject: string; paragraphs: string[]; action: string; url: string }, kind: ApprovalMailKind) => {
      const messageId = messageIdFor(eventId, `to:${userId}`);
      if (await alreadySent(deps, messageId)) return;
      const [person] = await approvalPeople(deps.db, [userId]);
      if (person?.status !== 'active') return;
      const mail = mailLayout({
        subject: content.subject,
        heading: course.title,
        paragraphs: [`Pozdravljeni, ${person.name}!`, ...content.paragraphs],
        action: { label: content.action, url: content.url },
      });
      await deliverMail(deps, { id: messageId, to: person.email, ...mail }, { kind, triggeredBy: eventId, attempt: meta.retryCount + 1, userId });
    };

    if (event.type === 'CourseApprovalSubmitted') {
      const d = event.data as Submitted;
      const settings = await loadApprovalSettings(deps.store, scopeOf(course.ownerCompanyId === null ? null : { companyId: course.ownerCompanyId, unitId: 0 }));
      const byPerson = new Map<number, string[]>();
      for (const step of d.steps) {
        for (const id of settings.steps.find((s) => s.key === step.key)?.approverIds ?? []) byPerson.set(id, [...(byPerson.get(id) ?? []), step.label]);
      }
      // Separation of duties (decision 0063): the submitter signs none of their own version, so nothing waits for them.
      if (d.submittedBy !== null) byPerson.delete(d.submittedBy);
      for (const [userId, labels] of byPerson) {
        await send(
          userId,
          {
            subject: `Izobraževanje čaka na vašo odobritev: ${course.title}`,
            paragraphs: [
              `Različica ${d.approvalVersion} izobraževanja »${course.title}« je oddana v odobritev. Čaka na vaš podpis v koraku: ${labels.join(', ')}.`,
              ...(d.comment ? [`Sporočilo avtorja: ${d.comment}`] : []),
            ],
            action: 'Preglej in podpiši',
            url: reviewUrl(d.approvalVersion),
          },
          'course-approval-waiting',
        );
      }
      return;
    }
    if (event.type === 'CourseApprovalGranted') {
      const d = event.data as Granted;
      const author = submittedOf(d.approvalVersion)?.submittedBy;
      if (author)
        await send(
          author,
          {
            subject: `Izobraževanje je odobreno: ${course.title}`,
            paragraphs: [
              `Različica ${d.approvalVersion} izobraževanja »${course.title}« je odobrena v vseh korakih. Koda odobritve: ${d.code}.`,
              'Izobraževanje lahko zdaj objavite.',
            ],
            action: 'Odpri izobraževanje',
            url: courseUrl,
          },
          'course-approval-granted',
        );
      return;
    }
    if (event.type === 'CourseApprovalSigned') {
      const d = event.data as Signed;
      const submitted = submittedOf(d.approvalVersion);
      const label = submitted?.steps.find((s) => s.key === d.step)?.label ?? d.step;
      if (submitted?.submittedBy)
        await send(
          submitted.submittedBy,
          {
            subject: `Izobraževanje je zavrnjeno: ${course.title}`,
            paragraphs: [
              `Različica ${d.approvalVersion} izobraževanja »${course.title}« je zavrnjena v koraku »${label}« (${d.signerName}).`,
              ...(d.comment ? [`Razlog: ${d.comment}`] : []),
              'Popravite vsebino in jo znova oddajte v odobritev.',
            ],
            action: 'Odpri izobraževanje',
            url: courseUrl,
          },
          'course-approval-rejected',
        );
    }
  };
