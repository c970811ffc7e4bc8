/**
 * Who and when: every command carries it, so domain code never reads a clock or a session.
 * `realActorId` is set when an admin acts through a "log in as" session (Moodle's realuserid).
 */
export type CommandMeta = {
  readonly now: Date;
  readonly actorId: number | null;
  readonly realActorId?: number | null;
};

export type Decider<Command, Event, State> = {
  readonly initialState: State;
  readonly evolve: (state: State, event: Event) => State;
  readonly decide: (command: Command, state: State) => Event[];
};

export const fold = <Event, State>(decider: Pick<Decider<never, Event, State>, 'initialState' | 'evolve'>, events: readonly Event[]): State =>
  events.reduce(decider.evolve, decider.initialState);
