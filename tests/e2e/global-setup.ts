import { type FullConfig, request } from '@playwright/test';
import { DEMO_NEWS_TITLES } from '../../infrastructure/main/demo-news.ts';
import { PASSWORD } from './support.ts';

/** The demo's users its news is for and who can read news from the start (`nov` gives consents in consents.e2e.ts and declines there). */
const READERS = ['udelezenec', 'vodja'];
const DEMO_TITLES: readonly string[] = Object.values(DEMO_NEWS_TITLES);

/**
 * The demo shows its news as a pop-up to the pharmacists of Lekarna Center (issue 33 item 9). The
 * suites click through the pages it would cover, so each of them declines the demo's items once, here
 * ("Ne zanima me", as a reader would), after making sure the demo participant is offered both: the
 * one on the home page and lists, and the one after a course ends. news.e2e.ts then sees its own item.
 */
export default async function globalSetup(config: FullConfig) {
  const api = await request.newContext({ baseURL: config.projects[0]?.use.baseURL });
  try {
    for (const username of READERS) {
      const login = await api.post('/api/auth/login', { data: { usernameOrEmail: username, password: PASSWORD } });
      if (login.status() !== 200) throw new Error(`demo login ${username}: ${login.status()}`);
      const headers: Record<string, string> = { authorization: `JWT ${((await login.json()) as { authToken: string }).authToken}` };
      const offered: string[] = [];
      for (const location of [1, 2]) {
        for (let asked = 0; asked < 5; asked++) {
          const item = await api.get(`/api/news/user?location[]=${location}`, { headers });
          if (item.status() !== 200) break;
          const news = (await item.json()) as { id: number; title: string };
          if (!DEMO_TITLES.includes(news.title)) break;
          offered.push(news.title);
          const declined = await api.put(`/api/news/${news.id}/user/stats`, { headers, data: { action: 2 } });
          if (declined.status() >= 300) throw new Error(`declining the demo news for ${username}: ${declined.status()}`);
          // The next read waits until the decline is in the read models (read-your-writes, as the UI does).
          const position = declined.headers()['x-event-position'];
          if (position) headers['x-min-position'] = position;
        }
      }
      if (username === 'udelezenec' && DEMO_TITLES.some((title) => !offered.includes(title)))
        throw new Error(`the demo participant was not offered the demo news: ${offered.join(', ') || 'none'}`);
    }
  } finally {
    await api.dispose();
  }
}
