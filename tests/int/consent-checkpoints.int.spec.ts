import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainText } from '../../domain/consents/consent-chain.ts';
import { type Checkpoint, checkpointText, type InclusionProof, verifyInclusion } from '../../domain/consents/consent-checkpoint.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { pdfText } from '../support/pdf-text.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
type Verification = {
  valid: boolean;
  broken: { reason: string } | null;
  checkpoint: { valid: boolean; finding: string | null; message: string | null } | null;
};

/**
 * Issue 32 item 2 (decision 0052): what someone with the database can do to the consent log, done
 * here directly in PostgreSQL after a signed checkpoint, and how the auditor's verify names it: an
 * edited event (the chain), a withdrawal cut off the tail, a deleted stream, a chain rewritten and
 * hashed again, the checkpoint's leaves edited, the anchor's root changed.
 */
describe('consent proof against a database superuser (issue 32 item 2)', () => {
  let p: TestPlatform;
  let admin: string;
  const ids: Record<string, number> = {};

  const call = async (method: 'GET' | 'POST', url: string, token = admin) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${token}` } });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response;
  };
  const verifyOf = async (name: string) => (await call('GET', `/api/users/${ids[name]}/consents/verify`)).json() as Verification;
  const appends = (name: string) => `select * from es.appends where stream_name = 'consent-${ids[name]}' order by first_revision`;

  beforeAll(async () => {
    p = await startTestPlatform({ CONSENT_CHECKPOINT_REFRESH_MS: '0' });
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    admin = (await p.login('skrbnik')).token;
    for (const name of ['ana', 'bojan', 'cene', 'dana', 'eva', 'fran']) ids[name] = await p.createUser(name);
    // Ana withdraws a consent: the last event of her stream.
    const ana = (await p.login('ana')).token;
    expect((await call('POST', '/api/users/me/consents/4/withdraw', ana)).statusCode).toBe(200);
    const taken = await call('POST', '/api/consents/checkpoints');
    expect(taken.statusCode, taken.body).toBe(201);
  });
  afterAll(async () => p?.close());

  it('signs a checkpoint with a key outside the database, anchors it in a file, and proves each stream to its root', async () => {
    const anchor = (await readFile(p.config.consentProof.anchorFile, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(anchor).toHaveLength(1);
    const { checkpoint, signature, publicKey } = anchor[0] as { checkpoint: Checkpoint; signature: string; publicKey: string };
    expect(checkpoint).toMatchObject({ sequence: 1, count: 7, previous: null });
    expect(verify(null, Buffer.from(checkpointText(checkpoint)), createPublicKey(publicKey), Buffer.from(signature, 'base64'))).toBe(true);
    const receipt = (await call('GET', `/api/users/${ids.ana}/consents/receipt`)).json() as { checkpoint: Checkpoint; proof: InclusionProof };
    expect(receipt.checkpoint).toEqual(checkpoint);
    expect(verifyInclusion(sha256, receipt.proof, checkpoint.root)).toBe(true);
    // Nothing changed: asked again, the same checkpoint stands.
    expect(((await call('POST', '/api/consents/checkpoints')).json() as { checkpoint: Checkpoint }).checkpoint).toEqual(checkpoint);
    expect(await verifyOf('eva')).toMatchObject({ valid: true, checkpoint: { valid: true, finding: null } });
  });

  it('takes one checkpoint at a time: asked at once from several places, each number once, and the latest verifies', async () => {
    // A change of the log since the first checkpoint, then six requests at once.
    const dana = (await p.login('dana')).token;
    expect((await call('POST', '/api/users/me/consents/4/withdraw', dana)).statusCode).toBe(200);
    const taken = await Promise.all(Array.from({ length: 6 }, () => call('POST', '/api/consents/checkpoints')));
    const sequences = taken.map((t) => (t.json() as { checkpoint: Checkpoint }).checkpoint.sequence);
    expect(new Set(sequences)).toEqual(new Set([2]));
    const lines = (await readFile(p.config.consentProof.anchorFile, 'utf8')).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { checkpoint: Checkpoint }).checkpoint.sequence)).toEqual([1, 2]);
    expect(await verifyOf('dana')).toMatchObject({ valid: true, checkpoint: { valid: true, sequence: 2 } });
  });

  it('names each tampering done in the database after the checkpoint', async () => {
    const db = p.db.pg;
    // Ana's withdrawal deleted: the chain of what is left is whole, the checkpoint shows the cut.
    const anaAppends = (await db.query(appends('ana'))).rows;
    await db.query('delete from es.appends where stream_name = $1 and first_revision = $2', [`consent-${ids.ana}`, anaAppends.at(-1).first_revision]);
    expect(await verifyOf('ana')).toMatchObject({ valid: false, broken: null, checkpoint: { valid: false, finding: 'truncated' } });
    // The auditor's PDF says so, with the receipt (the signed root, the path and the signature).
    const pdf = await pdfText((await call('GET', `/api/users/${ids.ana}/consents/history.pdf`)).rawPayload);
    expect(pdf).toContain('konec je odrezan');
    expect(pdf).toContain('Potrdilo: koren');
    expect(pdf).toContain('Podpis (Ed25519)');

    // Bojan's whole stream deleted.
    await db.query('delete from es.appends where stream_name = $1', [`consent-${ids.bojan}`]);
    expect(await verifyOf('bojan')).toMatchObject({ valid: false, checkpoint: { finding: 'deleted-stream' } });

    // Cene's stream rewritten and hashed again from the first event: a chain that verifies on its own.
    const rows = (await db.query(appends('cene'))).rows as { first_revision: string; data: Record<string, unknown>[]; event_types: string[] }[];
    let previous = '0'.repeat(64);
    for (const row of rows) {
      const data = row.data.map((event, i) => {
        const { hash: _old, ...rest } = event as { hash: string } & Record<string, unknown>;
        const changed = { ...rest, previousHash: previous, ...(i === 0 ? { textVersion: 'ponarejeno' } : {}) };
        const hash = sha256(chainText(ids.cene as number, row.event_types[i] as string, changed));
        previous = hash;
        return { ...changed, hash };
      });
      await db.query('update es.appends set data = $1::json[] where stream_name = $2 and first_revision = $3', [
        data.map((d) => JSON.stringify(d)),
        `consent-${ids.cene}`,
        row.first_revision,
      ]);
    }
    const cene = await verifyOf('cene');
    expect(cene).toMatchObject({ valid: false, broken: null, checkpoint: { finding: 'rewritten' } });

    // Dana's event edited without hashing again: the chain itself shows it.
    const dana = (await db.query(appends('dana'))).rows[0] as { first_revision: string; data: Record<string, unknown>[] };
    await db.query('update es.appends set data = $1::json[] where stream_name = $2 and first_revision = $3', [
      dana.data.map((d, i) => JSON.stringify(i === 0 ? { ...d, textVersion: 'ponarejeno' } : d)),
      `consent-${ids.dana}`,
      dana.first_revision,
    ]);
    expect(await verifyOf('dana')).toMatchObject({ valid: false, broken: { reason: 'hash' } });

    // Eva is untouched and holds.
    expect(await verifyOf('eva')).toMatchObject({ valid: true, checkpoint: { valid: true } });
  });

  it('keeps a person out whose withdrawal was cut from the log and the read model rebuilt from it: the gate fails closed', async () => {
    const fran = (await p.login('fran')).token;
    const courses = async () => (await call('GET', '/api/user-courses', fran)).statusCode;
    expect(await courses()).toBe(200);
    expect((await call('POST', '/api/users/me/consents/4/withdraw', fran)).statusCode).toBe(200);
    expect((await call('GET', '/api/user-courses', fran)).json()).toMatchObject({ errors: [{ code: '422086' }] });
    expect((await call('POST', '/api/consents/checkpoints')).statusCode).toBe(201);
    // In the database: the withdrawal goes, and the consents read model is built again from the cut log.
    const rows = (await p.db.pg.query(appends('fran'))).rows;
    await p.db.pg.query('delete from es.appends where stream_name = $1 and first_revision = $2', [`consent-${ids.fran}`, rows.at(-1).first_revision]);
    await p.runner.rebuild('consents');
    // The log and the rebuilt read model now say she consents; the signed checkpoint says her stream was longer.
    expect((await call('GET', '/api/user-courses', fran)).json()).toMatchObject({ errors: [{ code: '422086' }] });
  });

  it('shows the checkpoint’s leaves edited in the database, and an anchor whose root was changed', async () => {
    await p.db.pg.query('update public.consent_checkpoint_leaves set length = length + 1 where stream = $1', [`consent-${ids.eva}`]);
    expect(await verifyOf('eva')).toMatchObject({ valid: false, checkpoint: { finding: 'leaves' } });
    const file = p.config.consentProof.anchorFile;
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    const anchored = JSON.parse(lines.at(-1) as string) as { checkpoint: Checkpoint };
    const forged = { ...anchored, checkpoint: { ...anchored.checkpoint, root: sha256('anything') } };
    await writeFile(file, `${[...lines.slice(0, -1), JSON.stringify(forged)].join('\n')}\n`);
    expect(await verifyOf('eva')).toMatchObject({ valid: false, checkpoint: { finding: 'signature' } });
  });
});
