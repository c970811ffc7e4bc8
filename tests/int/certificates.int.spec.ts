import { randomUUID } from 'node:crypto';
import jsqrModule from 'jsqr';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CERTIFICATE_NUMBER_PATTERN, certificateNumber } from '../../domain/courses/certificate.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { type AllPosition, formatPosition, parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { CERTIFICATE_CHECKS_PER_ADDRESS } from '../../projections/courses/certificates.routes.ts';
import { renderPdfPage } from '../support/pdf-render.ts';
import { pdfText } from '../support/pdf-text.ts';
import { SAMPLE_PNG } from '../support/sample-png.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

type DecodeQr = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
// jsqr is CommonJS with a `default` export: Node hands over either the function or the module around it.
const jsQR: DecodeQr =
  typeof (jsqrModule as unknown) === 'function' ? (jsqrModule as unknown as DecodeQr) : (jsqrModule as unknown as { default: DecodeQr }).default;

/** The QR code on a page drawn as a PNG, read back as text. */
const readQr = async (png: Buffer) => {
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, image.width, image.height);
  return jsQR(new Uint8ClampedArray(pixels.data), image.width, image.height)?.data ?? null;
};

/** How many images the first page paints (pdf.js): the QR code, and the signature's when there is one. */
const imagesPainted = async (pdf: Uint8Array) => {
  const document = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false }).promise;
  try {
    const operators = await (await document.getPage(1)).getOperatorList();
    return operators.fnArray.filter((fn) => fn === OPS.paintImageXObject).length;
  } finally {
    await document.destroy();
  }
};

/**
 * The certificate (issue 18 item 3, decision 0032): issued by the participant's unit when it signs
 * itself, else by the company; an accreditation line with the credit points and the chamber; a
 * short number, checked by anyone at a public address that its QR code holds; one name,
 * "Certifikat", in the PDF and its file name.
 */
