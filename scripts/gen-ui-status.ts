/** Writes docs/ui-status.md from the route table: `node scripts/gen-ui-status.ts > docs/ui-status.md` (a unit test checks it). */
import { ROUTES } from '../ui/src/app/route-paths.ts';
import sl from '../ui/src/locales/sl.json' with { type: 'json' };

const title = (key: string) => key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], sl) as string;
const lines: string[] = [];
lines.push('# UI status', '', 'Every route of spec §2 exists under its exact path (`ui/src/app/route-paths.ts`). This page says which are built and which are');
lines.push('titled placeholders a later issue fills, so none is mistaken for done. `ui/src/app/ui-status.unit.spec.ts` fails when this list and');
lines.push('the route table disagree.', '', '## Built', '');
lines.push('| path | page |', '|---|---|');
for (const r of ROUTES.filter((r) => r.status === 'done')) lines.push(`| \`${r.path}\` | ${title(r.title)} |`);
lines.push('', 'Also built: the signed-in shell (header, menus per role, user menu, account switcher, mobile menu with the app version, mobile');
lines.push('footer, hide-on-scroll below 768 px), the navigation guards, the 404 page (HTTP 404 from the server), the route error page,');
lines.push('the reload after a failed chunk load, and the API client.', '', '## Placeholders', '');
lines.push('| path | title | filled by |', '|---|---|---|');
for (const r of ROUTES.filter((r) => r.status === 'placeholder')) lines.push(`| \`${r.path}\` | ${title(r.title)} | ${r.issue} |`);
lines.push('', '## Places kept in the header', '');
lines.push(
  '- News pop-up (`data-slot="news-popup"`, `ui/src/features/news/components/news-popup.tsx`, issue 16): with a jwt only, on /, /izobrazevanja and /powerclass (location 1) and on the course-completed pages (locations 1 and 2), at most once per 24 hours per browser session (`news_shown_date`); records shown, declined, engaged and deferred (decision 0022).',
);
lines.push(
  '- Push-permission dialog (`data-slot="push-permission"`, `ui/src/features/push/components/push-prompt.tsx`, issue 16): about 2.5 s after load, signed in, holding the consents and not acting for someone else, in a browser that can take push: a subscribed browser is synced (and push switched on again when `onesignalEnabled` is 1); otherwise, unless `disablePush` is `true` or the browser blocks notifications, allow (clears `disablePush`, asks the permission, subscribes with the VAPID key) or deny (`disablePush=true`). The push worker `/push-sw.js` shows notifications and opens their path and query after 2 seconds (decision 0024).',
);
lines.push(
  '- Consents guard (`missingConsentsRedirect` in `ui/src/app/router.tsx`): a user whose `/users/me` lists `missingConsents` goes to `/pogoji?redirect=...`; an API answer 403 `422086` does the same (`onConsentsMissing` in `ui/src/app/app.tsx`).',
);
lines.push(
  '- `/redirect/{id}` (provider entry): exchanges the one-time code with `GET /api/redirect/{id}` and goes to the course `{id}`; on failure to the course list (identity work, decision 0017).',
);
process.stdout.write(`${lines.join('\n')}\n`);
