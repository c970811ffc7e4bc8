import { Worker } from 'node:worker_threads';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { ConsentReportRenderer } from '../reports/consent-report.port.ts';
import type { DocumentRenderer } from '../reports/document.port.ts';
import type { ReportDocumentRenderer } from '../reports/report-document.port.ts';
import type { CertificateRenderer } from './certificate.port.ts';
import type { RenderInput, RenderKind } from './renderers.ts';

/**
 * Documents (certificates, reports, personal data, consent histories) are drawn in a few worker
 * threads, never on the API's event loop (issue 31 item 5, decision 0049): a flood of PDFs waits
 * its turn there while every other request is answered. The queue is bounded, as is each person's
 * share of it: beyond either, the request is refused at once with 429 and Retry-After.
 */
export type RenderPool = {
  render<K extends RenderKind>(kind: K, data: RenderInput<K>, owner: string): Promise<Buffer>;
  close(): Promise<void>;
};

export type RenderPoolOptions = {
  /** Worker threads drawing at once. */
  readonly workers: number;
  /** Documents waiting or being drawn, in all. */
  readonly maxQueued: number;
  /** Documents waiting or being drawn for one person (an account or an address). */
  readonly perOwner: number;
};

const BUSY = 'Strežnik ravno pripravlja veliko dokumentov. Poskusite znova čez nekaj sekund.';
const YOURS_BUSY = 'Vaši dokumenti se še pripravljajo. Počakajte, da se končajo, in poskusite znova.';

type Task = { id: number; kind: RenderKind; data: unknown; owner: string; resolve: (bytes: Buffer) => void; reject: (error: Error) => void };

export const createRenderPool = (options: RenderPoolOptions): RenderPool => {
  const waiting: Task[] = [];
  const running = new Map<Worker, Task>();
  const idle: Worker[] = [];
  const perOwner = new Map<string, number>();
  let nextId = 1;
  let closed = false;

  const settle = (task: Task) => {
    const left = (perOwner.get(task.owner) ?? 1) - 1;
    if (left > 0) perOwner.set(task.owner, left);
    else perOwner.delete(task.owner);
  };
  const dispatch = () => {
    while (idle.length > 0 && waiting.length > 0) {
      const worker = idle.pop() as Worker;
      const task = waiting.shift() as Task;
      running.set(worker, task);
      worker.postMessage({ id: task.id, kind: task.kind, data: task.data });
    }
  };
  const spawn = (): Worker => {
    const worker = new Worker(new URL('./render-worker.ts', import.meta.url));
    worker.unref();
    worker.on('message', (message: { id: number; bytes?: Uint8Array; error?: string }) => {
      const task = running.get(worker);
      running.delete(worker);
      idle.push(worker);
      if (task) {
        settle(task);
        if (message.bytes) task.resolve(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength));
        else task.reject(new Error(message.error ?? 'render failed'));
      }
      dispatch();
    });
    // A worker that dies fails its document and is replaced; the others go on.
    worker.on('error', (error) => {
      const task = running.get(worker);
      running.delete(worker);
      if (task) {
        settle(task);
        task.reject(error);
      }
      if (!closed) {
        idle.push(spawn());
        dispatch();
      }
    });
    return worker;
  };
  // Threads start with the first document: a process that draws none pays nothing.
  let started = false;

  return {
    render: (kind, data, owner) => {
      if (!started) {
        started = true;
        for (let i = 0; i < options.workers; i++) idle.push(spawn());
      }
      if (waiting.length + running.size >= options.maxQueued) return Promise.reject(new DomainError('429', BUSY, { status: 429, retryAfterSeconds: 5 }));
      if ((perOwner.get(owner) ?? 0) >= options.perOwner) return Promise.reject(new DomainError('429', YOURS_BUSY, { status: 429, retryAfterSeconds: 5 }));
      perOwner.set(owner, (perOwner.get(owner) ?? 0) + 1);
      return new Promise<Buffer>((resolve, reject) => {
        waiting.push({ id: nextId++, kind, data, owner, resolve, reject });
        dispatch();
      });
    },
    close: async () => {
      closed = true;
      for (const task of waiting.splice(0)) task.reject(new Error('render pool closed'));
      await Promise.all([...idle, ...running.keys()].map((worker) => worker.terminate()));
    },
  };
};

/** The document ports of the platform, drawn by the pool: what the composition root hands the routes. */
export const pooledRenderers = (pool: RenderPool) => {
  const certificates: CertificateRenderer = { render: (data, owner = 'platform') => pool.render('certificate', data, owner) };
  const documents: DocumentRenderer = { pdf: (document, owner = 'platform') => pool.render('document', document, owner) };
  const reportDocuments: ReportDocumentRenderer = { pdf: (document, owner = 'platform') => pool.render('report', document, owner) };
  const consentReports: ConsentReportRenderer = {
    pdf: (report, owner = 'platform') => pool.render('consentsPdf', report, owner),
    xlsx: (report, owner = 'platform') => pool.render('consentsXlsx', report, owner),
  };
  return { certificates, documents, reportDocuments, consentReports };
};