describe('certificates: issuer, accreditation, number and public verification', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  let last: AllPosition | null = null;

  const call = async (who: string | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, remoteAddress?: string) => {
    const response = await p.app.inject({
      method,
      url,
      headers: { ...(who ? { authorization: `JWT ${tokens[who]}` } : {}), ...(last ? { 'x-min-position': formatPosition(last) } : {}) },
      ...(payload ? { payload } : {}),
      ...(remoteAddress ? { remoteAddress } : {}),
    });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') {
      last = parsePosition(position);
      await p.settleAll(last);
    }
    return response;
  };
  const created = async (url: string, payload: object) => {
    const response = await call('admin', 'POST', url, payload);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return (response.json() as { id: number }).id;
  };
  const uploadPng = async () =>
    (
      (
        await p.app.inject({
          method: 'POST',
          url: '/api/files?name=podpis.png',
          headers: { authorization: `JWT ${tokens.admin}`, 'content-type': 'image/png' },
          payload: SAMPLE_PNG,
        })
      ).json() as { id: number }
    ).id;
  const numberOf = async (who: string) =>
    ((await call(who, 'GET', `/api/user-courses/${ids.course}`)).json() as { certificateNumber: string | null }).certificateNumber;

  beforeAll(async () => {
    p = await startTestPlatform();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    ids.company = await created('/api/companies', { name: 'Lekarne Novak d.o.o.', address: 'Cesta 1' });
    ids.center = await created('/api/units', { name: 'Lekarna Center', companyId: ids.company });
    ids.vic = await created('/api/units', { name: 'Lekarna Vič', companyId: ids.company });
    const companyImage = await uploadPng();
    expect(
      (await call('admin', 'PUT', `/api/companies/${ids.company}/signature`, { name: 'mag. Špela Žagar', role: 'Direktorica', imageFileId: companyImage }))
        .statusCode,
    ).toBe(200);
    // Lekarna Center signs its people's certificates itself; Lekarna Vič leaves it to the company.
    const unitImage = await uploadPng();
    expect(
      (await call('admin', 'PUT', `/api/units/${ids.center}/signature`, { name: 'mag. Maja Kos', role: 'Vodja lekarne', imageFileId: unitImage })).statusCode,
    ).toBe(200);
    ids.ana = await p.createUser('ana', [{ roleId: ROLE.participant, unitId: ids.center, companyId: ids.company }]);
    ids.bojan = await p.createUser('bojan', [{ roleId: ROLE.participant, unitId: ids.vic, companyId: ids.company }]);
    tokens.ana = (await p.login('ana')).token;
    tokens.bojan = (await p.login('bojan')).token;
    ids.course = await created('/api/courses', {
      type: 3,
      title: 'Interakcije zdravil: čaj, šipek in žajbelj',
      description: 'Izobraževanje s kreditnimi točkami Lekarniške zbornice.',
      cover: '/c.svg',
      creditPoints: 2,
      externalId: 'LZS-2026-17',
      syncDestination: 1,
      audience: { companyIds: [ids.company] },
    });
    ids.block = await created(`/api/courses/${ids.course}/blocks`, { block: { kind: 'points', name: 'Kreditne točke', points: 2 } });
    expect((await call('admin', 'POST', `/api/courses/${ids.course}/publish`)).statusCode).toBe(200);
  });

  afterAll(async () => p?.close());

  it('issues a certificate with a short number when the course is completed, named Certifikat in its file name', async () => {
    expect((await call('ana', 'POST', `/api/user-courses/${ids.course}/start`)).statusCode).toBe(200);
    expect((await call('ana', 'POST', `/api/user-courses/${ids.course}/blocks/${ids.block}/open`)).json()).toMatchObject({ completed: true });
    const issued = (await p.store.readStream(`enrollment-${ids.course}_${ids.ana}`)).events.find((e) => e.type === 'CertificateIssued');
    // The unit and company she belonged to at completion are recorded with the certificate.
    expect(issued?.data).toEqual({
      certificateId: expect.any(String),
      issuer: { companyId: ids.company, companyName: 'Lekarne Novak d.o.o.', unitId: ids.center, unitName: 'Lekarna Center' },
    });
    const number = await numberOf('ana');
    expect(number).toMatch(CERTIFICATE_NUMBER_PATTERN);
    if (!issued) throw new Error('no CertificateIssued');
    expect(number).toBe(certificateNumber((issued.data as { certificateId: string }).certificateId, issued.createdAt));
    const pdf = await call('ana', 'GET', `/api/user-courses/${ids.course}/certificate`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="certifikat-${number}.pdf"`);
  });

  it('draws the issuer with its signature, the accreditation line, the number and a QR code to the public page (pdftoppm)', async () => {
    const number = (await numberOf('ana')) as string;
    const pdf = (await call('ana', 'GET', `/api/user-courses/${ids.course}/certificate`)).rawPayload;
    const text = await pdfText(pdf);
    expect(text).toContain('CERTIFIKAT');
    expect(text).not.toMatch(/potrdil/i);
    expect(text).toContain('Test ana');
    expect(text).toContain('Izobraževanje je ovrednoteno z 2 kreditnima točkama pri Lekarniški zbornici.');
    expect(text).toContain(`Številka certifikata: ${number}`);
    // The unit signs (its own signature), not the company.
    expect(text).toContain('Izdajatelj: Lekarna Center');
    expect(text).toContain('mag. Maja Kos');
    expect(text).toContain('Vodja lekarne');
    expect(text).not.toContain('Špela Žagar');
    // The unit's signature image is drawn beside the QR code.
    expect(await imagesPainted(pdf)).toBe(2);
    const verifyUrl = `${p.config.publicUrl}/certifikat/${number}`;
    expect(text).toContain(verifyUrl);
    // Drawn by poppler as a reader would see it: the QR code holds the public address of this certificate.
    const page = await renderPdfPage(pdf, 'pdftoppm', 1, 150);
    expect(await readQr(page)).toBe(verifyUrl);
  });

  it('lets the company sign for a unit without a signature, and gives a certificate recorded before issue 18 a number and an issuer too', async () => {
    // An older CertificateIssued, with no issuer (appended as the platform wrote it before).
    const certificateId = randomUUID();
    const result = await p.store.append(
      `enrollment-${ids.course}_${ids.bojan}`,
      [
        { eventId: randomUUID(), type: 'CourseStarted', data: { courseId: ids.course, userId: ids.bojan }, metadata: {} },
        { eventId: randomUUID(), type: 'CourseCompleted', data: { creditPoints: 2 }, metadata: {} },
        { eventId: randomUUID(), type: 'CertificateIssued', data: { certificateId }, metadata: {} },
      ],
      { expectedRevision: 'no_stream' },
    );
    last = result.position;
    await p.settleAll(last);
    const number = await numberOf('bojan');
    expect(number).toMatch(CERTIFICATE_NUMBER_PATTERN);
    const text = await pdfText((await call('bojan', 'GET', `/api/user-courses/${ids.course}/certificate`)).rawPayload);
    expect(text).toContain('Izdajatelj: Lekarne Novak d.o.o.');
    expect(text).toContain('mag. Špela Žagar');
    expect(text).toContain('Direktorica');
    expect(text).toContain(`Številka certifikata: ${number}`);
    const check = await call(null, 'GET', `/api/certificates/${number}`);
    expect(check.statusCode).toBe(200);
    expect(check.json()).toMatchObject({ number, participantName: 'Test bojan', issuer: 'Lekarne Novak d.o.o.' });
    // The verifier is shown what the paper shows, no more (issue 31 item 7): each word of the answer is on the certificate.
    const shown = check.json() as { participantName: string; courseTitle: string; issuer: string; number: string; creditPoints: number };
    for (const words of [shown.participantName, shown.courseTitle, shown.issuer, shown.number]) expect(text).toContain(words);
    expect(text).toContain(`${shown.creditPoints} kreditn`);
    expect(Object.keys(shown).sort()).toEqual(['chamber', 'completedAt', 'courseTitle', 'creditPoints', 'issuer', 'number', 'participantName', 'valid']);
  });

  it('lets Medilearn issue the certificate of a participant who belongs to no company, without a signature', async () => {
    ids.cene = await p.createUser('cene', [{ roleId: ROLE.participant, unitId: 0, companyId: null }]);
    tokens.cene = (await p.login('cene')).token;
    const result = await p.store.append(
      `enrollment-${ids.course}_${ids.cene}`,
      [
        { eventId: randomUUID(), type: 'CourseStarted', data: { courseId: ids.course, userId: ids.cene }, metadata: {} },
        { eventId: randomUUID(), type: 'CourseCompleted', data: { creditPoints: 2 }, metadata: {} },
        { eventId: randomUUID(), type: 'CertificateIssued', data: { certificateId: randomUUID() }, metadata: {} },
      ],
      { expectedRevision: 'no_stream' },
    );
    last = result.position;
    await p.settleAll(last);
    const number = await numberOf('cene');
    const response = await call('cene', 'GET', `/api/user-courses/${ids.course}/certificate`);
    expect(response.statusCode, response.body).toBe(200);
    const pdf = response.rawPayload;
    const text = await pdfText(pdf);
    expect(text).toContain('Izdajatelj: Medilearn');
    expect(text).not.toContain('Žagar');
    expect(text).toContain(`Številka certifikata: ${number}`);
    // Only the QR code: no signature image.
    expect(await imagesPainted(pdf)).toBe(1);
    expect((await call(null, 'GET', `/api/certificates/${number}`)).json()).toMatchObject({ number, participantName: 'Test cene', issuer: null });
  });

  it('answers the public verification without a session: what the certificate shows and nothing else; 404 for a forged number', async () => {
    const number = (await numberOf('ana')) as string;
    const check = await call(null, 'GET', `/api/certificates/${number}`);
    expect(check.statusCode).toBe(200);
    expect(check.headers['cache-control']).toBe('no-store');
    const body = check.json() as Record<string, unknown>;
    expect(body).toEqual({
      valid: true,
      number,
      participantName: 'Test ana',
      courseTitle: 'Interakcije zdravil: čaj, šipek in žajbelj',
      creditPoints: 2,
      chamber: 'Lekarniška zbornica',
      issuer: 'Lekarna Center',
      completedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // Typed by hand: lower case and spaces still find it.
    expect((await call(null, 'GET', `/api/certificates/${encodeURIComponent(number.toLowerCase().replace(/-/g, ' '))}`)).statusCode).toBe(200);
    // A forged number (the right shape, another code), the UUID-looking old ids, garbage: all simply no certificate.
    const forged = `${number.slice(0, 8)}${number.slice(8, 13) === 'AAAAA' ? 'BBBBB' : 'AAAAA'}${number.slice(13)}`;
    for (const wrong of [forged, 'ML-2026-ABCDE-FGHJK', randomUUID(), "ML-2026-' or 1=1 --", 'x'.repeat(64)]) {
      const response = await call(null, 'GET', `/api/certificates/${encodeURIComponent(wrong)}`);
      expect(response.statusCode, wrong).toBe(404);
      expect(response.json()).toEqual({ errors: [{ code: '404', message: 'Certifikata s to številko ni.', field: null }] });
    }
  });

  it('limits the look-ups per address, so numbers cannot be walked', async () => {
    const address = '203.0.113.77';
    for (let i = 0; i < CERTIFICATE_CHECKS_PER_ADDRESS; i++) {
      expect((await call(null, 'GET', '/api/certificates/ML-2026-ABCDE-FGHJK', undefined, address)).statusCode).toBe(404);
    }
    const refused = await call(null, 'GET', '/api/certificates/ML-2026-ABCDE-FGHJK', undefined, address);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held up.
    expect((await call(null, 'GET', '/api/certificates/ML-2026-ABCDE-FGHJK', undefined, '203.0.113.78')).statusCode).toBe(404);
  });
});
