import { api } from '../../../lib/api-client.ts';
import { session } from '../../../lib/session.ts';

/** spec §7 POST /auth/token: a one-time login token (from an e-mail link) for a session. */
export const exchangeLoginToken = async (token: string) => {
  const result = await api<{ authToken: string }>('POST', '/auth/token', { body: { token } });
  session.setToken(result.authToken);
  return result.authToken;
};

/** spec §7 GET /redirect/{id}: the provider entry answers {data: {authToken}}. */
export const providerLogin = async (id: string, query: { provider?: string | null; user?: string | null }) => {
  const result = await api<{ data: { authToken: string } }>('GET', `/redirect/${encodeURIComponent(id)}`, {
    query: { provider: query.provider ?? undefined, user: query.user ?? undefined },
  });
  session.setToken(result.data.authToken);
  return result.data.authToken;
};

/** spec §7 POST /auth/token/{userId}: an admin's "log in as" token for the /login-as link. */
export const loginAsToken = async (userId: number) => (await api<{ authToken: string }>('POST', `/auth/token/${userId}`)).authToken;
