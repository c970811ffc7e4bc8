// One soak load phase in a separate process: `load` starts this file with `--load`, and the child
// runs runSoakLoad (soak-load.ts) on the plan it is sent and sends back the result.

import { spawn } from 'node:child_process';
import { runSoakLoad } from './soak-load.ts';
import type { LoadResult, Plan } from './soak-plan.ts';

if (import.meta.main && process.argv[2] === '--load') {
  process.once('message', async (plan: Plan) => {
    const result = await runSoakLoad(plan, () => process.send?.({ type: 'started' }));
    process.send?.({ type: 'result', result }, () => process.disconnect());
  });
}

/** One load phase from a separate process (so it does not share the server's event loop); `onStarted` when the first request is due. */
export const load = async (plan: Plan, onStarted: () => void = () => undefined): Promise<LoadResult> => {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', import.meta.filename, '--load'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { promise, resolve, reject } = Promise.withResolvers<LoadResult>();
  child.on('message', (message: { type: 'started' } | { type: 'result'; result: LoadResult }) => {
    if (message.type === 'started') onStarted();
    else resolve(message.result);
  });
  child.on('exit', (code) => reject(new Error(`load client exited with ${code} before its result`)));
  child.send(plan);
  return promise;
};
