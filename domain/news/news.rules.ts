import { z } from 'zod';
import { type ReferenceKind, refId } from '../shared/id.rules.ts';
import { singleLine } from '../shared/text.rules.ts';
import { REQUIRED } from '../users/user.rules.ts';

/**
 * A news item (spec §3 News, §5 "title, content, start and end dates required; valid action URL;
 * button text not too long"), shared by the API and the UI form. Spec §9: location 1 = the course
 * list and home, 2 = after a course ends; spec §4: a reader's actions 1 shown, 2 declined,
 * 3 engaged, 4 deferred.
 */
export const NEWS_LOCATIONS = [1, 2] as const;
export type NewsLocation = (typeof NEWS_LOCATIONS)[number];
export const NEWS_LOCATION = { list: 1, courseEnd: 2 } as const;

export const NEWS_ACTIONS = [1, 2, 3, 4] as const;
export type NewsAction = (typeof NEWS_ACTIONS)[number];
export const NEWS_ACTION = { shown: 1, declined: 2, engaged: 3, deferred: 4 } as const;

/** spec §9: the pop-up comes at most once every 24 hours (per browser session, spec §3 `news_shown_date`). */
export const NEWS_POPUP_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** spec §9: location text is cut at 32 characters plus an ellipsis (decision 0022 says which text). */
export const NEWS_LOCATION_TEXT_MAX = 32;
/** spec §5 "button text not too long": it has to fit one button on a phone. */
export const ACTION_BUTTON_TEXT_MAX = 40;

const TOO_LONG = 'Vnos je predolg';
const INVALID_URL = 'Vnesite veljaven naslov (https://…)';
const INVALID_ACTION_URL = 'Vnesite veljaven naslov (https://…) ali stran platforme (npr. /izobrazevanja)';
const INVALID_DATE = 'Vnesite veljaven datum';
const BUTTON_TOO_LONG = `Besedilo gumba je predolgo (največ ${ACTION_BUTTON_TEXT_MAX} znakov)`;

/** An https address with a host name (spec §5 "valid action URL"). */
export const isHttpsUrl = (value: string) => {
  if (!/^https:\/\/\S+$/.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && /^[^.]+(\.[^.]+)+$/.test(url.hostname) && url.username === '' && url.password === '';
  } catch {
    return false;
  }
};

/** A page of the platform itself (`/izobrazevanja`), for a news button: a path, never `//host`. */
export const isPlatformPath = (value: string) => /^\/(?![/\\])\S*$/.test(value);

/** Visible text of rich-text HTML: an editor's empty `<p><br></p>` is no content. */
const visibleText = (html: string) =>
  html
    .replace(/<(img)\b[^>]*>/gi, ' x ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;|&#160;/g, ' ')
    .trim();

const date = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, { error: REQUIRED })
  .pipe(z.iso.datetime({ error: INVALID_DATE }));
const ids = (kind: ReferenceKind) => z.array(refId(kind)).max(10_000).default([]);

/** Who a news item is for: by unit, company, community group and profession; none at all = everyone. */
export const newsRecipientsRule = z
  .object({ professionIds: ids('profession'), companyIds: ids('company'), unitIds: ids('unit'), groupIds: ids('communityGroup') })
  .strict()
  .default({ professionIds: [], companyIds: [], unitIds: [], groupIds: [] });

export const newsRule = z
  .object({
    title: singleLine(z.string({ error: REQUIRED }).trim().min(1, { error: REQUIRED }).max(200, { error: TOO_LONG })),
    htmlContent: z
      .string({ error: REQUIRED })
      .max(50_000, { error: TOO_LONG })
      .refine((v) => visibleText(v) !== '', { error: REQUIRED }),
    /** An https address or an uploaded image (/api/files/{id}). */
    image: singleLine(z.string().trim().max(1000, { error: TOO_LONG }))
      .refine((v) => v === '' || /^\/api\/files\/[1-9]\d{0,9}$/.test(v) || isHttpsUrl(v), { error: INVALID_URL })
      .nullish()
      .transform((v) => v || null),
    actionUrl: singleLine(z.string().trim().max(1000, { error: TOO_LONG }))
      .refine((v) => v === '' || isHttpsUrl(v) || isPlatformPath(v), { error: INVALID_ACTION_URL })
      .nullish()
      .transform((v) => v || null),
    actionButtonText: singleLine(z.string().trim().max(ACTION_BUTTON_TEXT_MAX, { error: BUTTON_TOO_LONG }))
      .nullish()
      .transform((v) => v || null),
    active: z.boolean().default(false),
    dateFrom: date,
    dateTo: date,
    location: z.literal(NEWS_LOCATIONS, { error: 'Izberite, kje se novica prikaže' }).default(NEWS_LOCATION.list),
    recipients: newsRecipientsRule,
  })
  .strict()
  .superRefine((news, ctx) => {
    if (new Date(news.dateFrom) >= new Date(news.dateTo)) ctx.addIssue({ code: 'custom', path: ['dateTo'], message: 'Konec mora biti po začetku' });
    if (news.actionUrl && !news.actionButtonText) ctx.addIssue({ code: 'custom', path: ['actionButtonText'], message: 'Vnesite besedilo gumba' });
    if (news.actionButtonText && !news.actionUrl) ctx.addIssue({ code: 'custom', path: ['actionUrl'], message: 'Vnesite naslov, ki ga gumb odpre' });
  });

export type NewsFields = z.output<typeof newsRule>;
export type NewsInput = z.input<typeof newsRule>;

/** What a reader records (spec §7 PUT /news/{id}/user/stats). */
export const newsActionRule = z.object({ action: z.literal(NEWS_ACTIONS, { error: 'Neveljavno dejanje' }) }).strict();
