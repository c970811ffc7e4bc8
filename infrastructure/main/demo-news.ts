import type { NewsInput } from '../../domain/news/news.rules.ts';

/**
 * The demo's news (issue 33 item 9: a newcomer following the README never saw the pop-up, and
 * /admin/news was empty): one item on the home page and course lists (location 1) and one after a
 * course ends (location 2), for the pharmacists of Lekarna Center (udelezenec among them), current
 * from a day before the demo was loaded for a year. The e2e suites recognise them by title.
 */
export const DEMO_NEWS_TITLES = { list: 'Nova akademija lekarniške prakse', courseEnd: 'Čestitamo za zaključeno izobraževanje' } as const;

export const demoNews = (now: Date, to: { unitIds: readonly number[]; professionIds: readonly number[] }): NewsInput[] => {
  const dateFrom = new Date(now.getTime() - 86_400_000).toISOString();
  const dateTo = new Date(now.getTime() + 365 * 86_400_000).toISOString();
  const recipients = { professionIds: [...to.professionIds], companyIds: [], unitIds: [...to.unitIds], groupIds: [] };
  return [
    {
      title: DEMO_NEWS_TITLES.list,
      htmlContent:
        '<p>V akademiji lekarniške prakse vas čakata izobraževanji o interakcijah zdravil in o samozdravljenju prehlada. Začnite s prvim in zberite kreditne točke.</p>',
      actionUrl: '/powerclass',
      actionButtonText: 'Odpri akademije',
      active: true,
      dateFrom,
      dateTo,
      location: 1,
      recipients,
    },
    {
      title: DEMO_NEWS_TITLES.courseEnd,
      htmlContent: '<p>Potrdilo o udeležbi najdete v profilu. V akademiji lekarniške prakse vas čaka še naslednje izobraževanje.</p>',
      actionUrl: '/izobrazevanja',
      actionButtonText: 'Naslednje izobraževanje',
      active: true,
      dateFrom,
      dateTo,
      location: 2,
      recipients,
    },
  ];
};
