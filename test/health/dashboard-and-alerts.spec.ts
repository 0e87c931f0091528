/**
 * The Grafana dashboard and the Prometheus alert rules the chart ships (helm/switchboard/files/):
 * each is of the shape its consumer loads, and every expression in them is PromQL naming only
 * series Switchboard exports, as its metrics registry declares them.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { MetricsService } from '../../src/metrics/metrics.service';
import { metricNames } from './support/promql';

const FILES = resolve(__dirname, '../../helm/switchboard/files');
const HISTOGRAM_SERIES = /_(bucket|sum|count)$/;

interface Target {
  expr: string;
  refId: string;
}
interface Panel {
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: (Target & { datasource?: { uid: string } })[];
}
interface Rule {
  alert: string;
  expr: string;
  for: string;
  labels: { severity: string };
  annotations: { summary: string };
}

const dashboard = JSON.parse(readFileSync(`${FILES}/grafana-dashboard.json`, 'utf8')) as {
  title: string;
  uid: string;
  panels: Panel[];
  templating: { list: { name: string; type: string; query: string }[] };
};
const rules = parse(readFileSync(`${FILES}/prometheus-rules.yaml`, 'utf8')) as {
  groups: { name: string; rules: Rule[] }[];
};
const graphs = dashboard.panels.filter((panel) => panel.type !== 'row');
const expressions = [
  ...graphs.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({ where: `panel "${panel.title}"`, expr: target.expr })),
  ),
  ...rules.groups.flatMap((group) => group.rules.map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr }))),
];

/** What the registry exports: each metric's name, and for histograms and summaries their `_bucket`, `_sum` and `_count` series. */
function exportedSeries(): { exported(name: string): boolean; own: string[] } {
  const metrics = new MetricsService().registry.getMetricsAsArray();
  const byName = new Map(metrics.map((metric) => [metric.name, String(metric.type)]));
  const exported = (name: string) => {
    if (byName.has(name)) return true;
    const base = name.replace(HISTOGRAM_SERIES, '');
    return base !== name && ['histogram', 'summary'].includes(byName.get(base) ?? '');
  };
  // Switchboard's own series, not the process metrics prom-client adds (switchboard_process_*, switchboard_nodejs_*).
  const own = metrics.map((metric) => metric.name).filter((name) => !/^switchboard_(process|nodejs)_/.test(name));
  return { exported, own };
}

describe('the Grafana dashboard and the Prometheus alert rules', () => {
  const series = exportedSeries();

  it('is a Grafana dashboard whose panels query the Prometheus data source chosen in ${datasource}', () => {
    expect(dashboard.title).toBe('Switchboard');
    expect(dashboard.uid).toMatch(/^[a-z0-9-]{1,40}$/);
    expect(dashboard.templating.list).toContainEqual(
      expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' }),
    );
    expect(graphs.length).toBeGreaterThan(0);
    for (const panel of graphs) {
      expect({ panel: panel.title, datasource: panel.datasource }).toEqual({
        panel: panel.title,
        datasource: { type: 'prometheus', uid: '${datasource}' },
      });
      expect({ panel: panel.title, targets: panel.targets?.length }).toEqual({
        panel: panel.title,
        targets: expect.any(Number),
      });
      for (const target of panel.targets!)
        expect({ panel: panel.title, expr: target.expr.trim().length > 0, refId: target.refId }).toEqual({
          panel: panel.title,
          expr: true,
          refId: expect.stringMatching(/^[A-Z]$/),
        });
    }
  });

  it('has alert rules, each with an expression, a duration, a severity and a summary', () => {
    const all = rules.groups.flatMap((group) => group.rules);
    expect(all.length).toBeGreaterThan(0);
    for (const rule of all) {
      expect(rule).toEqual(
        expect.objectContaining({
          alert: expect.stringMatching(/^Switchboard[A-Za-z]+$/),
          expr: expect.any(String),
          for: expect.stringMatching(/^\d+[smh]$/),
          labels: expect.objectContaining({ severity: expect.stringMatching(/^(critical|warning)$/) }),
          annotations: expect.objectContaining({ summary: expect.any(String) }),
        }),
      );
    }
  });

  it.each(expressions)('$where queries only series Switchboard exports', ({ expr }) => {
    const unknown = metricNames(expr).filter((name) => !series.exported(name));
    expect(unknown).toEqual([]);
  });

  it('shows every series of Switchboard in a panel', () => {
    const shown = new Set(
      graphs.flatMap((panel) =>
        (panel.targets ?? []).flatMap((target) =>
          metricNames(target.expr).map((name) => name.replace(HISTOGRAM_SERIES, '')),
        ),
      ),
    );
    expect(series.own.filter((name) => !shown.has(name))).toEqual([]);
  });
});

describe('the PromQL reader the checks above rely on', () => {
  it('finds the metric names, and refuses what Prometheus would', () => {
    expect(
      metricNames(
        'histogram_quantile(0.95, sum by (le, queue) (rate(switchboard_queue_wait_seconds_bucket[$__rate_interval]))) > 30',
      ),
    ).toEqual(['switchboard_queue_wait_seconds_bucket']);
    expect(
      metricNames('max by (queue) (a{state="waiting"}) > 100 and max by (queue) (deriv(b{state="waiting"}[15m])) > 0'),
    ).toEqual(['a', 'b']);
    expect(() => metricNames('sum(rate(a[5m])')).toThrow(/unbalanced/);
    expect(() => metricNames('a{state=waiting}')).toThrow(/quoted label value/);
    expect(() => metricNames('rates(a[5m])')).toThrow(/unknown function rates/);
    expect(() => metricNames('rate(a[five])')).toThrow(/range duration/);
  });
});
