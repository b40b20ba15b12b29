/** Every export format, in the order their routes are registered. */
import type { ExportFormat } from './format.js';
import { i18nextFormat } from './i18next/i18next-format.js';
import { jsonFormat } from './json/json-format.js';

export const EXPORT_FORMATS: readonly ExportFormat[] = [jsonFormat, i18nextFormat];
