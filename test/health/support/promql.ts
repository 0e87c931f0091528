/**
 * Just enough of PromQL to check the expressions Switchboard ships (dashboard, alert rules): a
 * tokenizer and a structural pass that rejects what Prometheus would (unbalanced brackets, label
 * matchers that are not `name op "value"`, unknown functions, a range that is not a duration) and
 * returns the metric names the expression selects. Grafana's `$variables` are taken as durations.
 */
const FUNCTIONS = new Set([
  'abs',
  'absent',
  'absent_over_time',
  'avg_over_time',
  'ceil',
  'changes',
  'clamp',
  'clamp_max',
  'clamp_min',
  'count_over_time',
  'delta',
  'deriv',
  'exp',
  'floor',
  'histogram_quantile',
  'holt_winters',
  'idelta',
  'increase',
  'irate',
  'label_replace',
  'last_over_time',
  'ln',
  'max_over_time',
  'min_over_time',
  'predict_linear',
  'quantile_over_time',
  'rate',
  'resets',
  'round',
  'scalar',
  'sort',
  'sort_desc',
  'sqrt',
  'sum_over_time',
  'time',
  'timestamp',
  'vector',
]);
const AGGREGATIONS = new Set([
  'sum',
  'min',
  'max',
  'avg',
  'count',
  'stddev',
  'stdvar',
  'topk',
  'bottomk',
  'quantile',
  'count_values',
  'group',
]);
/** Keywords followed by a parenthesized list of label names. */
const LABEL_LISTS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);
const BINARY_KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset']);
const MATCH_OPERATORS = new Set(['=', '!=', '=~', '!~']);

type Token = { kind: 'ident' | 'number' | 'duration' | 'string' | 'op' | 'punct'; text: string };

const TOKEN =
  /\s*(?:("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|(\$\{?\w+\}?)|(\d+(?:\.\d+)?(?:ms|[smhdwy])(?:\d+(?:ms|[smhdwy]))*)|(\d+(?:\.\d+)?(?:e[+-]?\d+)?)|([a-zA-Z_:][a-zA-Z0-9_:]*)|(==|!=|>=|<=|=~|!~|[-+*/%^<>=])|([(){}[\],]))/y;

function tokenize(expr: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < expr.length) {
    if (/^\s*$/.test(expr.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(expr);
    if (!match) throw new Error(`cannot read "${expr.slice(at, at + 20)}" in: ${expr}`);
    const [, string, variable, duration, number, ident, op, punct] = match;
    if (string !== undefined) tokens.push({ kind: 'string', text: string });
    else if (variable !== undefined || duration !== undefined)
      tokens.push({ kind: 'duration', text: variable ?? duration });
    else if (number !== undefined) tokens.push({ kind: 'number', text: number });
    else if (ident !== undefined) tokens.push({ kind: 'ident', text: ident });
    else if (op !== undefined) tokens.push({ kind: 'op', text: op });
    else tokens.push({ kind: 'punct', text: punct });
  }
  return tokens;
}

/** The metric names `expr` selects; throws, naming the problem, when it is not a PromQL expression. */
export function metricNames(expr: string): string[] {
  const tokens = tokenize(expr);
  const names: string[] = [];
  const open: string[] = [];
  const fail = (why: string): never => {
    throw new Error(`${why} in: ${expr}`);
  };
  const expect = (index: number, test: (token: Token | undefined) => boolean, what: string) => {
    if (!test(tokens[index])) fail(`expected ${what} at "${tokens[index]?.text ?? 'the end'}"`);
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const next = tokens[i + 1];
    if (token.kind === 'punct') {
      if (token.text === '{') {
        // Label matchers: name op "value", separated by commas.
        let j = i + 1;
        while (tokens[j]?.text !== '}') {
          expect(j, (t) => t?.kind === 'ident', 'a label name');
          expect(j + 1, (t) => t !== undefined && MATCH_OPERATORS.has(t.text), 'a label match operator');
          expect(j + 2, (t) => t?.kind === 'string', 'a quoted label value');
          j += 3;
          if (tokens[j]?.text === ',') j++;
          else expect(j, (t) => t?.text === '}', '"," or "}"');
        }
        i = j;
      } else if (token.text === '[') {
        expect(i + 1, (t) => t?.kind === 'duration', 'a range duration');
        expect(i + 2, (t) => t?.text === ']', '"]"');
        i += 2;
      } else if (token.text === '(') open.push('(');
      else if (token.text === ')') {
        if (open.pop() !== '(') fail('unbalanced ")"');
      } else if (token.text !== ',') fail(`unexpected "${token.text}"`);
    } else if (token.kind === 'ident') {
      if (LABEL_LISTS.has(token.text)) {
        // A list of label names in parentheses; group_left and group_right may go without one.
        if (next?.text !== '(') {
          if (token.text.startsWith('group_')) continue;
          fail(`"${token.text}" without its label list`);
        }
        let j = i + 2;
        while (tokens[j]?.text !== ')') {
          expect(j, (t) => t?.kind === 'ident', 'a label name');
          j++;
          if (tokens[j]?.text === ',') j++;
        }
        i = j;
      } else if (BINARY_KEYWORDS.has(token.text)) {
        continue;
      } else if (AGGREGATIONS.has(token.text)) {
        expect(
          i + 1,
          (t) => t?.text === '(' || t?.text === 'by' || t?.text === 'without',
          `"(" or a grouping after ${token.text}`,
        );
      } else if (next?.text === '(') {
        if (!FUNCTIONS.has(token.text)) fail(`unknown function ${token.text}`);
      } else {
        names.push(token.text);
      }
    }
  }
  if (open.length > 0) fail('unbalanced "("');
  if (names.length === 0) fail('no metric selected');
  return names;
}
