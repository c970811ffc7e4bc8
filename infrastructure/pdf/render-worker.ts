import { parentPort } from 'node:worker_threads';
import { RENDERERS, type RenderKind } from './renderers.ts';

/** A render worker thread: draws one document at a time off the API's event loop (render-pool.ts). */
parentPort?.on('message', async (task: { id: number; kind: RenderKind; data: never }) => {
  try {
    const bytes = await RENDERERS[task.kind](task.data);
    parentPort?.postMessage({ id: task.id, bytes });
  } catch (error) {
    parentPort?.postMessage({ id: task.id, error: error instanceof Error ? error.message : String(error) });
  }
});
