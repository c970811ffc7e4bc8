import { giveRequiredConsents } from '../../application/consents/consents.ts';
import { addBlock, changeCourse, createCourse } from '../../application/courses/author-courses.ts';
import { courseApprovalView, setApprovalSettings, signApproval, submitForApproval } from '../../application/courses/course-approval.ts';
import type { CoursesDeps } from '../../application/courses/courses.deps.ts';
import { registerUser } from '../../application/users/register-user.ts';
import { approvalSettingsRule } from '../../domain/courses/approval-settings.rules.ts';
import { blockRule, courseRule } from '../../domain/courses/course.rules.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import type { PasswordHasher } from '../auth/password-hasher.port.ts';
import type { AllPosition, EventMetadata } from '../event-store/event-store.port.ts';
import type { IdAllocator } from '../ids/id-allocator.port.ts';

/** The demo's approvers (issue 36): one per step of the company's approval. */
export const DEMO_APPROVERS = [
  { username: 'medicina', firstName: 'Maja', lastName: 'Medicina', step: 'medical' },
  { username: 'pravo', firstName: 'Peter', lastName: 'Pravo', step: 'legal' },
  { username: 'regulativa', firstName: 'Rebeka', lastName: 'Regulativa', step: 'regulatory' },
] as const;

/**
 * Approval before publishing in the demo (issue 36, decision 0063): the pharmacy chain's courses need
 * medical, legal and regulatory approval; three approvers sign them. The client (`narocnik`) has one
 * course approved and published with its code, and one waiting in approval with the medical step
 * signed, so `pravo` and `regulativa` find it in their inbox.
 */
export const loadDemoApprovals = async (
  deps: CoursesDeps & { passwords: PasswordHasher; ids: IdAllocator },
  demo: {
    companyId: number;
    unitId: number;
    authorId: number;
    password: string;
    meta: EventMetadata;
    step: <T extends { position: AllPosition | null }>(result: Promise<T>) => Promise<T>;
    cover: (hue: string, label: string) => string;
  },
) => {
  const { meta, step } = demo;
  const approvers = new Map<string, { userId: number; roles: { roleId: 8; unitId: 0; companyId: null }[] }>();
  for (const person of DEMO_APPROVERS) {
    const roles = [{ roleId: ROLE.approver, unitId: 0, companyId: null } as const];
    const { userId } = await step(
      registerUser(
        deps,
        { username: person.username, email: `${person.username}@demo.si`, firstName: person.firstName, lastName: person.lastName, password: demo.password },
        roles,
        meta,
      ),
    );
    await step(giveRequiredConsents({ store: deps.store, now: deps.now }, userId, 'import', meta));
    approvers.set(person.step, { userId, roles: [...roles] });
  }
  const approverOf = (key: string) => approvers.get(key) as { userId: number; roles: { roleId: 8; unitId: 0; companyId: null }[] };
  await step(
    setApprovalSettings(
      deps,
      demo.companyId,
      approvalSettingsRule.parse({
        enabled: true,
        codePrefix: 'MEDI',
        steps: [
          { key: 'medical', label: 'Medicinski pregled', approverIds: [approverOf('medical').userId] },
          { key: 'legal', label: 'Pravni pregled', approverIds: [approverOf('legal').userId] },
          { key: 'regulatory', label: 'Regulatorni pregled', approverIds: [approverOf('regulatory').userId] },
        ],
      }),
      meta,
    ),
  );

  const author = { ...meta, actorId: demo.authorId };
  const owner = { companyId: demo.companyId, unitId: demo.unitId };
  const course = async (fields: object, article: string) => {
    const { id } = await step(createCourse(deps, courseRule.parse({ ...fields, audience: { unitIds: [demo.unitId] } }), author, owner));
    await step(addBlock(deps, id, blockRule.parse({ kind: 'article', name: 'Vsebina', html: article }), undefined, author));
    return id;
  };
  const submit = async (courseId: number) => {
    const view = await courseApprovalView(
      deps,
      { userId: demo.authorId, roles: [{ roleId: ROLE.client, unitId: demo.unitId, companyId: demo.companyId }] },
      courseId,
    );
    await step(
      submitForApproval(deps, courseId, { contentHash: view.contentHash, comment: 'Prosim za pregled pred objavo.' }, { userId: demo.authorId }, author),
    );
    return view.contentHash;
  };
  const sign = async (courseId: number, key: string, contentHash: string, approvalVersion: number) => {
    const signer = approverOf(key);
    await step(
      signApproval(
        deps,
        courseId,
        {
          approvalVersion,
          step: key,
          decision: 'approved',
          comment: 'Vsebina je skladna s povzetkom glavnih značilnosti zdravila.',
          contentHash,
          password: demo.password,
        },
        signer,
        { ...meta, actorId: signer.userId },
      ),
    );
  };

  const approved = await course(
    {
      type: 2,
      title: 'Samozdravljenje bolečine v lekarni',
      description: 'Svetovanje pri izbiri zdravil brez recepta za lajšanje bolečine: odmerki, omejitve in kdaj bolnika napotiti k zdravniku.',
      cover: demo.cover('#5f3dc4', 'Bolečina'),
      creditPoints: 1,
      durationMinutes: 20,
    },
    '<p>Paracetamol in ibuprofen sta prvi izbiri; upoštevajte največje dnevne odmerke in sočasne bolezni.</p>',
  );
  const approvedHash = await submit(approved);
  for (const key of ['medical', 'legal', 'regulatory']) await sign(approved, key, approvedHash, 1);
  await step(changeCourse(deps, approved, { type: 'PublishCourse' }, author));

  const pending = await course(
    {
      type: 2,
      title: 'Vitamin D pri odraslih',
      description: 'Kdaj in komu svetovati dodajanje vitamina D, odmerki in medsebojno delovanje z drugimi zdravili.',
      cover: demo.cover('#e67700', 'Vitamin D'),
      creditPoints: 1,
      durationMinutes: 15,
    },
    '<p>Pri odraslih brez dejavnikov tveganja zadošča 800 do 1000 IE na dan v zimskih mesecih.</p>',
  );
  const pendingHash = await submit(pending);
  await sign(pending, 'medical', pendingHash, 1);
};
