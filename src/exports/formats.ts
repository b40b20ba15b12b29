/** Every export format, in the order their routes are registered. */
import { flutterFormat } from './flutter/flutter-format.js';
import type { ExportFormat } from './format.js';
import { i18nextFormat } from './i18next/i18next-format.js';
import { jsonFormat } from './json/json-format.js';
import { vueI18nFormat } from './vue-i18n/vue-i18n-format.js';

export const EXPORT_FORMATS: readonly ExportFormat[] = [jsonFormat, vueI18nFormat, i18nextFormat, flutterFormat];
