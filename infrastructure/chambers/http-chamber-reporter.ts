import { type ChamberCreditRecord, type ChamberReceipt, ChamberReportError, type ChamberReporter } from './chamber-reporter.port.ts';

const TIMEOUT_MS = 10_000;

/**
 * A chamber that takes records over HTTP (decision 0030): a JSON POST to its configured address with
 * the record's reference as `Idempotency-Key`; acknowledged by a 2xx answer whose JSON holds a
 * `receipt`. Anything else (no answer in 10 s, a redirect, another status, no receipt) is not an
 * acknowledgment and the record is sent again later.
 */
export const createHttpChamberReporter = (url: string): ChamberReporter => ({
  report: async (record: ChamberCreditRecord): Promise<ChamberReceipt> => {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': record.reference },
        body: JSON.stringify(record),
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new ChamberReportError(`Zbornica ni dosegljiva (${(error as Error).name}).`);
    }
    if (response.status < 200 || response.status > 299) {
      await response.body?.cancel();
      throw new ChamberReportError(`Zbornica je odgovorila s stanjem ${response.status}.`);
    }
    const body = (await response.json().catch(() => null)) as { receipt?: unknown } | null;
    const receipt = body?.receipt;
    if ((typeof receipt !== 'string' && typeof receipt !== 'number') || String(receipt).length === 0) {
      throw new ChamberReportError('Zbornica ni vrnila potrdila o prejemu.');
    }
    return { receipt: String(receipt).slice(0, 200) };
  },
});

/** Chamber 1, 2 or 3 goes over HTTP where an address is configured, else to the local file drop. */
export const routeChamberReports = (byChamber: Partial<Record<1 | 2 | 3, ChamberReporter>>, fallback: ChamberReporter): ChamberReporter => ({
  report: (record) => (byChamber[record.chamber] ?? fallback).report(record),
});
