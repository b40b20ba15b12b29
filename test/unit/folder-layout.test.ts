/**
 * The layouts of `tolk push` and the web app's Import dialog (src/imports/folder-layout.ts): for a format
 * and a folder's paths, every file read (as what member or language) or not read with why; and what
 * became of each file once the server's report is in (src/imports/files-account.ts).
 */
import { describe, expect, it } from 'vitest';
import { accountFiles } from '../../src/imports/files-account.js';
import { arbDirOf, findLayoutRoot, folderLayout, layoutRoots, readLayout } from '../../src/imports/folder-layout.js';

const reasons = (layout: { notRead: { path: string; why: string }[] }) => Object.fromEntries(layout.notRead.map((file) => [file.path, file.why]));

describe('json', () => {
  it('reads messages.json of a folder as the whole body; any other file not, with why', () => {
    const layout = readLayout('json', ['messages.json', 'other.json', 'README.md', '.tolk-pull.json']);
    expect(layout).toMatchObject({ body: 'document', read: [{ path: 'messages.json', as: '' }] });
    expect(reasons(layout)).toEqual({
      '.tolk-pull.json': 'a hidden file',
      'README.md': 'not a .json file',
      'other.json': expect.stringContaining('json reads messages.json'),
    });
  });

  it('reads a file given by itself whatever its name', () => {
    expect(readLayout('json', ['strings.json'], true)).toMatchObject({ body: 'document', read: [{ path: 'strings.json', as: '' }], notRead: [] });
  });
});

describe('vue-i18n', () => {
  it('reads each <lang>.json under its tag; a name that is no language tag, another file type, a sub-folder or a hidden file not', () => {
    const layout = readLayout('vue-i18n', ['en.json', 'pt_BR.json', 'de-DE.json', 'zh-Hant.json', 'index.ts', 'README.md', 'messages.json', 'old/fr.json', '.DS_Store', '.hidden/de.json']);
    expect(layout.body).toBe('languages');
    expect(layout.read).toEqual([
      { path: 'de-DE.json', as: 'de-DE' },
      { path: 'en.json', as: 'en' },
      { path: 'pt_BR.json', as: 'pt-BR' },
      { path: 'zh-Hant.json', as: 'zh-Hant' },
    ]);
    expect(reasons(layout)).toEqual({
      '.DS_Store': 'a hidden file',
      '.hidden/de.json': 'in a hidden folder',
      'README.md': 'not a .json file',
      'index.ts': 'not a .json file',
      'messages.json': '"messages" is no language tag: vue-i18n reads <lang>.json files',
      'old/fr.json': "in a sub-folder: vue-i18n reads <lang>.json files at the folder's top",
    });
  });

  it('reads a second file for one language not, naming the first', () => {
    const layout = readLayout('vue-i18n', ['pt-BR.json', 'pt_BR.json']);
    expect(layout.read).toEqual([{ path: 'pt-BR.json', as: 'pt-BR' }]);
    expect(reasons(layout)).toEqual({ 'pt_BR.json': 'a second file for pt-BR (pt-BR.json is read)' });
  });

  it('a file given by itself: one of all languages, or the one language its name is', () => {
    expect(readLayout('vue-i18n', ['all.json'], true)).toMatchObject({ body: 'document', read: [{ path: 'all.json', as: '' }] });
    expect(readLayout('vue-i18n', ['de.json'], true)).toMatchObject({ body: 'languages', read: [{ path: 'de.json', as: 'de' }] });
  });
});

describe('i18next', () => {
  it('reads <lng>/<ns>.json and namespaces in sub-folders as members of their own path; what is outside the language folders not', () => {
    const layout = readLayout('i18next', [
      'en/common.json',
      'en/components/dialog.json',
      'en/components/forms/input.json',
      'de/common.json',
      'de/README.md',
      'README.md',
      'index.ts',
      'en.json',
      'src/extra.json',
      'de/.backup.json',
    ]);
    expect(layout.body).toBe('archive');
    expect(layout.read.map((file) => [file.path, file.as])).toEqual([
      ['de/common.json', 'de/common.json'],
      ['en/common.json', 'en/common.json'],
      ['en/components/dialog.json', 'en/components/dialog.json'],
      ['en/components/forms/input.json', 'en/components/forms/input.json'],
    ]);
    expect(reasons(layout)).toEqual({
      'README.md': 'outside the language folders: i18next reads <lng>/<namespace>.json',
      'index.ts': 'outside the language folders: i18next reads <lng>/<namespace>.json',
      'en.json': 'outside the language folders: i18next reads <lng>/<namespace>.json',
      'de/README.md': 'not a .json file',
      'de/.backup.json': 'a hidden file',
      'src/extra.json': '"src" is no language tag: i18next reads <lng>/<namespace>.json',
    });
  });

  it('reads one <lang>.json per language as that language\'s default namespace', () => {
    const layout = readLayout('i18next', ['en.json', 'ru.json', 'config.json', 'LICENSE']);
    expect(layout.read).toEqual([
      { path: 'en.json', as: 'en/translation.json' },
      { path: 'ru.json', as: 'ru/translation.json' },
    ]);
    expect(Object.keys(reasons(layout)).sort()).toEqual(['LICENSE', 'config.json']);
  });

  it('finds the language folders in locales/ or public/locales/ of an app, and says every other file is outside them', () => {
    const paths = ['package.json', 'src/main.ts', 'public/index.html', 'public/locales/en/translation.json', 'public/locales/de/translation.json'];
    expect(findLayoutRoot('i18next', paths)).toBe('public/locales');
    const layout = folderLayout('i18next', paths);
    expect(layout.root).toBe('public/locales');
    expect(layout.read.map((file) => [file.path, file.as])).toEqual([
      ['public/locales/de/translation.json', 'de/translation.json'],
      ['public/locales/en/translation.json', 'en/translation.json'],
    ]);
    expect(reasons(layout)['src/main.ts']).toBe('outside public/locales/, where the i18next files are');
    expect(layout.notRead).toHaveLength(3);
  });
});

