/**
 * Ends the run with one plain line, `tests: N passed, N failed, N skipped`, the form CI reads to
 * tell a run that tested nothing from one that passed.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const count = (state: 'passed' | 'failed' | 'skipped') =>
      testModules.reduce((sum, module) => sum + [...module.children.allTests(state)].length, 0);
    process.stdout.write(`\ntests: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped\n`);
  }
}
