import { Worker } from 'node:worker_threads';
import { beforeAll, describe, expect, it } from 'vitest';
import { escapeVueMessage } from '../../src/messages/vue-i18n/escape-message.js';
import { vueKey } from '../../src/exports/vue-i18n/flat-key.js';

// Text that escapeVueMessage must leave as it is, and that every version renders raw.
const ORDINARY = [
  "it's",
  "'quoted'",
  '"double"',
  'two\nlines\n',
  '\n',
  'tab\there',
  '  ',
  '',
  '👩‍👩‍👧 family',
  'مرحبا بالعالم',
  '日本語のテキスト',
  'cafe\u0301',
  '$t(x)',
  'US$ 5 $$',
  'a: b. (c)',
  '<b>bold</b> &amp;',
];

// Text each version reads as syntax; every item must be misrendered raw by at least one version.
const SYNTAX = [
  'a@b.com',
  'Tom | Jerry',
  '{name}',
  '{',
  '}',
  '}{',
  'a%%{x}',
  '%{x}',
  '${x}',
  '@:linked',
  '@.upper:key',
  "{'@'}",
  'back\\\\slash',
  'a\\{b}',
  'line\r\nbreak',
  'line\u2028separator',
  'paragraph\u2029separator',
];

// Escaped although every version renders them raw: the rule stays one lookup per character.
const HARMLESS_BUT_ESCAPED = ['100%', '50 % off', 'back\\slash', 'lone\rreturn'];

const HOSTILE = [...ORDINARY, ...SYNTAX, ...HARMLESS_BUT_ESCAPED];

// Looked up as written here, messages keyed by vueKey. Object.prototype names reach a function on path lookup;
// core-base must still fall back to the flat key.
const FLAT_KEYS = ['auth.login.submit', 'a.b.c', 'constructor.name', 'toString.length', 'valueOf.valueOf', 'hasOwnProperty.call'];

interface Target {
  readonly label: string;
  readonly pkg: string;
  readonly major: number;
  // v9's ESM builds (what bundlers load) generate JavaScript per message (compileToFunction) unless
  // __INTLIFY_JIT_COMPILATION__ is set; its CommonJS build interprets the AST (compile). Both are checked.
  readonly codegen: boolean;
}

const TARGETS: readonly Target[] = [
  { label: 'vue-i18n 9', pkg: 'vue-i18n-9', major: 9, codegen: false },
  { label: 'vue-i18n 9, code-generating compiler', pkg: 'vue-i18n-9', major: 9, codegen: true },
  { label: 'vue-i18n 10', pkg: 'vue-i18n-10', major: 10, codegen: false },
  { label: 'vue-i18n 11', pkg: 'vue-i18n-11', major: 11, codegen: false },
];

const MODES = [
  { label: 'legacy', legacy: true },
  { label: 'composition', legacy: false },
] as const;

type Outcome = { readonly text: unknown } | { readonly error: string } | { readonly timeout: true };

interface Rendering {
  readonly version: string;
  readonly outcomes: ReadonlyMap<string, Outcome>;
  readonly logs: ReadonlyMap<string, readonly string[]>;
}

type WorkerMessage =
  | { readonly type: 'ready'; readonly version: string }
  | { readonly type: 'result'; readonly key: string; readonly outcome: Outcome; readonly logs: string[] }
  | { readonly type: 'done' };

// Runs in a worker thread, because v9's tokenizer loops forever on some input and only terminate() stops that.
// Console output is captured per key so a test can demand that escaped messages compile without complaint.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const { anchor, pkg, codegen, legacy, messages, keys } = workerData;
const logs = [];
for (const level of ['log', 'info', 'warn', 'error']) {
  console[level] = (...args) => logs.push(args.map(String).join(' '));
}
const load = createRequire(anchor);
const vueI18n = load(pkg);
if (codegen) {
  const core = createRequire(load.resolve(pkg))('@intlify/core-base');
  core.registerMessageCompiler(core.compileToFunction);
}
const en = { en: messages };
const i18n = vueI18n.createI18n(legacy
  ? { legacy: true, locale: 'en', messages: en, silentTranslationWarn: true, silentFallbackWarn: true, warnHtmlInMessage: 'off' }
  : { legacy: false, locale: 'en', messages: en, missingWarn: false, fallbackWarn: false, warnHtmlMessage: false });
