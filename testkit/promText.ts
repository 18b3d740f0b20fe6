/**
 * A strict parser of Prometheus's text exposition format (version 0.0.4), for tests: every line must
 * be a HELP, a TYPE, a comment, or a sample of a declared family, with valid names, label sets and
 * values; anything else throws, naming the line.
 */
export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface PromFamily {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: PromSample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/** As Prometheus reads a value (Go's ParseFloat): NaN and infinities in any case ('Nan' from prom-client). */
function parseValue(text: string, line: number): number {
  const lower = text.toLowerCase();
  if (lower === '+inf' || lower === 'inf' || lower === '+infinity' || lower === 'infinity') {
    return Number.POSITIVE_INFINITY;
  }
  if (lower === '-inf' || lower === '-infinity') return Number.NEGATIVE_INFINITY;
  if (lower === 'nan') return Number.NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text))
    throw new Error(`line ${line}: bad value '${text}'`);
  return Number(text);
}

/** The label set `{a="x",b="y"}` starting at `text[0]`; returns the labels and the rest of the line. */
function parseLabels(text: string, line: number): { labels: Record<string, string>; rest: string } {
  const labels: Record<string, string> = {};
  let i = 1;
  for (;;) {
    if (text[i] === '}') return { labels, rest: text.slice(i + 1) };
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new Error(`line ${line}: label without '='`);
    const name = text.slice(i, eq);
    if (!LABEL_NAME.test(name)) throw new Error(`line ${line}: bad label name '${name}'`);
    if (name in labels) throw new Error(`line ${line}: label '${name}' twice`);
    if (text[eq + 1] !== '"') throw new Error(`line ${line}: label '${name}' value not quoted`);
    let value = '';
    let j = eq + 2;
    for (;;) {
      const ch = text[j];
      if (ch === undefined) throw new Error(`line ${line}: unterminated label value`);
      if (ch === '"') break;
      if (ch === '\\') {
        const next = text[j + 1];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new Error(`line ${line}: bad escape '\\${next}'`);
        j += 2;
        continue;
      }
      value += ch;
      j += 1;
    }
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i += 1;
    else if (text[i] !== '}') throw new Error(`line ${line}: expected ',' or '}' after a label`);
  }
}

/** The family a sample name belongs to: itself, or a histogram's or summary's parent. */
function familyOf(name: string, families: Map<string, PromFamily>): PromFamily | undefined {
  const own = families.get(name);
  if (own) return own;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!name.endsWith(suffix)) continue;
    const parent = families.get(name.slice(0, -suffix.length));
    if (parent && (parent.type === 'histogram' || (parent.type === 'summary' && suffix !== '_bucket'))) {
      return parent;
    }
  }
  return undefined;
}

export function parsePrometheusText(text: string): Map<string, PromFamily> {
  const families = new Map<string, PromFamily>();
  if (text.length > 0 && !text.endsWith('\n')) throw new Error('the exposition must end with a newline');
  const lines = text.split('\n').slice(0, -1);
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    if (raw.startsWith('#')) {
      const match = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(raw);
      if (!match) return; // a plain comment
      const [, kind, name = '', rest = ''] = match;
      if (!METRIC_NAME.test(name)) throw new Error(`line ${line}: bad metric name '${name}'`);
      const family = families.get(name) ?? { name, type: 'untyped' as const, help: '', samples: [] };
      if (kind === 'TYPE') {
        if (!TYPES.has(rest)) throw new Error(`line ${line}: unknown type '${rest}'`);
        if (family.samples.length > 0) throw new Error(`line ${line}: TYPE after samples of '${name}'`);
        family.type = rest as PromFamily['type'];
      } else family.help = rest;
      families.set(name, family);
      return;
    }
    const nameMatch = /^([a-zA-Z_:][a-zA-Z0-9_:]*)/.exec(raw);
    if (!nameMatch) throw new Error(`line ${line}: not a sample: '${raw}'`);
    const name = nameMatch[1]!;
    let rest = raw.slice(name.length);
    let labels: Record<string, string> = {};
    if (rest.startsWith('{')) ({ labels, rest } = parseLabels(rest, line));
    const parts = rest.trim().split(/\s+/);
    if (!rest.startsWith(' ') || parts.length < 1 || parts.length > 2) {
      throw new Error(`line ${line}: expected ' value [timestamp]' after '${name}'`);
    }
    const value = parseValue(parts[0]!, line);
    if (parts[1] !== undefined && !/^-?\d+$/.test(parts[1])) throw new Error(`line ${line}: bad timestamp`);
    const family = familyOf(name, families);
    if (!family) throw new Error(`line ${line}: sample '${name}' of no declared family`);
    if (name.endsWith('_bucket') && family.type === 'histogram' && labels.le === undefined) {
      throw new Error(`line ${line}: histogram bucket without 'le'`);
    }
    family.samples.push({ name, labels, value });
  });
  return families;
}

/** The value of the one sample named `name` whose labels include `labels`; 0 when there is none. */
export function sampleValue(
  families: Map<string, PromFamily>,
  name: string,
  labels: Record<string, string> = {},
): number {
  for (const family of families.values()) {
    for (const sample of family.samples) {
      if (sample.name !== name) continue;
      if (Object.entries(labels).every(([k, v]) => sample.labels[k] === v)) return sample.value;
    }
  }
  return 0;
}
