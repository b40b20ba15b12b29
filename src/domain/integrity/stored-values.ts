/**
 * Stored values the API's own rules would refuse: locale tags outside the catalog, malformed
 * language lists, technical names outside the contract's pattern and lengths, unknown member
 * roles, and lookup keys out of step with the text they are derived from.
 *
 * Deliberately allowed: a translation in a language the project no longer lists (removing a
 * language hides its translations but keeps them, contract), and names that differ only in case.
 */
import { problem, type IntegrityProblem } from '../../store/integrity/problem.js';
import * as rows from '../../store/integrity/stored-rows.js';
import type { Db } from '../../store/schema.js';
import { ROLES } from '../access/capabilities.js';
import { isKnownLocale } from '../../locales/locale-catalog.js';
import { parseMessage } from '../../messages/parse-message.js';
import { KEY_STYLES, nameProblem, TOP_LEVEL_GROUP_NAME, type KeyStyle, type NameKind, type NamePlace } from '../../names/technical-names.js';

/** Each project's key style; a stored style outside the list is a problem of its own, and checked as camelCase. */
type StyleOf = (projectId: string) => KeyStyle;

function nameBreaksRules(name: string, kind: NameKind, style: KeyStyle, place: NamePlace = {}): boolean {
  return nameProblem(name, kind, style, place) !== undefined;
}

/** Why a stored translation-language list is not one the API would have accepted; undefined if it is. */
function languageListFault(stored: string, baseLanguage: string): string | undefined {
  let list: unknown;
  try {
    list = JSON.parse(stored);
  } catch {
    return 'is not JSON';
  }
  if (!Array.isArray(list)) return 'is not a list';
  const unknown = list.filter((tag) => typeof tag !== 'string' || !isKnownLocale(tag));
  if (unknown.length > 0) return `holds tags outside the catalog: ${JSON.stringify(unknown)}`;
  if (new Set(list).size !== list.length) return 'names a language twice';
  if (list.includes(baseLanguage)) return `holds the base language ${baseLanguage}`;
  return undefined;
}

async function languageProblems(db: Db): Promise<IntegrityProblem[]> {
  const found: IntegrityProblem[] = [];
  for (const language of await rows.listTranslationLanguages(db)) {
    if (!isKnownLocale(language)) found.push(problem('unknown-locale', `translations in "${language}", a tag outside the catalog`));
  }
  for (const project of await rows.listProjectLanguages(db)) {
    if (!isKnownLocale(project.base_language)) {
      found.push(problem('unknown-locale', `project ${project.id}: base language "${project.base_language}" is outside the catalog`));
    }
    const fault = languageListFault(project.translation_languages, project.base_language);
    if (fault) found.push(problem('language-list', `project ${project.id}: translation languages ${project.translation_languages} ${fault}`));
  }
  return found;
}

async function entryProblems(db: Db, styleOf: StyleOf): Promise<IntegrityProblem[]> {
  const found: IntegrityProblem[] = [];
  for await (const batch of rows.entryTextBatches(db)) {
    for (const entry of batch) {
      if (nameBreaksRules(entry.technical_name, 'entry', styleOf(entry.project_id))) {
        found.push(problem('technical-name', `entry ${entry.id}: technical name "${entry.technical_name}" breaks the naming rules`));
      }
      // Search matches against the key: a stale key hides the entry from searches for its text.
      if (entry.base_term_key !== entry.base_term.toLowerCase()) {
        found.push(problem('derived-key', `entry ${entry.id}: its search key is not its base term lower-cased`));
      }
      const parsed = parseMessage(entry.base_term);
      if (!parsed.ok) found.push(problem('message-syntax', `entry ${entry.id}: its base term is not an ICU message (${parsed.error.reason})`));
    }
  }
  for await (const batch of rows.translationTextBatches(db)) {
    for (const translation of batch) {
      const parsed = parseMessage(translation.translation);
      if (!parsed.ok) {
        found.push(problem('message-syntax', `entry ${translation.entry_id}: its ${translation.language} translation is not an ICU message (${parsed.error.reason})`));
      }
    }
  }
  return found;
}

async function accountProblems(db: Db): Promise<IntegrityProblem[]> {
  const found: IntegrityProblem[] = [];
  for (const member of await rows.listMembersWithRoleOutside(db, ROLES)) {
    found.push(problem('member-role', `member ${member.user_id} of project ${member.project_id}: unknown role "${member.role}"`));
  }
  for (const user of await rows.listUserKeys(db)) {
    if (!isKnownLocale(user.locale)) found.push(problem('unknown-locale', `user ${user.id}: locale "${user.locale}" is outside the catalog`));
    // The e-mail key is what makes Ann@x.io and ann@x.io one user, and what sign-in looks up.
    if (user.email_key !== user.email.toLowerCase()) found.push(problem('derived-key', `user ${user.id}: its e-mail key is not its e-mail lower-cased`));
    // Whether an administrator vouched for the address decides who accepts invitations to it.
    if (user.created_by !== 'admin' && user.created_by !== 'sign-up') found.push(problem('account-origin', `user ${user.id}: made by "${user.created_by}", neither admin nor sign-up`));
  }
  for (const invitation of await rows.listInvitationKeys(db)) {
    if (!(ROLES as readonly string[]).includes(invitation.role)) found.push(problem('member-role', `invitation ${invitation.id} of project ${invitation.project_id}: unknown role "${invitation.role}"`));
    if (invitation.email_key !== invitation.email.toLowerCase()) found.push(problem('derived-key', `invitation ${invitation.id}: its e-mail key is not its e-mail lower-cased`));
  }
  return found;
}

/** Every stored value that breaks a rule the API enforces on the way in. */
export async function storedValueProblems(db: Db, groups: readonly rows.GroupLink[]): Promise<IntegrityProblem[]> {
  const found = await languageProblems(db);
  const styles = new Map<string, KeyStyle>();
  for (const project of await rows.listProjectLanguages(db)) {
    if ((KEY_STYLES as readonly string[]).includes(project.key_style)) styles.set(project.id, project.key_style as KeyStyle);
    else found.push(problem('technical-name', `project ${project.id}: key style "${project.key_style}" is neither camelCase nor free`));
  }
  const styleOf: StyleOf = (projectId) => styles.get(projectId) ?? 'camelCase';
  for (const group of groups) {
    // The top-level keys' group is the one group without a name.
    if (group.parent_id === null && group.technical_name === TOP_LEVEL_GROUP_NAME) continue;
    if (nameBreaksRules(group.technical_name, 'group', styleOf(group.project_id), { topLevel: group.parent_id === null })) {
      found.push(problem('technical-name', `group ${group.id}: technical name "${group.technical_name}" breaks the naming rules`));
    }
  }
  found.push(...(await entryProblems(db, styleOf)), ...(await accountProblems(db)));
  return found;
}
