import type { CourseFields } from './course.rules.ts';

/**
 * What each course type of spec §3 means (issue 36 item 1, decision 0062), as pure rules shared by the
 * API (checked at every save and publish of a course) and the course editor (shown as help text).
 *
 * - 1 RX (prescription-only medicine): Directive 2001/83/EC art. 88(1) forbids advertising such
 *   medicines to the general public and art. 91 allows it only to persons qualified to prescribe or
 *   supply them. So an RX course is never public, names only professions the admin marked "may
 *   prescribe or supply" (`mayPrescribe`), and names at least one before publishing. Who reads it is checked
 *   again at read time (course-audience.ts): a profession that loses the flag loses the course.
 * - 4 certified education: accredited by a chamber, so before publishing it has credit points and
 *   issues a certificate.
 * - 5 informative content: no quiz needed, and it gives no credit points and no certificate.
 * - 2 OTC and 3 professional education: the general rules of spec §5 only (OTC medicines may be
 *   advertised to the public, art. 88(2); professional education may carry credit points and a
 *   certificate or not).
 * - 6 to 9 keep the behaviour they already have (academies, the hidden powerclass certificate, live
 *   webinars, surveys).
 *
 * Rules of the 'save' stage hold for every saved course, draft or not; those of the 'publish' stage
 * hold for a published course: they are checked when it is published and at every later save (so a
 * type change of a published course re-runs them).
 */
export const COURSE_TYPE = {
  rx: 1,
  otc: 2,
  professional: 3,
  certified: 4,
  informative: 5,
  powerclass: 6,
  powerclassCertificate: 7,
  live: 8,
  survey: 9,
} as const;

/** The label an RX course carries on its page and on its certificate. */
export const RX_LABEL = 'Rx – samo za strokovno javnost, ki lahko predpisuje ali izdaja zdravila';

/** Whether a course of this type is about a prescription-only medicine (the read-time audience test asks this). */
export const isPrescriptionOnly = (type: number) => type === COURSE_TYPE.rx;

/** The editor's help text per type: what the platform requires of it. */
export const COURSE_TYPE_HELP: Readonly<Record<number, string>> = {
  1: 'Rx: gradivo o zdravilu na recept (Direktiva 2001/83/ES, 88. in 91. člen). Ne sme biti javno; namenjeno je le izbranim poklicem, ki lahko predpisujejo ali izdajajo zdravila. Kdor takega poklica nima (ali ga izgubi), izobraževanja ne vidi.',
  2: 'OTC: gradivo o zdravilu brez recepta. Lahko je javno; kreditne točke in certifikat niso obvezni.',
  3: 'Strokovno izobraževanje: veljajo splošna pravila; kreditne točke in certifikat niso obvezni.',
  4: 'Certificirano izobraževanje: pred objavo mora imeti kreditne točke (več kot 0) in vključen certifikat.',
  5: 'Informativna vsebina: kviz ni potreben; ne prinaša kreditnih točk (0) in ne podeljuje certifikata.',
  6: 'Powerclass: izobraževanje akademije.',
  7: 'Certifikat powerclass: skrit na seznamu izobraževanj, do njega vodi akademija.',
  8: 'V živo: spletni dogodek s sobo, začetkom in koncem.',
  9: 'Anketa.',
};

export const RX_PUBLIC =
  'Izobraževanje o zdravilu na recept (Rx) ne sme biti javno: namenjeno je le strokovni javnosti, ki lahko predpisuje ali izdaja zdravila.';
export const RX_NO_PROFESSIONS =
  'Izobraževanje o zdravilu na recept (Rx) mora biti namenjeno izbranim poklicem: izberite poklice, ki lahko predpisujejo ali izdajajo zdravila.';
export const rxProfessionRefused = (name: string | null) =>
  name === null
    ? 'Izbrani poklic ne obstaja več, zato izobraževanja o zdravilu na recept (Rx) ne more prejeti.'
    : `Poklic »${name}« ne sme predpisovati ali izdajati zdravil, zato izobraževanja o zdravilu na recept (Rx) ne sme prejeti.`;
export const CERTIFIED_NO_POINTS = 'Certificirano izobraževanje mora imeti pred objavo kreditne točke (več kot 0).';
export const CERTIFIED_NO_CERTIFICATE = 'Certificirano izobraževanje mora imeti pred objavo vključen certifikat.';
export const INFORMATIVE_POINTS = 'Informativna vsebina ne prinaša kreditnih točk: nastavite jih na 0.';
export const INFORMATIVE_CERTIFICATE = 'Informativna vsebina ne podeljuje certifikata: izključite ga.';
export const INFORMATIVE_POINTS_BLOCK = 'Informativna vsebina ne prinaša kreditnih točk: blok s kreditnimi točkami ni dovoljen.';

/** What the rules know of a profession: its name (for the message) and the admin's flag. */
export type ProfessionFacts = { readonly name: string; readonly mayPrescribe: boolean };
/** Read state the rules need: the professions by id (all of them, or at least those the course names). */
export type CourseTypeContext = { readonly professions: ReadonlyMap<number, ProfessionFacts> };

export type CourseTypeStage = 'save' | 'publish';
export type CourseTypeProblem = { readonly field: string; readonly message: string };

type Checked = Pick<CourseFields, 'type' | 'public' | 'audience' | 'creditPoints' | 'certificateEnabled'>;

/**
 * The problems of a course against its type's rules, in the order the editor shows its fields.
 * `blockKinds`: the kinds of the course's blocks (the block rules), `stage` as above (the publish
 * stage includes the save stage).
 */
export const courseTypeProblems = (
  course: { readonly fields: Checked; readonly blockKinds: readonly string[] },
  stage: CourseTypeStage,
  context: CourseTypeContext,
): CourseTypeProblem[] => {
  const { fields, blockKinds } = course;
  const problems: CourseTypeProblem[] = [];
  const add = (field: string, message: string) => problems.push({ field, message });
  switch (fields.type) {
    case COURSE_TYPE.rx: {
      if (fields.public) add('public', RX_PUBLIC);
      const professionIds = fields.audience.professionIds;
      // A draft may not name its audience yet (the participants tab sets it after the course is made); it reaches nobody until it does.
      if (stage === 'publish' && professionIds.length === 0) add('audience.professionIds', RX_NO_PROFESSIONS);
      for (const id of professionIds) {
        const profession = context.professions.get(id);
        if (!profession?.mayPrescribe) add('audience.professionIds', rxProfessionRefused(profession?.name ?? null));
      }
      break;
    }
    case COURSE_TYPE.certified:
      if (stage === 'publish' && !(fields.creditPoints > 0)) add('creditPoints', CERTIFIED_NO_POINTS);
      if (stage === 'publish' && !fields.certificateEnabled) add('certificateEnabled', CERTIFIED_NO_CERTIFICATE);
      break;
    case COURSE_TYPE.informative:
      if (fields.creditPoints !== 0) add('creditPoints', INFORMATIVE_POINTS);
      if (fields.certificateEnabled) add('certificateEnabled', INFORMATIVE_CERTIFICATE);
      if (blockKinds.includes('points')) add('kind', INFORMATIVE_POINTS_BLOCK);
      break;
    default:
      break;
  }
  return problems;
};
