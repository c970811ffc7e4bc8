import { createEventCodec } from '../../infrastructure/event-store/event-codec.ts';
import { createPostgresEventStore } from '../../infrastructure/event-store/postgres/postgres-event-store.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { eventStoreContract } from './event-store.contract.ts';

eventStoreContract('postgres', async () => {
  const db = await createTestDatabase();
  return {
    create: async (definitions) => createPostgresEventStore({ pool: db.pg, connect: db.connect, codec: createEventCodec(definitions) }),
    dispose: () => db.drop(),
  };
});
