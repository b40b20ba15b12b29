/**
 * Reads what `tolk push` imports, in the shapes the exports write: the `json` document
 * (`{lang: {group: {entry: text}}}`), an i18next directory (`<lang>/translation.json`, nested the same
 * way), vue-i18n flat messages (a directory of `<lang>.json`, or one `{lang: {"group.entry": message}}`
 * file) or a Flutter directory (`app_<lang>.arb`). Nothing here knows the project; Flutter keys are
 * mapped onto groups later (flutter-keys.ts), since an ARB key alone does not say where groups end.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readArbMessage } from '../../messages/flutter/read-flutter.js';
import { pluralSuffixOf, readI18nextPlural, readI18nextText } from '../../messages/i18next/read-i18next.js';
import { readVueMessage } from '../../messages/vue-i18n/read-vue-i18n.js';

/** Texts by language and dotted path (`auth.login.submit`), plus the group paths the files hold. */
export interface NestedInput {
  kind: 'nested';
  texts: Map<string, Map<string, string>>;
  /** language → dotted group paths, empty groups included */
  groups: Map<string, Set<string>>;
}

/** Texts by language and ARB key, and the template's descriptions (key → description, null for an `@key` without one). */
export interface ArbInput {
  kind: 'arb';
  texts: Map<string, Map<string, string>>;
  descriptions: Map<string, Map<string, string | null>>;
}

type Json = unknown;

function readJson(path: string): Json {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

const isObject = (value: Json): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Walks one language's nested object into texts and group paths; anything but text or objects is refused. */
function flatten(source: string, value: Json, texts: Map<string, string>, groups: Set<string>, prefix: string[] = []): void {
  if (!isObject(value)) throw new Error(`${source}: ${prefix.length ? `"${prefix.join('.')}"` : 'the top level'} must be an object`);
  for (const [name, child] of Object.entries(value)) {
    const path = [...prefix, name];
    if (typeof child === 'string') {
      if (prefix.length === 0) throw new Error(`${source}: "${name}" is text outside any group; entries live in groups`);
      texts.set(path.join('.'), child);
    } else if (isObject(child)) {
      groups.add(path.join('.'));
      flatten(source, child, texts, groups, path);
    } else {
      throw new Error(`${source}: "${path.join('.')}" is ${child === null ? 'null' : typeof child}, not text or an object`);
    }
  }
}

function nestedInput(byLanguage: [language: string, source: string, value: Json][], toMessages?: (texts: Map<string, string>, language: string) => Map<string, string>): NestedInput {
  const input: NestedInput = { kind: 'nested', texts: new Map(), groups: new Map() };
  for (const [language, source, value] of byLanguage) {
    const texts = new Map<string, string>();
    const groups = new Set<string>();
    flatten(source, value, texts, groups);
    input.texts.set(language, toMessages ? toMessages(texts, language) : texts);
    input.groups.set(language, groups);
  }
  return input;
}

function readJsonDocument(path: string): NestedInput {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'messages.json') : path;
  const document = readJson(file);
  if (!isObject(document)) throw new Error(`${file} must hold an object keyed by language`);
  return nestedInput(Object.entries(document).map(([language, value]) => [language, `${file} › ${language}`, value]));
}

