import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { courseRule } from '../../domain/courses/course.rules.ts';
import { exportRequestRule } from '../../domain/exports/export.rules.ts';
import { notAReference, refId } from '../../domain/shared/id.rules.ts';
import { roleAssignmentRule } from '../../domain/users/user-admin.rules.ts';
import { collectReferences, undeclaredIdFields } from './references.ts';

describe('references a body names (decision 0047)', () => {
  it('finds every declared id with its field, through defaults, nullables, arrays and transforms', () => {
    const body = courseRule.parse({
      type: 4,
      title: 'Tečaj',
      description: 'Opis izobraževanja, dovolj dolg.',
      cover: '/c.jpg',
      creditPoints: 1,
      audience: { byProfession: true, professionIds: [4, 5], unitIds: [7] },
      prerequisites: [9],
      tagIds: [11],
    });
    expect(collectReferences(courseRule, body)).toEqual([
      { kind: 'profession', id: 4, field: 'audience.professionIds.0' },
      { kind: 'profession', id: 5, field: 'audience.professionIds.1' },
      { kind: 'unit', id: 7, field: 'audience.unitIds.0' },
      { kind: 'course', id: 9, field: 'prerequisites.0' },
      { kind: 'courseTag', id: 11, field: 'tagIds.0' },
    ]);
  });

  it('follows the option a discriminated union chose, and never looks up 0 ("all")', () => {
    const costs = exportRequestRule.parse({ kind: 'costs', parameters: { companyId: 3, from: '2026-01-01', to: '2026-01-31' } });
    expect(collectReferences(exportRequestRule, costs)).toEqual([{ kind: 'company', id: 3, field: 'parameters.companyId' }]);
    const users = exportRequestRule.parse({ kind: 'users', parameters: { companyId: 0, status: 'all' } });
    expect(collectReferences(exportRequestRule, users)).toEqual([]);
    expect(collectReferences(roleAssignmentRule, { roleId: 2, companyId: 5, unitId: 0 })).toEqual([{ kind: 'company', id: 5, field: 'companyId' }]);
  });

  it('names the id fields that declare nothing, and only those', () => {
    const rule = z.object({
      courseId: z.number(),
      declared: z.object({ unitIds: z.array(refId('unit')), intervalId: notAReference(z.number(), 'a position') }),
      members: z.array(z.object({ userId: z.number().int().nullable() })),
      score: z.number(),
      externalId: z.string(),
    });
    expect(undeclaredIdFields(rule)).toEqual(['courseId', 'members[].userId']);
    expect(undeclaredIdFields(courseRule)).toEqual([]);
  });
});
