import { describe, expect, it } from 'vitest';
import { createJwtSessionTokens } from './jwt-session-tokens.ts';

const claims = { userId: 7, sessionId: 's-1', realUserId: null, position: null };

describe('session tokens remembered once verified', () => {
  it('answers a verified token from memory until the second it expires, then refuses it like a new one', async () => {
    let clock = Date.now();
    const tokens = createJwtSessionTokens({ secret: 'x'.repeat(32), ttlSeconds: 60, now: () => clock });
    const token = await tokens.sign(claims);
    const { exp } = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()) as { exp: number };
    expect(await tokens.verify(token)).toEqual(claims);
    clock = exp * 1000 - 1;
    expect(await tokens.verify(token)).toEqual(claims);
    clock = exp * 1000;
    expect(await tokens.verify(token)).toBeNull();
    // Gone from memory too: still refused by jose.
    expect(await tokens.verify(token)).toBeNull();
  });

  it('refuses a token altered after its genuine form was verified, and one signed with another secret', async () => {
    const tokens = createJwtSessionTokens({ secret: 'x'.repeat(32), ttlSeconds: 3600 });
    const token = await tokens.sign(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    const [header, , signature] = token.split('.');
    const payload = Buffer.from(JSON.stringify({ sid: 's-1', sub: '1', iss: 'medilearn', exp: Math.floor(Date.now() / 1000) + 3600 })).toString('base64url');
    expect(await tokens.verify(`${header}.${payload}.${signature}`)).toBeNull();
    expect(await tokens.verify(`${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`)).toBeNull();
    const other = createJwtSessionTokens({ secret: 'y'.repeat(32), ttlSeconds: 3600 });
    expect(await tokens.verify(await other.sign(claims))).toBeNull();
  });
});
