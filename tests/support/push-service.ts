import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A push service for tests (the external edge of Web Push, RFC 8030): an HTTP server that takes every
 * POST and keeps it, answering 201 unless told otherwise for a path (`answer(path, [500, 201])`
 * answers 500 once, then 201). `browser()` makes a browser's subscription keys (P-256 and a 16-byte
 * auth secret, as `PushManager.subscribe` would) and can decrypt what was sent to it (RFC 8291).
 */
export type ReceivedPush = { path: string; headers: http.IncomingHttpHeaders; body: Buffer };

export const startPushService = async (listenPort = 0) => {
  const received: ReceivedPush[] = [];
  const answers = new Map<string, number[]>();
  const waiting: (() => void)[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks) });
      const queue = answers.get(path);
      const status = queue && queue.length > 1 ? (queue.shift() as number) : (queue?.[0] ?? 201);
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? '' : 'no');
      for (const wake of waiting.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const to = (path: string) => received.filter((r) => r.path === path);
  return {
    origin,
    received,
    to,
    answer: (path: string, statuses: number[]) => void answers.set(path, [...statuses]),
    /** Waits until `count` messages reached the path. */
    waitFor: async (path: string, count = 1, timeoutMs = 30_000) => {
      const until = Date.now() + timeoutMs;
      while (to(path).length < count) {
        if (Date.now() > until) throw new Error(`no push reached ${path} (${to(path).length} of ${count})`);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return to(path);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** A browser's push keys: the subscription's `keys` and the means to read what was sent to it. */
export const browserKeys = () => {
  const ecdh = createECDH('prime256v1');
  const publicKey = ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    p256dh: publicKey.toString('base64url'),
    auth: auth.toString('base64url'),
    /** RFC 8291 with RFC 8188 aes128gcm, one record: the plaintext the application server sent. */
    decrypt: (body: Buffer) => {
      const salt = body.subarray(0, 16);
      const idLength = body.readUInt8(20);
      const senderKey = body.subarray(21, 21 + idLength);
      const ciphertext = body.subarray(21 + idLength);
      const shared = ecdh.computeSecret(senderKey);
      const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), publicKey, senderKey]);
      const ikm = Buffer.from(hkdfSync('sha256', shared, auth, keyInfo, 32));
      const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
      const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
      const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
      decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
      const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
      let end = padded.length - 1;
      while (end >= 0 && padded[end] === 0) end -= 1;
      if (padded[end] !== 2) throw new Error('not the last record of an aes128gcm message');
      return padded.subarray(0, end).toString('utf8');
    },
  };
};

/**
 * Reads and checks the VAPID header of a push request (RFC 8292 `vapid t=<JWT>, k=<public key>`):
 * the token is signed with ES256 by the key `k`; answers the key and the token's claims.
 */
export const readVapid = (authorization: string | undefined) => {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`);
  const [token, key] = [match[1] as string, match[2] as string];
  const [header, claims, signature] = token.split('.') as [string, string, string];
  const point = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  const valid = verify('sha256', Buffer.from(`${header}.${claims}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  return {
    key,
    valid,
    header: JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { typ: string; alg: string },
    claims: JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { aud: string; exp: number; sub: string },
  };
};