function directoryEntries(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch (error) {
    throw new Error(`cannot read the directory ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

function readI18next(dir: string): NestedInput {
  const files = directoryEntries(dir)
    .map((language) => [language, join(dir, language, 'translation.json')] as const)
    .filter(([, file]) => existsSync(file));
  if (files.length === 0) throw new Error(`${dir} holds no <lang>/translation.json`);
  return nestedInput(files.map(([language, file]) => [language, file, readJson(file)]), i18nextMessages);
}

/** One language's i18next texts as ICU messages: `{{x}}` → `{x}`, and each entry's `_one`, `_other`… keys → one plural. */
function i18nextMessages(texts: Map<string, string>, language: string): Map<string, string> {
  const plurals = new Map<string, Map<string, string>>();
  for (const [path, text] of texts) {
    const suffix = pluralSuffixOf(path);
    if (!suffix) continue;
    const entry = path.slice(0, -(suffix.length + 1));
    if (texts.has(entry) || !texts.has(`${entry}_other`)) continue;
    const forms = plurals.get(entry) ?? new Map<string, string>();
    plurals.set(entry, forms.set(suffix, text));
  }
  const messages = new Map<string, string>();
  for (const [path, text] of texts) {
    const suffix = pluralSuffixOf(path);
    const entry = suffix ? path.slice(0, -(suffix.length + 1)) : path;
    const forms = suffix ? plurals.get(entry) : undefined;
    if (!forms) messages.set(path, readI18nextText(text));
    else if (!messages.has(entry)) messages.set(entry, readI18nextPlural(forms, language));
  }
  return messages;
}

/** One language's flat vue-i18n object: each key split on dots (names never hold one), each message read as ICU. */
function unflattenVue(source: string, value: Json, language: string): Json {
  if (!isObject(value)) throw new Error(`${source}: the top level must be an object`);
  const nested: Record<string, Json> = {};
  for (const [key, message] of Object.entries(value)) {
    if (typeof message !== 'string') throw new Error(`${source}: "${key}" is ${message === null ? 'null' : typeof message}, not text`);
    const path = key.split('.');
    if (path.some((name) => name === '')) throw new Error(`${source}: "${key}" is no dotted group path and entry name`);
    let text: string;
    try {
      text = readVueMessage(message, language);
    } catch (error) {
      throw new Error(`${source}: "${key}": ${(error as Error).message}`);
    }
    let node = nested;
    for (let depth = 0; depth < path.length - 1; depth += 1) {
      const name = path[depth]!;
      const child = Object.hasOwn(node, name) ? node[name] : undefined;
      if (typeof child === 'string') throw new Error(`${source}: "${key}" puts an entry under the entry "${path.slice(0, depth + 1).join('.')}"`);
      if (child === undefined) node[name] = {};
      node = node[name] as Record<string, Json>;
    }
    const name = path[path.length - 1]!;
    if (Object.hasOwn(node, name)) throw new Error(`${source}: "${key}" is both an entry and a group`);
    node[name] = text;
  }
  return nested;
}

function readVueI18n(path: string): NestedInput {
  if (existsSync(path) && statSync(path).isDirectory()) {
    const files = directoryEntries(path)
      .filter((name) => name.endsWith('.json') && name !== 'messages.json' && !name.startsWith('.'))
      .map((name) => [name.slice(0, -'.json'.length), join(path, name)] as const);
    if (files.length === 0) throw new Error(`${path} holds no <lang>.json`);
    return nestedInput(files.map(([language, file]) => [language, file, unflattenVue(file, readJson(file), language)]));
  }
  const document = readJson(path);
  if (!isObject(document)) throw new Error(`${path} must hold an object keyed by language`);
  return nestedInput(
    Object.entries(document).map(([language, value]) => [language, `${path} › ${language}`, unflattenVue(`${path} › ${language}`, value, language)]),
  );
}

/** Each key's placeholders declared with a number format (`@key.placeholders.x.format`), from every file's metadata. */
function formattedPlaceholders(arbs: ReadonlyArray<Record<string, Json>>): Map<string, Set<string>> {
  const formatted = new Map<string, Set<string>>();
  for (const arb of arbs) {
    for (const [key, value] of Object.entries(arb)) {
      if (!key.startsWith('@') || key.startsWith('@@') || !isObject(value) || !isObject(value['placeholders'])) continue;
      for (const [name, placeholder] of Object.entries(value['placeholders'])) {
        if (isObject(placeholder) && typeof placeholder['format'] === 'string') formatted.set(key.slice(1), (formatted.get(key.slice(1)) ?? new Set()).add(name));
      }
    }
  }
  return formatted;
}

function readFlutter(dir: string): ArbInput {
  const names = directoryEntries(dir).filter((name) => /^app_.+\.arb$/.test(name));
  if (names.length === 0) throw new Error(`${dir} holds no app_<lang>.arb`);
  const input: ArbInput = { kind: 'arb', texts: new Map(), descriptions: new Map() };
  const files = names.map((name) => {
    const file = join(dir, name);
    const arb = readJson(file);
    if (!isObject(arb)) throw new Error(`${file} must hold an object`);
    return { name, file, arb };
  });
  const formatted = formattedPlaceholders(files.map(({ arb }) => arb));
  for (const { name, file, arb } of files) {
    // @@locale wins over the file name, as in gen-l10n; both spell regions with `_` (pt_BR = pt-BR).
    const locale = typeof arb['@@locale'] === 'string' ? arb['@@locale'] : name.slice('app_'.length, -'.arb'.length);
    const language = locale.replaceAll('_', '-');
    if (input.texts.has(language)) throw new Error(`${file}: a second file for the language ${language}`);
    const texts = new Map<string, string>();
    const descriptions = new Map<string, string | null>();
    for (const [key, value] of Object.entries(arb)) {
      if (key.startsWith('@')) {
        if (key.startsWith('@@') || !isObject(value)) continue;
        const description = value['description'];
        descriptions.set(key.slice(1), typeof description === 'string' ? description : null);
      } else if (typeof value === 'string') {
        try {
          texts.set(key, readArbMessage(value, formatted.get(key)));
        } catch (error) {
          throw new Error(`${file}: "${key}": ${(error as Error).message}`);
        }
      } else {
        throw new Error(`${file}: "${key}" is ${value === null ? 'null' : typeof value}, not text`);
      }
    }
    input.texts.set(language, texts);
    input.descriptions.set(language, descriptions);
  }
  return input;
}

/** Reads `path` in `format`; throws a one-line reason for input that is not in the format's shape. */
export function readPushInput(format: 'json' | 'vue-i18n' | 'i18next' | 'flutter', path: string): NestedInput | ArbInput {
  switch (format) {
    case 'json':
      return readJsonDocument(path);
    case 'vue-i18n':
      return readVueI18n(path);
    case 'i18next':
      return readI18next(path);
    case 'flutter':
      return readFlutter(path);
  }
}
