/**
 * `tolk push`: imports files in an export's shape into an existing project through the public API,
 * so every rule (names, limits, permissions) is the server's. It reads the project, plans the
 * changes (plan.ts), prints the plan with --dry-run, or makes the writes; nothing is deleted.
 */
import type { Command } from 'commander';
import { apiClient } from './api-client.js';
import { applyPlan } from './apply-plan.js';
import { resolveArbKeys } from './flutter-keys.js';
import { PUSH_FORMATS, resolvePushOptions, type PushFlags, type PushOptions } from './options.js';
import { planCounts, planPush, type ResolvedInput } from './plan.js';
import { loadProjectState } from './project-state.js';
import { readPushInput } from './read-input.js';

/** Runs one push; returns the summary printed on stdout. */
export async function push(options: PushOptions) {
  const input = readPushInput(options.format, options.in);
  const api = apiClient(options.url, options.apiKey);
  const state = await loadProjectState(api, options.project, [...input.texts.keys()]);
  const resolved: ResolvedInput =
    input.kind === 'arb' ? resolveArbKeys(input, state) : { texts: input.texts, groups: input.groups.get(state.baseLanguage) ?? new Set(), contextInfo: new Map(), skipped: [] };
  const plan = planPush(state, resolved);
  const writes = options.dryRun ? 0 : await applyPlan(api, options.project, state, plan);
  return {
    dryRun: options.dryRun,
    project: options.project,
    format: options.format,
    baseLanguage: plan.baseLanguage,
    languages: plan.languages,
    skippedLanguages: plan.skippedLanguages,
    counts: planCounts(plan),
    writes,
    changes: {
      groups: plan.groups,
      entries: plan.entries.map(({ path }) => path),
      baseTerms: plan.updates.filter((update) => update.baseTerm).map(({ path, baseTerm }) => ({ path, ...baseTerm })),
      contextInfos: plan.updates.filter((update) => update.contextInfo).map(({ path, contextInfo }) => ({ path, ...contextInfo })),
      translations: plan.translations,
    },
    skipped: plan.skipped,
  };
}

/** Adds `push` to the program. */
export function registerPushCommand(program: Command): void {
  program
    .command('push')
    .description('import json / vue-i18n / i18next / flutter files into an existing project on a tolk server (flags > env TOLK_URL/TOLK_API_KEY > ./tolk.json)')
    .option('--url <url>', 'the tolk server, e.g. https://tolk.example.com (env TOLK_URL)')
    .option('--key <key>', 'an API key (env TOLK_API_KEY)')
    .option('--project <id>', 'the project id')
    .option('--format <format>', PUSH_FORMATS.join('|'))
    .option('--in <path>', 'the json file (or a directory holding messages.json), the vue-i18n directory of <lang>.json (or one file of all languages), or the i18next / flutter directory')
    .option('--dry-run', 'print the plan, write nothing')
    .action(async (flags: PushFlags) => {
      const result = await push(resolvePushOptions(flags, process.env, process.cwd()));
      process.stdout.write(`${JSON.stringify(result)}\n`);
    });
}
