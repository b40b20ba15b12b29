/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4), for tests. The one
 * parser on npm (parse-prometheus-text-format 1.1.1) merges the series of a labelled histogram into
 * one and drops their _sum and _count, so tests check the grammar here, line by line.
 */
export interface Sample {
  /** the series name as written: `x_bucket`, `x_sum`, `x_count` for histograms */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: Sample[];
}

const METRIC_NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"';
const VALUE = '(NaN|[+-]Inf|[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?)';
const SAMPLE_LINE = new RegExp(`^(${METRIC_NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*,?)?\\})? ${VALUE}(?: -?\\d+)?$`);
const HELP_LINE = new RegExp(`^# HELP (${METRIC_NAME}) ((?:[^\\\\\\n]|\\\\[\\\\n])*)$`);
const TYPE_LINE = new RegExp(`^# TYPE (${METRIC_NAME}) (counter|gauge|histogram|summary|untyped)$`);
const SUFFIXES: Record<Family['type'], string[]> = { counter: [''], gauge: [''], untyped: [''], histogram: ['_bucket', '_sum', '_count'], summary: ['', '_sum', '_count'] };

const unescape = (value: string) => value.replace(/\\(.)/g, (_, char: string) => (char === 'n' ? '\n' : char));

function labelsOf(text: string | undefined): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [, name, value] of (text ?? '').matchAll(new RegExp(LABEL, 'g'))) {
    if (name! in labels) throw new Error(`label ${name} repeated`);
    labels[name!] = unescape(value!);
  }
  return labels;
}

/** Parses an exposition; throws on the first line that breaks the grammar or belongs to no declared family. */
export function parsePrometheusText(text: string): Map<string, Family> {
  if (!text.endsWith('\n')) throw new Error('the exposition must end with a newline');
  const families = new Map<string, Family>();
  const helps = new Map<string, string>();
  for (const line of text.slice(0, -1).split('\n')) {
    const help = HELP_LINE.exec(line);
    const type = TYPE_LINE.exec(line);
    if (help) helps.set(help[1]!, unescape(help[2]!));
    else if (type) {
      if (families.has(type[1]!)) throw new Error(`TYPE of ${type[1]} given twice`);
      families.set(type[1]!, { name: type[1]!, type: type[2] as Family['type'], help: helps.get(type[1]!) ?? '', samples: [] });
    } else if (line.startsWith('#') || line === '') continue;
    else {
      const sample = SAMPLE_LINE.exec(line);
      if (!sample) throw new Error(`not a valid sample line: ${line}`);
      const name = sample[1]!;
      const owner = [...families.values()].find((family) => SUFFIXES[family.type].some((suffix) => family.name + suffix === name));
      if (!owner) throw new Error(`sample ${name} belongs to no declared family`);
      const labels = labelsOf(sample[2]);
      if (name === `${owner.name}_bucket` && labels.le === undefined) throw new Error(`bucket without le: ${line}`);
      owner.samples.push({ name, labels, value: Number(sample.at(-1)) });
    }
  }
  return families;
}
