import { expect } from 'vitest';
import { type Decider, fold } from '../../domain/shared/decider.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';

/**
 * given(past events).when(command).thenExpect(new events) — or .thenFails(code) for a broken rule.
 * The state is only ever built by folding events, as in production.
 */
export const deciderSpec = <Command, Event, State>(decider: Decider<Command, Event, State>) => ({
  given: (events: readonly Event[]) => ({
    when: (command: Command) => {
      const run = () => decider.decide(command, fold(decider, events));
      return {
        thenExpect: (expected: readonly Event[]) => expect(run()).toEqual(expected),
        thenFails: (code: string, message?: string) => {
          let thrown: unknown;
          try {
            run();
          } catch (error) {
            thrown = error;
          }
          expect(thrown, 'the command should have failed').toBeInstanceOf(DomainError);
          expect((thrown as DomainError).code).toBe(code);
          if (message) expect((thrown as DomainError).message).toBe(message);
        },
      };
    },
  }),
});
