import { describe, expect, it } from 'vitest';
import { outcomeOf } from '../../src/http/plugins/export-metrics.js';
import { parsePrometheusText } from '../helpers/prometheus-text.js';

describe('the strict Prometheus text reader of the tests', () => {
  const valid = '# HELP x_total a counter\n# TYPE x_total counter\nx_total{route="/a/:id",q="say \\"hi\\""} 3\n';

  it('reads a valid exposition with escaped label values', () => {
    const family = parsePrometheusText(valid).get('x_total');
    expect(family).toMatchObject({ type: 'counter', help: 'a counter', samples: [{ name: 'x_total', labels: { route: '/a/:id', q: 'say "hi"' }, value: 3 }] });
  });

  it.each([
    ['a missing final newline', valid.trimEnd()],
    ['an unquoted label value', '# TYPE x gauge\nx{a=b} 1\n'],
    ['a value that is not a number', '# TYPE x gauge\nx 1,5\n'],
    ['a sample of no declared family', '# TYPE x gauge\ny 1\n'],
    ['a bucket without le', '# TYPE h histogram\nh_bucket{a="b"} 1\n'],
    ['a repeated label', '# TYPE x gauge\nx{a="1",a="2"} 1\n'],
    ['a TYPE given twice', '# TYPE x gauge\n# TYPE x gauge\n'],
  ])('refuses %s', (_case, text) => {
    expect(() => parsePrometheusText(text)).toThrow();
  });
});

describe('export outcomes', () => {
  it('calls a whole 200 body ok, a 200 body cut short aborted, and a broken body or a 5xx failed', () => {
    expect(outcomeOf(200, true, false)).toBe('ok');
    expect(outcomeOf(200, false, false)).toBe('aborted');
    expect(outcomeOf(200, false, true)).toBe('failed');
    expect(outcomeOf(500, true, false)).toBe('failed');
  });

  it('does not count 304s and client errors as exports', () => {
    expect(outcomeOf(304, true, false)).toBeUndefined();
    expect(outcomeOf(404, true, false)).toBeUndefined();
    expect(outcomeOf(409, true, false)).toBeUndefined();
  });
});
