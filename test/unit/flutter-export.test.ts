import { describe, it, expect } from 'vitest';
import { findKeyCollisions, flutterKey } from '../../src/exports/flutter/flutter-key.js';
import { arbEnd, arbFileName, arbHead, arbLocale, arbMessage, fallbackLanguages } from '../../src/exports/flutter/arb-file.js';
import type { ArbMessage } from '../../src/exports/flutter/types.js';

/** A whole file from its pieces, as the export writes it. */
const arbText = (tag: string, messages: readonly ArbMessage[], isTemplate: boolean, pretty: boolean): string =>
  arbHead(tag, pretty) + messages.map((message) => arbMessage(message, isTemplate, pretty)).join('') + arbEnd(pretty);

/** The file as gen-l10n reads it: the compact text, parsed. */
const arbDocument = (tag: string, messages: ArbMessage[], isTemplate: boolean): Record<string, unknown> =>
  JSON.parse(arbText(tag, messages, isTemplate, false)) as Record<string, unknown>;

describe('flutterKey', () => {
  it('joins the group path and entry name in lowerCamel', () => {
    expect(flutterKey(['auth', 'loginForm', 'submitButton'])).toBe('authLoginFormSubmitButton');
    expect(flutterKey(['auth', 'loginForm', 'submit'])).toBe('authLoginFormSubmit');
    expect(flutterKey(['home', 'v2', 'title'])).toBe('homeV2Title');
    expect(flutterKey(['welcome'])).toBe('welcome');
  });

  it('joins free-style names the same way', () => {
    expect(flutterKey(['home', 'app_title'])).toBe('homeApp_title');
    expect(flutterKey(['ok'])).toBe('ok');
  });

  it('refuses an empty path', () => expect(() => flutterKey([])).toThrow());
});

describe('findKeyCollisions: keys gen-l10n cannot take', () => {
  it.each([[['Auth', 'title']], [['1auth']], [['auth', 'tĩtle']], [['user-menu', 'title']]])('names the path %j as no Dart identifier', (path) => {
    const [collision] = findKeyCollisions([path]);
    expect(collision).toMatchObject({ kind: 'invalid', paths: [path.join('.')] });
    expect(collision?.message).toContain('no Dart identifier');
  });
});

describe('findKeyCollisions', () => {
  it('names both dotted paths when two paths give the same key', () => {
    const collisions = findKeyCollisions([['auth', 'loginTitle'], ['auth', 'logout'], ['authLogin', 'title']]);
    expect(collisions).toHaveLength(1);
    expect(collisions[0]).toMatchObject({ key: 'authLoginTitle', kind: 'duplicate', paths: ['auth.loginTitle', 'authLogin.title'] });
    expect(collisions[0]?.message).toContain('"auth.loginTitle" and "authLogin.title" both become the Flutter key "authLoginTitle"');
  });

  it('lists every path when more than two share a key', () => {
    const [collision] = findKeyCollisions(new Set([['a', 'bC', 'dddd'], ['aB', 'cDddd'], ['aBC', 'dddd']]));
    expect(collision?.message).toContain('"a.bC.dddd", "aB.cDddd" and "aBC.dddd" all become the Flutter key "aBCDddd"');
  });

  it('finds nothing in distinct keys or in one path listed twice', () => {
    expect(findKeyCollisions([['auth', 'title'], ['auth', 'subtitle'], ['auth', 'title']])).toEqual([]);
    expect(findKeyCollisions([['locale', 'names'], ['ofTheDay'], ['delegates']])).toEqual([]);
  });

  it.each([
    ['localeName', ['locale', 'name']],
    ['delegate', ['delegate']],
    ['supportedLocales', ['supported', 'locales']],
    ['localizationsDelegates', ['localizations', 'delegates']],
    ['of', ['of']],
    ['hashCode', ['hash', 'code']],
    ['runtimeType', ['runtime', 'type']],
    ['toString', ['to', 'string']],
    ['noSuchMethod', ['no', 'such', 'method']],
  ])('refuses %s, a member of the generated Localizations class', (key, path) => {
    const collisions = findKeyCollisions([path, ['auth', 'title']]);
    expect(collisions).toHaveLength(1);
    expect(collisions[0]).toMatchObject({ key, kind: 'reserved', paths: [path.join('.')] });
    expect(collisions[0]?.message).toContain(`"${path.join('.')}" becomes the Flutter key "${key}"`);
    expect(collisions[0]?.message).toContain('the generated Localizations class already has');
    expect(collisions[0]?.message).toContain('would not compile');
  });

  it('reports a shared key that is also reserved both ways', () => {
    const kinds = findKeyCollisions([['locale', 'name'], ['localeName']]).map((c) => c.kind);
    expect(kinds).toEqual(['duplicate', 'reserved']);
  });

  it('refuses a one-part key that is a Dart reserved word', () => {
    const [collision] = findKeyCollisions([['true'], ['switch', 'label']]);
    expect(collision).toMatchObject({ key: 'true', kind: 'reserved' });
    expect(collision?.message).toContain('Dart reserved word');
  });
});

