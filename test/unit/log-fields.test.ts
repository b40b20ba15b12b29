/** The log's before/after codec (store/content-writes/change-log.ts): a translation's default state is left out, and put back on reading. */
import { describe, expect, it } from 'vitest';
import { fieldsForLog, fieldsFromLog } from '../../src/store/content-writes/change-log.js';

describe("the change log's stored fields", () => {
  it("stores a translation's text alone while its state is the default, and reads it back whole", () => {
    const fields = { text: 'Hallo {name}', state: 'translated', outdated: false };
    expect(fieldsForLog('translation', fields)).toBe('{"text":"Hallo {name}"}');
    expect(fieldsFromLog('translation', fieldsForLog('translation', fields))).toEqual(fields);
  });

  it('keeps a state that is not the default, and reads rows stored whole (before the codec) the same', () => {
    const reviewed = { text: 'Hallo', state: 'reviewed', outdated: true };
    expect(fieldsFromLog('translation', fieldsForLog('translation', reviewed))).toEqual(reviewed);
    expect(fieldsFromLog('translation', JSON.stringify({ text: 'Hallo', state: 'translated', outdated: false }))).toEqual({ text: 'Hallo', state: 'translated', outdated: false });
  });

  it('stores other targets as they are, and absence as SQL null (never the text "null")', () => {
    const entry = { technicalName: 'title', baseTerm: 'Title', contextInfo: null, groupId: 'g1' };
    expect(fieldsFromLog('entry', fieldsForLog('entry', entry))).toEqual(entry);
    expect(fieldsForLog('translation', null)).toBeNull();
    expect(fieldsForLog('entry', undefined)).toBeNull();
    expect(fieldsFromLog('group', null)).toBeNull();
  });
});
