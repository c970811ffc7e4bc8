import { describe, expect, it } from 'vitest';
import { receivesPush } from './push-audience.ts';

describe('who is asked about push (issue 33 item 6)', () => {
  it('asks everyone who reads courses, never the auditor alone (decision 0016)', () => {
    expect(receivesPush({ roles: [{ id: 7 }] })).toBe(false);
    for (const role of [1, 2, 3, 4, 5, 6, 10]) expect(receivesPush({ roles: [{ id: role }] }), String(role)).toBe(true);
    expect(receivesPush({ roles: [{ id: 7 }, { id: 10 }] })).toBe(true);
    expect(receivesPush({ roles: [] })).toBe(true);
  });
});
