/**
 * Reading a large import body lets other requests run between its languages (json and vue-i18n):
 * read in one piece, 100,000 entries × 10 languages held every other request for ~2.5 s.
 */
import { describe, expect, it } from 'vitest';
import { readJsonImport } from '../../src/imports/formats/json-import.js';
import { readVueI18nImport } from '../../src/imports/formats/vue-i18n-import.js';

const body = {
  en: { app: { title: 'Title', greeting: 'Hello {name}' } },
  de: { app: { title: 'Titel', greeting: 'Hallo {name}' } },
  fr: { app: { title: 'Titre', greeting: 'Bonjour {name}' } },
};

/** How many turns of the event loop pass before `reading` settles. */
async function turnsUntil(reading: Promise<unknown>): Promise<number> {
  let settled = false;
  void reading.then(() => (settled = true));
  let turns = 0;
  while (!settled) {
    await new Promise((resolve) => setImmediate(resolve));
    turns += 1;
  }
  return turns;
}

describe('reading an import a language at a time', () => {
  for (const [format, read] of [
    ['json', readJsonImport],
    ['vue-i18n', readVueI18nImport],
  ] as const) {
    it(`${format}: other work runs between the languages, and every language is read`, async () => {
      const reading = read(body, 'en');
      expect(await turnsUntil(reading)).toBeGreaterThanOrEqual(3);
      const document = await reading;
      expect([...document.texts.keys()]).toEqual(['en', 'de', 'fr']);
      expect(document.texts.get('fr')!.size).toBe(2);
    });
  }
});
