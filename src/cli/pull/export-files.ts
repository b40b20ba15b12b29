/**
 * Turns a downloaded export into the files each framework expects in its directory:
 * - flutter: the archive's `app_<lang>.arb` files, as gen-l10n's `arb-dir` wants them;
 * - i18next: the archive's `<lang>/translation.json`, as i18next-fs-backend / http-backend load them
 *   (`loadPath: '<dir>/{{lng}}/{{ns}}.json'`);
 * - json: the whole nested document as `messages.json`;
 * - vue-i18n: one `<lang>.json` per language. That is the layout vue-i18n's own tooling
 *   (@intlify/unplugin-vue-i18n, `import de from './locales/de.json'`) and lazy loading of one locale
 *   at a time expect; `{ en, de }` built from the files is exactly the `messages` option.
 */
import type { PullFormat } from './options.js';
import { unpackTarGz, type PulledFile } from './unpack.js';

export const JSON_FILE = 'messages.json';

/** A language tag as a file name: letters, digits, `-` and `_` only, so it cannot name a path. */
const LANGUAGE_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

function perLanguageFiles(body: Buffer, pretty: boolean): PulledFile[] {
  let document: unknown;
  try {
    document = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new Error(`the server's vue-i18n export is not JSON: ${(error as Error).message}`);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new Error('the server\'s vue-i18n export is not an object keyed by language');
  }
  return Object.entries(document).map(([language, messages]) => {
    if (!LANGUAGE_FILE_NAME.test(language)) throw new Error(`refused language "${language}": not usable as a file name`);
    const text = pretty ? JSON.stringify(messages, null, 2) : JSON.stringify(messages);
    return { name: `${language}.json`, content: Buffer.from(text, 'utf8') };
  });
}

/** The files to write for an export body of the format. */
export async function exportFiles(format: PullFormat, body: Buffer, pretty: boolean): Promise<PulledFile[]> {
  switch (format) {
    case 'flutter':
    case 'i18next':
      return unpackTarGz(body);
    case 'json':
      return [{ name: JSON_FILE, content: body }];
    case 'vue-i18n':
      return perLanguageFiles(body, pretty);
  }
}
