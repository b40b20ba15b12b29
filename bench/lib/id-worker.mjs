/** Makes CUID2 ids off the main thread (createId costs ~45 µs; the large project needs ~820,000). */
import { parentPort } from 'node:worker_threads';
import { createId } from '@paralleldrive/cuid2';

parentPort.on('message', (count) => {
  const ids = new Array(count);
  for (let i = 0; i < count; i += 1) ids[i] = createId();
  parentPort.postMessage(ids);
});