describe('flutter', () => {
  it('reads the .arb files at the folder\'s top; another file or an .arb in a sub-folder not', () => {
    const layout = readLayout('flutter', ['app_en.arb', 'app_de.arb', 'l10n.yaml', 'old/app_fr.arb', '._app_en.arb']);
    expect(layout.read).toEqual([
      { path: 'app_de.arb', as: 'app_de.arb' },
      { path: 'app_en.arb', as: 'app_en.arb' },
    ]);
    expect(reasons(layout)).toEqual({
      '._app_en.arb': 'a hidden file',
      'l10n.yaml': 'not an .arb file',
      'old/app_fr.arb': "in a sub-folder: gen-l10n reads the .arb files at the arb-dir's top",
    });
  });

  it("looks in l10n.yaml's arb-dir, then lib/l10n", () => {
    expect(arbDirOf('arb-dir: ./assets/i18n/ # the ARB files\ntemplate-arb-file: intl_en.arb\n')).toBe('assets/i18n');
    expect(arbDirOf("arb-dir: 'res/l10n'")).toBe('res/l10n');
    expect(arbDirOf('synthetic-package: false\n')).toBe('lib/l10n');
    expect(layoutRoots('flutter', 'assets/i18n')).toEqual(['', 'assets/i18n', 'lib/l10n']);
    const layout = folderLayout('flutter', ['l10n.yaml', 'assets/i18n/intl_en.arb', 'lib/l10n/app_en.arb'], { arbDir: 'assets/i18n' });
    expect(layout.read).toEqual([{ path: 'assets/i18n/intl_en.arb', as: 'intl_en.arb' }]);
  });
});

describe('what became of each file, from the report', () => {
  const layout = readLayout('i18next', ['en/common.json', 'de/common.json', 'fr/common.json', 'ru/common.json', 'README.md']);
  const report = {
    files: [
      { name: 'de/common.json', language: 'de', texts: 3 },
      { name: 'en/common.json', language: 'en', texts: 4 },
      { name: 'fr/common.json', language: 'fr', texts: 2 },
    ],
    totals: { files: 3 },
    refused: [
      { key: 'common.title', language: 'de', message: 'not an ICU message' },
      { key: 'fr/common.json', language: '', message: 'fr is not a language of the project (base en, translations de, ru): its 2 text(s) are not imported' },
      { key: 'ru/common.json', language: 'ru', message: 'not JSON: Unexpected token' },
    ],
    warnings: [],
  };

  it('lists the files read with their texts, and each other with why: the layout\'s, a language not taken, a file the server did not read', () => {
    const account = accountFiles(layout, report);
    expect(account.read).toEqual([
      { path: 'de/common.json', name: 'de/common.json', language: 'de', texts: 3 },
      { path: 'en/common.json', name: 'en/common.json', language: 'en', texts: 4 },
    ]);
    expect(account.notRead).toEqual([
      { path: 'README.md', why: 'outside the language folders: i18next reads <lng>/<namespace>.json' },
      { path: 'fr/common.json', language: 'fr', why: expect.stringContaining('not a language of the project') },
      { path: 'ru/common.json', why: 'not JSON: Unexpected token' },
    ]);
  });

  it('says nothing of files sent but missing from a list the server capped', () => {
    expect(accountFiles(layout, { ...report, totals: { files: 1500 } }).notRead.map((file) => file.path)).toEqual(['README.md', 'fr/common.json']);
  });

  it('maps the languages of a JSON body back to the file they came from', () => {
    const vue = readLayout('vue-i18n', ['en.json', 'xx.json', 'de.json']);
    const account = accountFiles(vue, {
      files: [{ name: 'en', language: 'en', texts: 5 }],
      refused: [{ key: '', language: 'de', message: 'the messages of a language must be an object, not an array' }],
      warnings: [],
    });
    expect(account.read).toEqual([{ path: 'en.json', name: 'en', language: 'en', texts: 5 }]);
    expect(account.notRead).toEqual([
      { path: 'xx.json', why: '"xx" is no language tag: vue-i18n reads <lang>.json files' },
      { path: 'de.json', why: 'the messages of a language must be an object, not an array' },
    ]);
    const json = readLayout('json', ['messages.json']);
    expect(accountFiles(json, { files: [{ name: 'en', language: 'en', texts: 1 }, { name: 'de', language: 'de', texts: 1 }], refused: [], warnings: [] }).read.map((file) => file.path)).toEqual(['messages.json', 'messages.json']);
  });
});