parentPort.postMessage({ type: 'ready', version: vueI18n.VERSION });
for (const key of keys) {
  let outcome;
  try {
    outcome = { text: i18n.global.t(key) };
  } catch (error) {
    outcome = { error: String(error && error.message || error) };
  }
  parentPort.postMessage({ type: 'result', key, outcome, logs: logs.splice(0) });
}
parentPort.postMessage({ type: 'done' });
`;

const STARTUP_MS = 20_000;
const KEY_MS = 3_000;

interface Job {
  readonly target: Target;
  readonly legacy: boolean;
  readonly messages: Readonly<Record<string, string>>;
}

/** One worker run over `keys`; 'stuck' means the key after the last reported one never finished. */
function runWorker(job: Job, keys: readonly string[], onMessage: (message: WorkerMessage) => void): Promise<'done' | 'stuck'> {
  return new Promise((resolve, reject) => {
    const { target, legacy, messages } = job;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { anchor: import.meta.url, pkg: target.pkg, codegen: target.codegen, legacy, messages, keys },
    });
    let ready = false;
    let settled = false;
    const finish = (outcome: 'done' | 'stuck' | Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const onTimeout = (): void => finish(ready ? 'stuck' : new Error(`${target.label} did not load`));
    let timer = setTimeout(onTimeout, STARTUP_MS);
    worker.on('message', (message: WorkerMessage) => {
      clearTimeout(timer);
      if (message.type === 'ready') ready = true;
      onMessage(message);
      if (message.type === 'done') finish('done');
      else timer = setTimeout(onTimeout, KEY_MS);
    });
    worker.on('error', (error) => finish(error));
    worker.on('exit', (code) => finish(new Error(`${target.label} worker exited with ${code}`)));
  });
}

/** Renders every message with t(key); a message that hangs the compiler is recorded as a timeout. */
async function render(job: Job): Promise<Rendering> {
  const outcomes = new Map<string, Outcome>();
  const logs = new Map<string, readonly string[]>();
  let version = '';
  let pending = Object.keys(job.messages);
  while (pending.length > 0) {
    const status = await runWorker(job, pending, (message) => {
      if (message.type === 'ready') version = message.version;
      if (message.type !== 'result') return;
      outcomes.set(message.key, message.outcome);
      logs.set(message.key, message.logs);
    });
    pending = pending.filter((key) => !outcomes.has(key));
    const [stuck, ...rest] = pending;
    if (status === 'stuck' && stuck !== undefined) outcomes.set(stuck, { timeout: true });
    pending = status === 'stuck' ? rest : [];
  }
  return { version, outcomes, logs };
}

const escapedKey = (i: number): string => `escaped.case${i}`;
const rawKey = (i: number): string => `raw.case${i}`;
const flatText = (key: string): string => `${key} @ {text} | 100%`;

// A `%` left raw in front of an escaped brace: shows why `%` itself must be escaped for v9.
const PERCENT_ONLY_TEXT = '%{x}';
const PERCENT_UNESCAPED = escapeVueMessage(PERCENT_ONLY_TEXT).replaceAll("{'%'}", '%');

function messagesForAllCases(): Record<string, string> {
  const messages: Record<string, string> = {};
  HOSTILE.forEach((text, i) => {
    messages[escapedKey(i)] = escapeVueMessage(text);
    messages[rawKey(i)] = text;
  });
  for (const key of FLAT_KEYS) messages[vueKey(key.split('.'))] = escapeVueMessage(flatText(key));
  messages['percent.unescaped'] = PERCENT_UNESCAPED;
  return messages;
}

const SCENARIOS = TARGETS.flatMap((target) => MODES.map((mode) => ({ target, mode, label: `${target.label}, ${mode.label} mode` })));
const renderings = new Map<string, Rendering>();

function renderingOf(label: string): Rendering {
  const rendering = renderings.get(label);
  if (!rendering) throw new Error(`no rendering for ${label}`);
  return rendering;
}

/** The outcome of key in every scenario, labelled, for assertions across versions. */
function outcomesAcrossScenarios(key: string): Record<string, Outcome | undefined> {
  return Object.fromEntries(SCENARIOS.map(({ label }) => [label, renderingOf(label).outcomes.get(key)]));
}

beforeAll(async () => {
  const messages = messagesForAllCases();
  const results = await Promise.all(SCENARIOS.map(({ target, mode }) => render({ target, legacy: mode.legacy, messages })));
  SCENARIOS.forEach(({ label }, i) => {
    const result = results[i];
    if (result) renderings.set(label, result);
  });
}, 120_000);

describe('escapeVueMessage', () => {
  it('leaves ordinary text (quotes, newlines, emoji, RTL, CJK, combining marks, $) as it is', () => {
    for (const text of ORDINARY) expect(escapeVueMessage(text), JSON.stringify(text)).toBe(text);
  });

  it('turns each syntax character into a literal interpolation and keeps the text around it', () => {
    expect(escapeVueMessage('a@b.com')).toBe("a{'@'}b.com");
    expect(escapeVueMessage('Tom | Jerry')).toBe("Tom {'|'} Jerry");
    expect(escapeVueMessage('{name}')).toBe("{'{'}name{'}'}");
    expect(escapeVueMessage('100%')).toBe("100{'%'}");
    expect(escapeVueMessage('back\\slash')).toBe("back{'\\\\'}slash");
    expect(escapeVueMessage("{'@'}")).toBe("{'{'}'{'@'}'{'}'}");
  });

  it('writes CR, LINE SEPARATOR and PARAGRAPH SEPARATOR as \\u escapes inside a literal', () => {
    expect(escapeVueMessage('a\r\nb')).toBe("a{'\\u000D'}\nb");
    expect(escapeVueMessage('a\u2028b\u2029c')).toBe("a{'\\u2028'}b{'\\u2029'}c");
  });
});

describe('vueKey', () => {
  it('joins group technical names and the entry technical name with dots', () => {
    expect(vueKey(['auth', 'login', 'submit'])).toBe('auth.login.submit');
    expect(vueKey(['home', 'title'])).toBe('home.title');
  });
});

describe.each(SCENARIOS)('$label', ({ target, label }) => {
  it(`is vue-i18n ${target.major}`, () => {
    expect(renderingOf(label).version.split('.')[0]).toBe(String(target.major));
  });

  it('renders every escaped hostile text exactly as stored', () => {
    const { outcomes } = renderingOf(label);
    const rendered = Object.fromEntries(HOSTILE.map((text, i) => [text, outcomes.get(escapedKey(i))]));
    const expected = Object.fromEntries(HOSTILE.map((text) => [text, { text }]));
    expect(rendered).toEqual(expected);
  });

  it('compiles escaped texts without a warning or an error', () => {
    const { logs } = renderingOf(label);
    const complaints = HOSTILE.flatMap((text, i) => (logs.get(escapedKey(i)) ?? []).map((line) => `${JSON.stringify(text)}: ${line}`));
    expect(complaints).toEqual([]);
  });

  it('resolves flat dotted keys with t(key) and no options', () => {
    const { outcomes } = renderingOf(label);
    const rendered = Object.fromEntries(FLAT_KEYS.map((key) => [key, outcomes.get(key)]));
    expect(rendered).toEqual(Object.fromEntries(FLAT_KEYS.map((key) => [key, { text: flatText(key) }])));
  });
});

describe('without escaping', () => {
  it.each(SYNTAX)('%j is misrendered by at least one version', (text) => {
    const i = HOSTILE.indexOf(text);
    const misrendered = Object.entries(outcomesAcrossScenarios(rawKey(i))).filter(
      ([, outcome]) => !(outcome && 'text' in outcome && outcome.text === text),
    );
    expect(misrendered.length).toBeGreaterThan(0);
  });

  it('v9 hangs on a%%{x} (recorded as a timeout, not a stuck test run)', () => {
    const outcome = renderingOf('vue-i18n 9, composition mode').outcomes.get(rawKey(HOSTILE.indexOf('a%%{x}')));
    expect(outcome).toEqual({ timeout: true });
  });

  it('v9 reads a raw % in front of an escaped brace as modulo interpolation, so % is escaped too', () => {
    const outcomes = outcomesAcrossScenarios('percent.unescaped');
    expect(outcomes['vue-i18n 9, composition mode']).not.toEqual({ text: PERCENT_ONLY_TEXT });
    expect(outcomes['vue-i18n 11, composition mode']).toEqual({ text: PERCENT_ONLY_TEXT });
  });

  it('ordinary and harmless texts render raw in every version', () => {
    for (const text of [...ORDINARY, ...HARMLESS_BUT_ESCAPED]) {
      const outcomes = outcomesAcrossScenarios(rawKey(HOSTILE.indexOf(text)));
      for (const outcome of Object.values(outcomes)) expect(outcome, JSON.stringify(text)).toEqual({ text });
    }
  });
});
