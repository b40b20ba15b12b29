/** Everything the bench starts registers its stop here; stops run once, newest first, also on failure. */
export class Cleanup {
  #tasks = [];
  #closing = false;

  /** Whether runAll has begun (SIGINT, or the end): nothing new may start. */
  get closing() {
    return this.#closing;
  }

  /**
   * Registers `dispose`; the returned function runs it early (it then no longer runs at the end).
   * Once runAll has begun, `dispose` runs at once and this throws: whatever was just started is stopped.
   */
  add(name, dispose) {
    const task = { name, dispose, done: false };
    if (this.#closing) {
      void this.#run(task);
      throw new Error(`the bench is stopping; "${name}" was stopped at once`);
    }
    this.#tasks.push(task);
    return () => this.#run(task);
  }

  /** Runs every pending stop, newest first; one failing stop does not keep the others from running. */
  async runAll() {
    this.#closing = true;
    for (const task of [...this.#tasks].reverse()) await this.#run(task);
  }

  async #run(task) {
    if (task.done) return task.promise;
    task.done = true;
    task.promise = Promise.resolve()
      .then(task.dispose)
      .catch((error) => {
        process.stderr.write(`bench: cleanup "${task.name}" failed: ${error instanceof Error ? error.message : error}\n`);
      });
    return task.promise;
  }
}
