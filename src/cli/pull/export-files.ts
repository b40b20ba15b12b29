/**
 * Turns a downloaded export into the files each framework expects in its directory:
 * - flutter: the archive's `app_<lang>.arb` files, as gen-l10n's `arb-dir` wants them;
 * - i18next: the archive's `<lang>/translation.json` (with --namespaces, `<lang>/<namespace>.json`), as
 *   i18next-fs-backend / http-backend load them (`loadPath: '<dir>/{{lng}}/{{ns}}.json'`);
 * - json: the whole nested document as `messages.json`;
 * - vue-i18n: one `<lang>.json` per language. That is the layout vue-i18n's own tooling
 *   (@intlify/unplugin-vue-i18n, `import de from './locales/de.json'`) and lazy loading of one locale
 *   at a time expect; `{ en, de }` built from the files is exactly the `messages` option.
 */
import { fileLayout, outsideLayout, type FileLayout } from './file-layout.js';
import type { PullOptions } from './options.js';
import { unpackTarGz, type PulledFile } from './unpack.js';

export const JSON_FILE = 'messages.json';

function perLanguageFiles(body: Buffer, pretty: boolean, layout: FileLayout): PulledFile[] {
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
    const name = `${language}.json`;
    const outside = outsideLayout(layout, name, 'file');
    if (outside) throw new Error(`refused "${name}": ${outside}`);
    const text = pretty ? JSON.stringify(messages, null, 2) : JSON.stringify(messages);
    return { name, content: Buffer.from(text, 'utf8') };
  });
}

/** The files to write for an export body of the format: the format's own names only (file-layout.ts). */
export async function exportFiles(body: Buffer, { format, pretty, namespaces, maxBytes }: Pick<PullOptions, 'format' | 'pretty' | 'namespaces' | 'maxBytes'>): Promise<PulledFile[]> {
  const layout = fileLayout(format, namespaces);
  switch (format) {
    case 'flutter':
    case 'i18next':
      return unpackTarGz(body, layout, maxBytes);
    case 'json':
      return [{ name: JSON_FILE, content: body }];
    case 'vue-i18n':
      return perLanguageFiles(body, pretty, layout);
  }
}
