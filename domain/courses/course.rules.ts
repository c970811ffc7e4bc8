import { z } from 'zod';
import { type ReferenceKind, refId } from '../shared/id.rules.ts';
import { singleLine } from '../shared/text.rules.ts';
import { REQUIRED } from '../users/user.rules.ts';
import { coverRule } from './cover.rules.ts';

/**
 * Field rules of spec §5 for courses and their blocks, shared by the API and the UI: name, cover,
 * description (at least 20 characters) and points required; credit points 0.0 to 10.0; discount 0
 * to 100 %; sharedCost a number; public courses must not target users; at least one profession
 * when targeting by profession; no duplicate intervals. Quiz: at least 1 question, batch size not
 * above the number of questions, question and answer text required, a correct answer selected.
 */
const TOO_LONG = 'Vnos je predolg';
const text = (max: number) => z.string({ error: REQUIRED }).trim().min(1, { error: REQUIRED }).max(max, { error: TOO_LONG });
/** A single-line text: titles, names, addresses. */
const line = (max: number) => singleLine(text(max));
/** Ids of records of one kind (declared references: resolved for the caller before a request is handled). */
const ids = (kind: ReferenceKind) => z.array(refId(kind)).max(10_000).default([]);

/** spec §3 course types: 1 RX, 2 OTC, 3 professional, 4 certified, 5 informative, 6 powerclass, 7 powerclass certificate, 8 live, 9 survey. */
export const COURSE_TYPES = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;

export const creditPointsRule = z
  .number({ error: REQUIRED })
  .min(0, { error: 'Kreditne točke morajo biti med 0,0 in 10,0' })
  .max(10, { error: 'Kreditne točke morajo biti med 0,0 in 10,0' })
  .refine((v) => Math.abs(Math.round(v * 10) - v * 10) < 1e-9, { error: 'Kreditne točke imajo največ eno decimalno mesto' });

export const intervalRule = z
  .object({ startsAt: z.iso.datetime({ error: 'Vnesite veljaven datum' }), stopsAt: z.iso.datetime({ error: 'Vnesite veljaven datum' }) })
  .strict()
  .refine((i) => new Date(i.startsAt) < new Date(i.stopsAt), { error: 'Konec mora biti po začetku', path: ['stopsAt'] });

const email = singleLine(z.string().trim().max(254, { error: TOO_LONG })).pipe(z.email({ error: 'Vnesite veljaven e-naslov' }));
const emails = z.array(email).max(50).default([]);

/** spec §9 reminders: every 1, 2, 3 or 4 weeks, on chosen days of the week (1 Monday ... 7 Sunday). */
export const REMINDER_WEEKS = [1, 2, 3, 4] as const;
export const WEEK_DAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export const reminderRule = z
  .object({
    everyWeeks: z.literal(REMINDER_WEEKS, { error: 'Izberite, na koliko tednov' }),
    days: z
      .array(z.literal(WEEK_DAYS))
      .min(1, { error: 'Izberite vsaj en dan v tednu' })
      .max(7)
      .transform((days) => [...new Set(days)].sort()),
  })
  .strict();

/** spec §3 course type 8. */
const LIVE_TYPE = 8;
/** spec §3 live webinar roles: attendees are the course's participants; the others are named by e-mail. */
export const LIVE_ROLES = ['host', 'interpreter', 'moderator', 'presenter'] as const;
export const liveRule = z
  .object({
    roomId: line(100),
    startsAt: z.iso.datetime({ error: 'Vnesite veljaven datum' }),
    stopsAt: z.iso.datetime({ error: 'Vnesite veljaven datum' }),
    roles: z
      .object({ host: emails, interpreter: emails, moderator: emails, presenter: emails })
      .strict()
      .default({ host: [], interpreter: [], moderator: [], presenter: [] }),
  })
  .strict()
  .refine((l) => new Date(l.startsAt) < new Date(l.stopsAt), { error: 'Konec mora biti po začetku', path: ['stopsAt'] });

/** A course's estimated duration: whole minutes up to 100 hours. */
export const MAX_DURATION_MINUTES = 6000;
const DURATION_MESSAGE = 'Trajanje je celo število minut med 1 in 6000';

/** spec §3 active campaign package: 0 inactive, 1 regular, 2 large, 3 very large. */
export const CAMPAIGN_PACKAGES = [0, 1, 2, 3] as const;

