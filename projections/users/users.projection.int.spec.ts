import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenProjected, recorded } from '../../tests/support/projection-spec.ts';
import { createTestDatabase } from '../../tests/support/test-database.ts';
import { usersProjection } from './users.projection.ts';

describe('users projection', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db.drop());

  const registered = (id: number, username: string) =>
    recorded(`user-${id}`, 'UserRegistered', {
      userId: id,
      username,
      email: `${username}@test.si`,
      firstName: 'Ana',
      middleName: null,
      lastName: 'Novak',
      phone: null,
      professionId: 4,
      passwordHash: 'secret-hash',
    });

  it('holds each user once with roles, last login and revoked sessions, however often a batch is applied', async () => {
    const session = '0b0f8c39-5d2e-4d5e-9f79-3c8f2f1b7a11';
    const otherSession = '6a1d2c3b-7e4f-4a5b-8c9d-0e1f2a3b4c5d';
    const { rows } = await givenProjected(db, usersProjection, [
      registered(1, 'ana'),
      recorded('user-1', 'UserRoleGranted', { roleId: 2, unitId: 3, companyId: 2 }),
      recorded('user-1', 'UserRoleGranted', { roleId: 10, unitId: 3, companyId: null }),
      recorded('user-1', 'UserLoggedIn', { sessionId: session, method: 'password' }, new Date('2026-03-02T08:00:00Z')),
      recorded('user-1', 'UserLoggedIn', { sessionId: session, method: 'password' }, new Date('2026-03-01T08:00:00Z')),
      recorded('user-1', 'UserRoleRevoked', { roleId: 10, unitId: 3, companyId: null }),
      recorded('user-1', 'UserLoggedOut', { sessionId: session }, new Date('2026-03-02T09:00:00Z')),
      recorded('user-1', 'UserPasswordChanged', { passwordHash: 'other' }),
      recorded('user-9', 'UserRoleGranted', { roleId: 2, unitId: 3, companyId: 2 }),
      // Logouts of a batch are one statement: a session logged out twice keeps its first revocation.
      recorded('user-9', 'UserLoggedOut', { sessionId: otherSession }, new Date('2026-03-03T09:00:00Z')),
      recorded('user-1', 'UserLoggedOut', { sessionId: session }, new Date('2026-03-04T09:00:00Z')),
    ]);
    const users = await rows('users');
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ id: 1, username: 'ana', email: 'ana@test.si', status: 'active', profession_id: 4 });
    expect(new Date(users[0]?.last_login_at).toISOString()).toBe('2026-03-02T08:00:00.000Z');
    expect(Object.keys(users[0] ?? {})).not.toContain('password_hash');
    expect(await rows('user_roles', 'user_id, role_id')).toEqual([
      { user_id: 1, role_id: 2, unit_id: 3, company_id: 2 },
      { user_id: 9, role_id: 2, unit_id: 3, company_id: 2 },
    ]);
    const revoked = await rows('user_revoked_sessions', 'session_id');
    expect(revoked).toEqual([expect.objectContaining({ session_id: session, user_id: 1 }), expect.objectContaining({ session_id: otherSession, user_id: 9 })]);
    expect(new Date(revoked[0]?.revoked_at).toISOString()).toBe('2026-03-02T09:00:00.000Z');
  });
});