describe('ARB file names and locales', () => {
  it.each([['pt-BR', 'pt_BR'], ['es-419', 'es_419'], ['en', 'en'], ['fil', 'fil'], ['en-001', 'en_001']])(
    '%s is written as %s, in the file name and in @@locale alike',
    (tag, locale) => {
      expect(arbLocale(tag)).toBe(locale);
      expect(arbFileName(tag)).toBe(`app_${locale}.arb`);
      expect(arbDocument(tag, [], true)['@@locale']).toBe(locale);
    },
  );

  it.each(['pt_BR', '', '../x', 'pt-', 'pt BR'])('refuses %j, which is no catalog tag', (tag) => {
    expect(() => arbFileName(tag)).toThrow();
  });
});

describe('fallbackLanguages', () => {
  it('adds the bare language for a regional tag that lacks it, using the regional texts', () => {
    expect(fallbackLanguages(['en', 'pt-BR'])).toEqual(new Map([['pt', 'pt-BR']]));
    expect(fallbackLanguages(['pt-BR'])).toEqual(new Map([['pt', 'pt-BR']]));
  });

  it('adds nothing when the language is there or no tag is regional', () => {
    expect(fallbackLanguages(['pt', 'pt-BR', 'pt-PT'])).toEqual(new Map());
    expect(fallbackLanguages(['en', 'de', 'fil'])).toEqual(new Map());
  });

  it('picks the first region in code-unit order, whatever order the tags come in', () => {
    const expected = new Map([['en', 'en-GB'], ['es', 'es-419']]);
    expect([...fallbackLanguages(['es-MX', 'fr', 'es-419', 'en-US', 'en-GB'])]).toEqual([...expected]);
    expect([...fallbackLanguages(['en-GB', 'es-419', 'en-US', 'fr', 'es-MX'])]).toEqual([...expected]);
  });
});

describe('arbDocument', () => {
  const messages: ArbMessage[] = [
    { key: 'authTitle', text: 'Sign in', description: 'Heading of the login page', placeholders: [] },
    { key: 'authGreeting', text: 'Hi {name}, {n, plural, one{1 new} other{{n} new}}', description: null,
      placeholders: [{ name: 'name', type: 'String' }, { name: 'n', type: 'num' }] },
    { key: 'authHostile', text: 'Ça 🎉 مرحبا 你好 "q" it\'s a\\b @ | % $\nend', description: '', placeholders: [] },
  ];

  it('writes the template with @key metadata right after each message, in the order given', () => {
    const document = arbDocument('en', messages, true);
    expect(Object.keys(document)).toEqual(['@@locale', 'authTitle', '@authTitle', 'authGreeting', '@authGreeting', 'authHostile', '@authHostile']);
    expect(document['@authTitle']).toEqual({ description: 'Heading of the login page' });
    expect(document['@authGreeting']).toEqual({ placeholders: { name: { type: 'String' }, n: { type: 'num' } } });
    expect(document['@authHostile']).toEqual({ description: '' });
  });

  it('writes translations without metadata, keeping every text exact through JSON', () => {
    const document = arbDocument('pt-BR', messages, false);
    expect(Object.keys(document)).toEqual(['@@locale', 'authTitle', 'authGreeting', 'authHostile']);
    const reread = JSON.parse(JSON.stringify(document)) as Record<string, unknown>;
    for (const { key, text } of messages) expect(reread[key]).toBe(text);
  });

  it('makes the fallback file a copy of the regional texts under the bare locale', () => {
    const [[language, regional]] = [...fallbackLanguages(['en', 'pt-BR'])] as [[string, string]];
    const fallback = arbDocument(language, messages, false);
    expect(arbFileName(language)).toBe('app_pt.arb');
    expect({ ...fallback, '@@locale': 'pt_BR' }).toEqual(arbDocument(regional, messages, false));
  });

  it('writes exactly what JSON.stringify writes, compact and indented', () => {
    for (const isTemplate of [true, false]) {
      const document = arbDocument('en', messages, isTemplate);
      expect(arbText('en', messages, isTemplate, false)).toBe(JSON.stringify(document));
      expect(arbText('en', messages, isTemplate, true)).toBe(JSON.stringify(document, null, 2));
    }
    expect(arbText('en', [], true, true)).toBe(JSON.stringify({ '@@locale': 'en' }, null, 2));
  });

  it('never gets a repeated key: the export refuses it first, without mistaking Object members for repeats', () => {
    expect(findKeyCollisions([['auth', 'title'], ['authTitle']]).map((c) => c.kind)).toEqual(['duplicate']);
    expect(findKeyCollisions([['toString'], ['constructor']]).filter((c) => c.kind === 'duplicate')).toEqual([]);
  });
});
