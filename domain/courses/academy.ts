import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';
import type { AcademyFields } from './academy.rules.ts';

/** An academy's stream. Which courses exist is checked by the application against the read model. */
export const academyStream = (academyId: number) => `academy-${academyId}`;

const fields = z.object({ title: z.string(), description: z.string(), cover: z.string(), courseIds: z.array(z.number().int().positive()) });

export const academyEvents = [
  defineEvent('AcademyCreated', z.object({ academyId: z.number().int().positive(), fields })),
  defineEvent('AcademyUpdated', z.object({ fields })),
  defineEvent('AcademyPublished', z.object({})),
  defineEvent('AcademyUnpublished', z.object({})),
  defineEvent('AcademyDeleted', z.object({})),
] as const;

export type AcademyEvent = EventsOf<typeof academyEvents>;

export type Academy = { readonly status: 'active' | 'deleted'; readonly id: number; readonly fields: AcademyFields; readonly published: boolean };
export type AcademyState = { readonly status: 'none' } | Academy;

export type AcademyCommand =
  | { type: 'CreateAcademy'; academyId: number; fields: AcademyFields }
  | { type: 'UpdateAcademy'; fields: AcademyFields }
  | { type: 'PublishAcademy' }
  | { type: 'UnpublishAcademy' }
  | { type: 'DeleteAcademy' };

export const evolveAcademy = (state: AcademyState, event: AcademyEvent): AcademyState => {
  if (event.type === 'AcademyCreated') return { status: 'active', id: event.data.academyId, fields: event.data.fields, published: false };
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'AcademyUpdated':
      return { ...state, fields: event.data.fields };
    case 'AcademyPublished':
      return { ...state, published: true };
    case 'AcademyUnpublished':
      return { ...state, published: false };
    case 'AcademyDeleted':
      return { ...state, status: 'deleted', published: false };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

const notFound = () => new DomainError('404', 'Akademija ne obstaja.', { status: 404 });

export const decideAcademy = (command: AcademyCommand, state: AcademyState): AcademyEvent[] => {
  if (command.type === 'CreateAcademy') {
    if (state.status !== 'none') throw new DomainError('409', 'Akademija že obstaja.', { status: 409 });
    return [{ type: 'AcademyCreated', data: { academyId: command.academyId, fields: command.fields } }];
  }
  if (state.status !== 'active') throw notFound();
  switch (command.type) {
    case 'UpdateAcademy':
      return JSON.stringify(state.fields) === JSON.stringify(command.fields) ? [] : [{ type: 'AcademyUpdated', data: { fields: command.fields } }];
    case 'PublishAcademy':
      return state.published ? [] : [{ type: 'AcademyPublished', data: {} }];
    case 'UnpublishAcademy':
      return state.published ? [{ type: 'AcademyUnpublished', data: {} }] : [];
    case 'DeleteAcademy':
      return [{ type: 'AcademyDeleted', data: {} }];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
};

export const academyDecider: Decider<AcademyCommand, AcademyEvent, AcademyState> = {
  initialState: { status: 'none' },
  evolve: evolveAcademy,
  decide: decideAcademy,
};
