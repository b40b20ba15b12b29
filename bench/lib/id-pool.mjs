/** CUID2 ids (tolk's id format) made ahead by worker threads while the main thread writes rows. */
import { Worker } from 'node:worker_threads';

const CHUNK = 5_000;
const CHUNKS_AHEAD = 4;

export class IdPool {
  #workers;
  #turn = 0;
  #pending = [];
  #buffer = [];
  #position = 0;

  constructor(threads = 2) {
    this.#workers = Array.from({ length: threads }, () => {
      const worker = new Worker(new URL('./id-worker.mjs', import.meta.url));
      const slot = { worker, waiting: [] };
      worker.on('message', (ids) => slot.waiting.shift()?.resolve(ids));
      worker.on('error', (error) => slot.waiting.splice(0).forEach((w) => w.reject(error)));
      return slot;
    });
  }

  #request() {
    const slot = this.#workers[this.#turn++ % this.#workers.length];
    return new Promise((resolve, reject) => {
      slot.waiting.push({ resolve, reject });
      slot.worker.postMessage(CHUNK);
    });
  }

  /** The next `count` ids. */
  async take(count) {
    const out = [];
    while (out.length < count) {
      if (this.#position === this.#buffer.length) {
        while (this.#pending.length < CHUNKS_AHEAD) this.#pending.push(this.#request());
        this.#buffer = await this.#pending.shift();
        this.#position = 0;
      }
      const end = Math.min(this.#buffer.length, this.#position + count - out.length);
      for (let i = this.#position; i < end; i += 1) out.push(this.#buffer[i]);
      this.#position = end;
    }
    return out;
  }

  /** Stops the worker threads. */
  async close() {
    await Promise.all(this.#workers.map(({ worker }) => worker.terminate()));
  }
}