export const audienceRule = z
  .object({
    byProfession: z.boolean().default(false),
    professionIds: ids('profession'),
    unitIds: ids('unit'),
    companyIds: ids('company'),
    groupIds: ids('communityGroup'),
  })
  .strict();

export const courseRule = z
  .object({
    type: z.literal(COURSE_TYPES, { error: 'Izberite vrsto izobraževanja' }),
    title: line(200),
    description: z
      .string({ error: REQUIRED })
      .trim()
      .min(1, { error: REQUIRED })
      .min(20, { error: 'Opis mora imeti najmanj 20 znakov' })
      .max(20_000, { error: TOO_LONG }),
    cover: coverRule(line(1000)),
    creditPoints: creditPointsRule,
    public: z.boolean().default(false),
    audience: audienceRule.default({ byProfession: false, professionIds: [], unitIds: [], companyIds: [], groupIds: [] }),
    intervals: z.array(intervalRule).max(100).default([]),
    prerequisites: ids('course'),
    certificateEnabled: z.boolean().default(true),
    postsEnabled: z.boolean().default(false),
    notificationsEnabled: z.boolean().default(false),
    discount: z.number().min(0, { error: 'Popust mora biti med 0 in 100 %' }).max(100, { error: 'Popust mora biti med 0 in 100 %' }).default(0),
    sharedCostCents: z.number({ error: 'Vnesite število' }).int({ error: 'Vnesite število' }).min(0).default(0),
    lecturer: singleLine(z.string().trim().max(200, { error: TOO_LONG }))
      .nullish()
      .transform((v) => v || null),
    /**
     * How long the course takes, in minutes, as its author estimates it (issue 33: shown on the course
     * card). Not a spec §3 field and not derivable from the blocks (only videos know their length), so
     * it is optional and set by the author; null = not shown.
     */
    durationMinutes: z
      .number({ error: DURATION_MESSAGE })
      .int({ error: DURATION_MESSAGE })
      .min(1, { error: DURATION_MESSAGE })
      .max(MAX_DURATION_MINUTES, { error: DURATION_MESSAGE })
      .nullish()
      .transform((v) => v ?? null),
    // spec §3; each only while its feature of spec §1 is on (the API refuses it otherwise, decision 0016).
    zoomUrl: singleLine(z.string().trim().max(500, { error: TOO_LONG }))
      .refine((v) => v === '' || /^https:\/\/([\w-]+\.)*zoom\.us\/\S+$/.test(v), { error: 'Vnesite povezavo Zoom (https://…zoom.us/…)' })
      .nullish()
      .transform((v) => v || null),
    /** Interactr embed code; the server keeps only an iframe from Interactr's own hosts. */
    interactrHtml: z
      .string()
      .trim()
      .max(20_000, { error: TOO_LONG })
      .nullish()
      .transform((v) => v || null),
    externalId: singleLine(z.string().trim().max(100, { error: TOO_LONG }))
      .nullish()
      .transform((v) => v || null),
    syncDestination: z
      .union([z.literal(1), z.literal(2), z.literal(3)], { error: 'Izberite eno od zbornic' })
      .nullish()
      .transform((v) => v ?? null),
    /** Course tags (kind "course"): what the list filters by; a course without one is flagged for publishing (spec §4). */
    tagIds: ids('courseTag'),
    /** The detailed NPS report (spec §3 detailNps; priced as detailedNpsAmount in the costs). */
    detailNps: z.boolean().default(false),
    /** spec §9: a reminder every 1, 2, 3 or 4 weeks on chosen days to those who have not finished; null = none. */
    reminder: reminderRule.nullish().transform((v) => v ?? null),
    /** Who is told of the course's notifications besides its audience (spec §3 notification emails). */
    notificationEmails: emails,
    /** spec §3 live webinar fields; only for a live course (type 8) while live courses are on. */
    live: liveRule.nullish().transform((v) => v ?? null),
    /** A course-level Vimeo video (e.g. a trailer) and Typeform survey (spec §3). */
    vimeoId: z
      .string()
      .trim()
      .refine((v) => v === '' || /^\d{1,15}$/.test(v), { error: 'Vimeo ID je številka' })
      .nullish()
      .transform((v) => v || null),
    typeformId: z
      .string()
      .trim()
      .refine((v) => v === '' || /^[A-Za-z0-9]{4,20}$/.test(v), { error: 'Neveljaven Typeform ID' })
      .nullish()
      .transform((v) => v || null),
    /** spec §3 active campaign package: 0 inactive, 1 regular, 2 large, 3 very large. */
    campaignPackage: z.literal(CAMPAIGN_PACKAGES, { error: 'Izberite paket' }).default(0),
  })
  .strict()
  .superRefine((course, ctx) => {
    if (course.live !== null && course.type !== LIVE_TYPE)
      ctx.addIssue({ code: 'custom', path: ['live'], message: 'Podatki spletnega dogodka veljajo le za izobraževanje v živo' });
    const a = course.audience;
    const targets = a.professionIds.length + a.unitIds.length + a.companyIds.length + a.groupIds.length;
    if (course.public && targets > 0)
      ctx.addIssue({ code: 'custom', path: ['public'], message: 'Javno izobraževanje ne sme imeti izbranih ciljnih uporabnikov' });
    if (a.byProfession && a.professionIds.length === 0)
      ctx.addIssue({ code: 'custom', path: ['audience', 'professionIds'], message: 'Izberite vsaj en poklic' });
    const seen = new Set<string>();
    course.intervals.forEach((interval, i) => {
      const key = `${new Date(interval.startsAt).getTime()}|${new Date(interval.stopsAt).getTime()}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['intervals', i], message: 'Podvojeni termini niso dovoljeni' });
      seen.add(key);
    });
  });

export type CourseFields = z.output<typeof courseRule>;

// ------------------------------------------------------------------ blocks

const name = line(200);

/**
 * When a participant sees the right answers and the author's explanations (issue 33): after each
 * attempt, only once no attempt is left or the quiz is passed, or never. Whether each chosen answer
 * was right is shown after every attempt whatever the choice.
 */
export const REVEAL_ANSWERS = ['always', 'afterLast', 'never'] as const;
export const revealAnswersRule = z.enum(REVEAL_ANSWERS, { error: 'Izberite, kdaj udeleženec vidi pravilne odgovore' });

/** Waiting time before a new set of attempts: 1 hour to 30 days. */
export const RETRY_WAIT_HOURS = { min: 1, max: 720 } as const;
const HOURS_ERROR = `Čakanje je od ${RETRY_WAIT_HOURS.min} do ${RETRY_WAIT_HOURS.max} ur`;

/**
 * What follows the last failed attempt (issue 33, decision 0053): the course ends as not passed with
 * the author's message and whom to contact, or a new set of attempts opens after a waiting time.
 */
export const afterLastFailRule = z.discriminatedUnion(
  'kind',
  [
    z
      .object({
        kind: z.literal('end'),
        message: z.string({ error: REQUIRED }).trim().min(1, { error: 'Vpišite sporočilo udeležencu' }).max(2000, { error: TOO_LONG }),
        contact: singleLine(z.string({ error: REQUIRED }).trim().min(1, { error: 'Vpišite, na koga naj se udeleženec obrne' }).max(300, { error: TOO_LONG })),
      })
      .strict(),
    z
      .object({
        kind: z.literal('wait'),
        hours: z
          .number({ error: 'Vpišite število ur' })
          .int({ error: 'Vpišite celo število ur' })
          .min(RETRY_WAIT_HOURS.min, { error: HOURS_ERROR })
          .max(RETRY_WAIT_HOURS.max, { error: HOURS_ERROR }),
      })
      .strict(),
  ],
  { error: 'Izberite, kaj sledi zadnjemu neuspešnemu poskusu' },
);
export type AfterLastFail = z.output<typeof afterLastFailRule>;

/**
 * Defaults for quizzes saved before these settings existed (their stored blocks lack them): the
 * right answers only once no attempt is left, so nobody with attempts learns them (as before, when
 * nothing was shown), and a new set of attempts after a day, so a participant who used them all is
 * no longer stuck, and no course an author never chose to end ends for them as not passed.
 */
export const QUIZ_OUTCOME_DEFAULTS = { revealAnswers: 'afterLast', afterLastFail: { kind: 'wait', hours: 24 } } as const satisfies {
  revealAnswers: (typeof REVEAL_ANSWERS)[number];
  afterLastFail: AfterLastFail;
};

/** A stored quiz's outcome settings, with the defaults where it has none (or, never expected, an invalid one). */
export const quizOutcomeOf = (fields: { revealAnswers?: unknown; afterLastFail?: unknown }) => {
  const reveal = revealAnswersRule.safeParse(fields.revealAnswers);
  const after = afterLastFailRule.safeParse(fields.afterLastFail);
  return {
    revealAnswers: reveal.success ? reveal.data : QUIZ_OUTCOME_DEFAULTS.revealAnswers,
    afterLastFail: after.success ? after.data : { ...QUIZ_OUTCOME_DEFAULTS.afterLastFail },
  };
};

export const quizBlockRule = z
  .object({
    kind: z.literal('quiz'),
    name,
    batchSize: z.number({ error: REQUIRED }).int().min(1, { error: 'Velikost sklopa mora biti vsaj 1' }),
    successThreshold: z.number({ error: REQUIRED }).min(0).max(100, { error: 'Prag uspešnosti je med 0 in 100 %' }),
    retries: z.number().int().min(0).max(100).default(0),
    questions: z
      .array(
        z
          .object({
            id: z.string().min(1).max(40),
            text: text(2000),
            /** Why the right answer is right, in the author's words; shown as revealAnswers allows. */
            explanation: z.string().trim().max(5000, { error: TOO_LONG }).default(''),
            answers: z
              .array(z.object({ id: z.string().min(1).max(40), text: text(1000), correct: z.boolean().default(false) }).strict())
              .min(2, { error: 'Vprašanje potrebuje vsaj dva odgovora' }),
          })
          .strict()
          .refine((q) => q.answers.filter((a) => a.correct).length === 1, { error: 'Izberite pravilen odgovor', path: ['answers'] })
          // Answers are graded by id: two answers with one id would make one choice count as both.
          .refine((q) => new Set(q.answers.map((a) => a.id)).size === q.answers.length, { error: 'Odgovori vprašanja se ponavljajo', path: ['answers'] }),
      )
      .min(1, { error: 'Kviz potrebuje vsaj eno vprašanje' })
      // A participant answers by question id: two questions with one id would be passed with one answer.
      .refine((questions) => new Set(questions.map((q) => q.id)).size === questions.length, { error: 'Vprašanja v kvizu se ponavljajo' }),
    revealAnswers: revealAnswersRule.default(QUIZ_OUTCOME_DEFAULTS.revealAnswers),
    afterLastFail: afterLastFailRule.default({ ...QUIZ_OUTCOME_DEFAULTS.afterLastFail }),
  })
  .strict()
  .refine((quiz) => quiz.questions.length === 0 || quiz.batchSize <= quiz.questions.length, {
    error: 'Velikost sklopa ne sme presegati števila vprašanj',
    path: ['batchSize'],
  });

/** spec §3: NPS predefined sets 1 to 5 and 8. */
export const NPS_SETS = [1, 2, 3, 4, 5, 8] as const;

const reasons = z.array(line(300)).max(50).default([]);

export const npsBlockRule = z
  .object({
    kind: z.literal('nps'),
    name,
    question: text(1000),
    set: z.literal(NPS_SETS, { error: 'Izberite nabor' }),
    reasons: z.object({ detractor: reasons, neutral: reasons, promoter: reasons }).strict(),
    commentEnabled: z.boolean().default(false),
    followUps: z
      .array(
        z
          .object({
            professionGroupId: refId('professionGroup').nullable(),
            question: text(1000),
            answers: z.array(line(300)).min(1, { error: 'Vnesite vsaj en odgovor' }).max(50),
          })
          .strict(),
      )
      .max(20)
      .default([]),
  })
  .strict();

/** An https address, or a file the platform serves itself (a path under /media/, or an uploaded file /api/files/{id}). */
const mediaUrl = z
  .string()
  .trim()
  .max(1000, { error: TOO_LONG })
  .refine((v) => v === '' || (/^\/media\/[\w./-]+$/.test(v) && !v.includes('..')) || /^\/api\/files\/[1-9]\d{0,9}$/.test(v) || /^https:\/\/\S+$/.test(v), {
    error: 'Vnesite veljaven naslov',
  });

export const videoBlockRule = z
  .object({
    kind: z.literal('video'),
    name,
    vimeoId: z
      .string()
      .trim()
      .regex(/^\d{1,15}$/, { error: 'Vimeo ID je številka' })
      .nullish()
      .transform((v) => v || null),
    fileUrl: mediaUrl.nullish().transform((v) => v || null),
    durationSeconds: z
      .number()
      .int()
      .min(1)
      .max(24 * 3600)
      .nullish()
      .transform((v) => v ?? null),
    alternative: z
      .discriminatedUnion('kind', [
        z.object({ kind: z.literal('article'), html: text(200_000) }).strict(),
        z.object({ kind: z.literal('textFile'), fileUrl: mediaUrl.refine((v) => v !== '', { error: 'Vnos je obvezen' }) }).strict(),
      ])
      .nullish()
      .transform((v) => v ?? null),
  })
  .strict()
  .refine((v) => v.vimeoId !== null || v.fileUrl !== null, { error: 'Vnesite Vimeo ID ali naslov video datoteke', path: ['vimeoId'] });

export const pointsBlockRule = z.object({ kind: z.literal('points'), name, points: creditPointsRule }).strict();
export const articleBlockRule = z.object({ kind: z.literal('article'), name, html: text(200_000) }).strict();
export const textFileBlockRule = z
  .object({ kind: z.literal('textFile'), name, fileUrl: mediaUrl.refine((v) => v !== '', { error: 'Vnos je obvezen' }) })
  .strict();
export const typeformBlockRule = z
  .object({
    kind: z.literal('typeform'),
    name,
    typeformId: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9]{4,20}$/, { error: 'Neveljaven Typeform ID' }),
  })
  .strict();

/** An interactive Interactr video (spec §1 feature "Interactr on"): its embed code, of which the server keeps only the Interactr iframe. */
export const interactrBlockRule = z.object({ kind: z.literal('interactr'), name, html: text(20_000) }).strict();

/**
 * A SCORM or cmi5 package (issue 35, decision 0059): the uploaded package by id, and the author's rule
 * for when it is done: every item completed, every item passed, or a score of at least `threshold` %.
 * `standard` and `items` are the package's, filled in by the server from the stored package (whatever
 * a request says), so a participant's progress is decided on what the package really holds.
 */
export const PACKAGE_COMPLETION = ['completed', 'passed', 'score'] as const;
export type PackageCompletion = (typeof PACKAGE_COMPLETION)[number];
const packageItemRule = z
  .object({
    id: z.string().max(2000),
    title: z.string().max(500),
    masteryScore: z.number().min(0).max(100).nullable(),
    moveOn: z.enum(['Passed', 'Completed', 'CompletedAndPassed', 'CompletedOrPassed', 'NotApplicable']).nullable(),
  })
  .strict();
export const packageBlockRule = z
  .object({
    kind: z.literal('package'),
    name,
    packageId: refId('contentPackage'),
    completion: z.enum(PACKAGE_COMPLETION, { error: 'Izberite, kdaj je paket opravljen' }),
    threshold: z
      .number({ error: 'Prag je celo število med 0 in 100' })
      .int({ error: 'Prag je celo število med 0 in 100' })
      .min(0, { error: 'Prag je celo število med 0 in 100' })
      .max(100, { error: 'Prag je celo število med 0 in 100' })
      .nullish()
      .transform((v) => v ?? null),
    standard: z.enum(['scorm12', 'scorm2004', 'cmi5']).optional(),
    items: z.array(packageItemRule).max(1000).optional(),
  })
  .strict()
  .refine((b) => b.completion !== 'score' || b.threshold !== null, { error: 'Vnesite prag rezultata', path: ['threshold'] });
export type PackageBlock = z.output<typeof packageBlockRule>;

export const blockRule = z.union([
  quizBlockRule,
  npsBlockRule,
  videoBlockRule,
  pointsBlockRule,
  articleBlockRule,
  textFileBlockRule,
  typeformBlockRule,
  interactrBlockRule,
  packageBlockRule,
]);

export type BlockFields = z.output<typeof blockRule>;
export type QuizBlock = z.output<typeof quizBlockRule>;
export type NpsBlock = z.output<typeof npsBlockRule>;

/** A course notification an author sends to the course's audience (issue 16): a subject and a message. */
export const courseNotificationRule = z.object({ subject: line(200), message: text(5000) }).strict();
