/**
 * Checks real responses against an OpenAPI 3.1 document: the operation exists, the status is
 * documented, the media type is one it lists, and a JSON body validates against its schema
 * (JSON Schema 2020-12, as OpenAPI 3.1 says). Remembers which operations were seen succeeding.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ApiResponse } from './server.js';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface MediaType {
  schema?: object;
}
interface Response {
  content?: Record<string, MediaType>;
}
export interface Operation {
  security?: Array<Record<string, string[]>>;
  responses: Record<string, Response & { description: string }>;
}
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Partial<Record<(typeof HTTP_METHODS)[number], Operation>>>;
  components: { schemas: Record<string, object>; securitySchemes: Record<string, object> };
}

/** `METHOD /template` of every operation of the document. */
export function operationsOf(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** `{ $ref: '#/components/schemas/X' }` as a standalone 2020-12 schema: the components become its $defs. */
const LOCAL_REF = /#\/components\/schemas\//g;
const withComponents = (schema: object, components: Record<string, object>) =>
  JSON.parse(JSON.stringify({ ...schema, $defs: components }).replace(LOCAL_REF, '#/$defs/'));

export class ResponseConformance {
  /** `METHOD /template` → statuses seen */
  readonly seen = new Map<string, Set<number>>();
  private readonly ajv = new Ajv2020.default({ strict: false, allErrors: true });
  private readonly templates: Array<{ template: string; pattern: RegExp }>;

  constructor(readonly document: OpenApiDocument) {
    addFormats.default(this.ajv);
    // Literal segments before parameters: /members/accept is not /members/{userId}.
    this.templates = Object.keys(document.paths)
      .sort((a, b) => a.split('{').length - b.split('{').length)
      .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));
  }

  /** Problems of `response` to `method path` (a path under the server URL, query allowed); [] when it conforms. */
  problems(method: string, path: string, response: ApiResponse): string[] {
    const bare = path.split('?')[0] ?? path;
    const template = this.templates.find(({ template, pattern }) => pattern.test(bare) && this.document.paths[template]?.[lower(method)])?.template;
    if (!template) return [`${method} ${bare}: no such operation in the document`];
    const operation = `${method} ${template}`;
    if (!this.seen.has(operation)) this.seen.set(operation, new Set());
    this.seen.get(operation)!.add(response.status);
    const documented = this.document.paths[template]![lower(method)]!.responses[String(response.status)];
    if (!documented) return [`${operation}: status ${response.status} is not documented (${response.text.slice(0, 200)})`];
    if (!documented.content) return response.text === '' ? [] : [`${operation} ${response.status}: documented without a body, got ${response.text.slice(0, 100)}`];
    const mediaType = (response.headers.get('content-type') ?? '').replace(/;.*/, '');
    const media = documented.content[mediaType];
    if (!media) return [`${operation} ${response.status}: ${mediaType} is not one of ${Object.keys(documented.content).join(', ')}`];
    if (mediaType !== 'application/json' || !media.schema) return [];
    const validate = this.ajv.compile(withComponents(media.schema, this.document.components.schemas));
    if (validate(response.body)) return [];
    return [`${operation} ${response.status}: ${this.ajv.errorsText(validate.errors)} in ${response.text.slice(0, 300)}`];
  }

  /** Operations of the document never seen answering 2xx. */
  withoutSuccess(): string[] {
    return operationsOf(this.document).filter((operation) => ![...(this.seen.get(operation) ?? [])].some((status) => status < 300));
  }
}

const lower = (method: string) => method.toLowerCase() as (typeof HTTP_METHODS)[number];
