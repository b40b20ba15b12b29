/**
 * How each real app renders its own original files in its own framework, key by key: the calls the app
 * makes (its arguments as it passes them, and the same values by name for every other framework) and
 * what its framework renders for each. The reference the other frameworks' renderings are held to.
 */
import { readArbMessage } from '../../src/messages/flutter/read-flutter.js';
import { argumentsOf, COUNTS, PLURAL_SUFFIX, textAt, textFoundAt, type App, type FileKey } from './apps.js';
import { i18nextOf, renderArb, vueT } from './runtimes.js';

/** One rendering of a key: the arguments after the key as the app passes them to its own `t`, and the same values by name. */
export interface Call {
  own: unknown[];
  named: Record<string, unknown>;
}

export interface OwnRendering {
  /** The calls for a key in this language; undefined when the app's file holds no text for it here (not translated). */
  calls(key: FileKey): Call[] | undefined;
  /** What the app's framework renders from the original file for the call; undefined when it shows the key itself (a plural form the language's file lacks). */
  render(key: FileKey, call: Call): string | undefined;
}

const PLURAL_FORMS = ['zero', 'one', 'two', 'few', 'many', 'other'];

/** The renderer of the app's own framework over its original files of `language`. */
export async function ownRendering(app: App, language: string): Promise<OwnRendering> {
  const files = app.load(language);
  if (app.format === 'i18next') return ownI18next(app, language, files);
  if (app.format === 'vue-i18n') return ownVue(language, files['messages']!);
  return ownArb(language, files['arb']!);
}

/** i18next as the app sets it up (its separators, no HTML escaping), called `t(key, {...args, ns})` for each count. */
async function ownI18next(app: App, language: string, files: Record<string, Record<string, unknown>>): Promise<OwnRendering> {
  const i18n = await i18nextOf(language, files, { interpolation: { escapeValue: false }, ...app.i18next });
  // an imported name never ends in a plural suffix (keyStyle free refuses it), so a suffix is a plural form's
  const keyOf = (key: FileKey) => {
    const [, ...raw] = key.raws[0]!;
    return [...raw.slice(0, -1), raw.at(-1)!.replace(PLURAL_SUFFIX, '')].join(app.i18next?.keySeparator === false ? '' : '.');
  };
  return {
    calls(key) {
      // every form this language's file has (Russian has _few and _many where English has not)
      const paths = key.raws.flatMap(([namespace, ...raw]) => {
        const stem = raw.at(-1)!.replace(PLURAL_SUFFIX, '');
        const forms = stem === raw.at(-1) ? [stem] : PLURAL_FORMS.map((form) => `${stem}_${form}`);
        return forms.map((last) => [namespace!, ...raw.slice(0, -1), last]);
      });
      // as i18next finds them: `timeline.aria` nested in one language, one dotted key in another
      const texts = paths.map(([namespace, ...raw]) => textFoundAt(files[namespace!], raw.flatMap((name) => name.split('.')))).filter((text): text is string => !!text);
      if (texts.length === 0) return undefined;
      const namespace = key.raws[0]![0]!;
      return COUNTS.map((count) => {
        const named = argumentsOf(texts, count);
        return { own: [{ ...named, ns: namespace }], named };
      });
    },
    render(key, call) {
      // headlamp's keys are its English texts, so a rendering equal to the key is no sign of a missing one
      if (!i18n.exists(keyOf(key), call.own[0] as never)) return undefined;
      return i18n.t(keyOf(key), call.own[0] as never) as unknown as string;
    },
  };
}

/**
 * vue-i18n as the app sets it up (no pluralRules): a pipe message `t(key, args, n)` for each count, a
 * list message (`{0}`) with a list, else named arguments.
 */
function ownVue(language: string, messages: Record<string, unknown>): OwnRendering {
  const t = vueT(messages, language, false);
  const textOf = (key: FileKey) => textAt(messages, key.raws[0]!.slice(1));
  return {
    calls(key) {
      const text = textOf(key);
      if (!text) return undefined;
      // a list message gets as many values as its highest index asks for: `{3}` → 4
      const indexes = [...text.matchAll(/\{\s*(\d+)\s*\}/g)].map((match) => Number(match[1]));
      const list = indexes.length > 0 ? Array.from({ length: Math.max(...indexes) + 1 }, (_, i) => `‹${i}›`) : undefined;
      const pipe = text.includes('|');
      return (pipe ? COUNTS : [3]).map((n) => {
        const named = argumentsOf([text], n);
        return { own: pipe ? [list ?? named, n] : [list ?? named], named };
      });
    },
    render: (key, call) => t(key.raws[0]!.slice(1).join('.'), ...call.own),
  };
}

/** An ARB message as the Flutter app shows it, for each count. */
function ownArb(language: string, arb: Record<string, unknown>): OwnRendering {
  const textOf = (key: FileKey) => textAt(arb, key.names);
  return {
    calls(key) {
      const text = textOf(key);
      if (!text) return undefined;
      const message = readArbMessage(text, new Set(), false, language);
      return COUNTS.map((count) => ({ own: [], named: argumentsOf([message], count) }));
    },
    render: (key, call) => renderArb(textOf(key)!, language, call.named),
  };
}
