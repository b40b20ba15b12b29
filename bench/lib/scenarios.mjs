/**
 * The scenarios of issue 5, in its order. Each is `{ id, connections, requests, note }`, `requests`
 * being autocannon's: a `setupRequest` picks a random target per request (entry, group, language).
 */
const EXPORT_FORMATS = ['json', 'vue-i18n', 'i18next', 'flutter'];

const pick = (items) => items[Math.floor(Math.random() * items.length)];
const get = (path) => ({ method: 'GET', path: `/api/v1${path}` });
const send = (method, path, body) => ({ method, path: `/api/v1${path}`, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

/** One autocannon request whose method, path, body and headers `make()` chooses anew each time. */
export const varying = (make) => [
  {
    setupRequest: (request) => {
      const chosen = make();
      return { ...request, body: undefined, ...chosen, headers: { ...request.headers, ...chosen.headers } };
    },
  },
];

/** The deep offset of the untranslated scenario: the last pages (~90 % of the language's untranslated entries). */
export function deepOffsets(large) {
  return Object.fromEntries(large.languages.map((language) => [language, Math.floor((large.untranslated[language] * 0.9) / 100) * 100]));
}

let upserts = 0;

/** The requests on the small project that several scenarios make. */
function smallProjectRequests(small) {
  return {
    pointRead: () => get(`/entries/${pick(small.entryIds)}`),
    listPage: () => get(`/groups/${pick(small.groupIds)}/entries?limit=100`),
    search: () => get(`/groups/${pick(small.groupIds)}/entries?limit=100&search=xyz`),
    upsert: () => send('PUT', `/entries/${pick(small.entryIds)}/translations`, { language: pick(small.languages), translation: `Bench text ${(upserts += 1)}` }),
    exportOf: (format) => get(`/projects/${small.projectId}/export/${format}`),
  };
}

/** The mixed workload on the small project (also what `fleet-mixed` sends to a fleet, bench/lib/fleet.mjs). */
export function mixedScenario(small, id = 'mixed') {
  const { pointRead, listPage, search, upsert, exportOf } = smallProjectRequests(small);
  return {
    id,
    connections: 50,
    requests: varying(() => {
      const roll = Math.random();
      if (roll < 0.4) return pointRead();
      if (roll < 0.64) return listPage();
      if (roll < 0.8) return search();
      if (roll < 0.95) return upsert();
      return exportOf(pick(EXPORT_FORMATS));
    }),
    note: '80 % reads (point, page, search), 15 % upserts, 5 % exports; small project',
  };
}

/** Builds every scenario over the seeded data; `tag` keeps created names unique across runs of one store. */
export function buildScenarios({ small, large, creates, tag }) {
  let sequence = 0;
  const deep = deepOffsets(large);
  const someDeep = Math.min(...Object.values(deep));
  const untranslated = (offset) => () => {
    const language = pick(large.languages);
    return get(`/projects/${large.projectId}/entries/untranslated?languageCode=${language}&limit=100&offset=${offset(language)}`);
  };
  const { pointRead, listPage, upsert, exportOf } = smallProjectRequests(small);

  return [
    { id: 'point-read', connections: 10, requests: varying(pointRead), note: 'GET /entries/{id}, random of 2,000 (base + 2 translations)' },
    { id: 'list-page', connections: 10, requests: varying(listPage), note: 'GET /groups/{id}/entries?limit=100, groups of 500' },
    {
      id: 'search',
      connections: 10,
      requests: varying(() => get(`/groups/${pick(large.leafGroupIds)}/entries?limit=100&search=xyz`)),
      note: 'search=xyz in a random leaf group of the large project',
    },
    { id: 'untranslated', connections: 10, requests: varying(untranslated(() => 0)), note: 'large project, random language, offset 0' },
    {
      id: 'untranslated-deep',
      connections: 10,
      requests: varying(untranslated((language) => deep[language])),
      note: `large project, random language, offset ≥ ${someDeep.toLocaleString('en')}`,
    },
    { id: 'write-upsert', connections: 10, requests: varying(upsert), note: 'PUT /entries/{id}/translations, random entry × language' },
    {
      id: 'history-entry-page',
      connections: 10,
      requests: [get(`/projects/${small.projectId}/changes?entryId=${small.historyEntryId}&limit=100`)],
      note: "GET …/changes?entryId=, the newest 100 of an entry's 1,000+ changes",
    },
    {
      id: 'concurrent-create',
      connections: 50,
      requests: varying(() =>
        send('POST', `/groups/${pick(creates.groupIds)}/entries`, { technicalName: `bench${tag}n${(sequence += 1)}`, baseTerm: `Created by the bench ${sequence}` }),
      ),
      note: 'POST /groups/{id}/entries, unique names, 5 groups of one project',
    },
    ...EXPORT_FORMATS.map((format) => ({ id: `export-${format}`, connections: 10, requests: [exportOf(format)], note: `GET …/export/${format}, small project` })),
    mixedScenario(small),
  ];
}

/** The ceiling: the bare server's fixed body at 10 connections. */
export const BARE_SCENARIO = { id: 'bare', connections: 10, requests: [{ method: 'GET', path: '/' }], note: 'bare node:http' };
