/** The ordered migration list, compiled in (no file-system scanning, so dist/ and tests agree). */
import type { Migration, MigrationProvider } from 'kysely';
import * as initial from './001-initial.js';
import * as exportOrderIndex from './002-export-order-index.js';
import * as dailyUsage from './003-daily-usage.js';
import * as missingTranslations from './004-missing-translations.js';
import * as webSessions from './005-web-sessions.js';
import * as textsAsMessages from './006-texts-as-messages.js';
import * as importSupport from './007-import.js';
import * as entryChanges from './008-entry-changes.js';
import * as invitationProof from './009-invitation-proof.js';
import * as completeMissingLanguages from './010-complete-missing-languages.js';
import * as changeLog from './011-change-log.js';
import * as dropEntryChanges from './012-drop-entry-changes.js';
import * as importSummary from './013-import-summary.js';
import * as inlineChanges from './014-inline-changes.js';
import * as bundledChanges from './015-bundled-changes.js';
import * as reviewStates from './016-review-states.js';
import * as changeObjects from './017-change-objects.js';

const MIGRATIONS: Record<string, Migration> = {
  '001-initial': initial,
  '002-export-order-index': exportOrderIndex,
  '003-daily-usage': dailyUsage,
  '004-missing-translations': missingTranslations,
  '005-web-sessions': webSessions,
  '006-texts-as-messages': textsAsMessages,
  '007-import': importSupport,
  '008-entry-changes': entryChanges,
  '009-invitation-proof': invitationProof,
  '010-complete-missing-languages': completeMissingLanguages,
  '011-change-log': changeLog,
  '012-drop-entry-changes': dropEntryChanges,
  '013-import-summary': importSummary,
  '014-inline-changes': inlineChanges,
  '015-bundled-changes': bundledChanges,
  '016-review-states': reviewStates,
  '017-change-objects': changeObjects,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
