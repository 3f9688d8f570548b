/**
 * confbus_http_request_duration_seconds, counted here per (method, route) series and handed to prom-client's
 * exposition only when scraped. prom-client's own observe() validates and hashes the labels and looks its bucket
 * up by a number-turned-string key on every call: the largest single item of a cached request in the profile.
 * The exposition is the one prom-client's Histogram writes for the same observations (its get(), the JSON form,
 * reads getForPromString() too).
 */
import { Histogram, type Registry } from 'prom-client';

type Label = 'method' | 'route';

/** One (method, route): bucket counts (not cumulative; the last one is +Inf only), sum and count. */
export class DurationSeries {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<Label, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(seconds: number): void {
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && seconds > (bounds[i] as number)) i++;
    this.counts[i] = (this.counts[i] as number) + 1;
    this.sum += seconds;
    this.count++;
  }
}

interface ExposedValue {
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string>;
  value: number;
  metricName: string;
  /** prom-client's field for bucket values (null: exemplars are off). */
  exemplar?: null;
}

/**
 * A Histogram for the registry (name, help, type), whose observations go through seriesOf(): prom-client's own
 * observe() and timers would write where this exposition does not look, so nothing here calls them.
 */
export class RequestDurations extends Histogram<Label> {
  private readonly series = new Map<string, DurationSeries>();
  private readonly bounds: readonly number[];
  private readonly metricName: string;
  private readonly metricHelp: string;

  constructor(options: { name: string; help: string; buckets: number[]; registers: Registry[] }) {
    super({ ...options, labelNames: ['method', 'route'] });
    this.bounds = [...options.buckets].sort((a, b) => a - b);
    this.metricName = options.name;
    this.metricHelp = options.help;
  }

  /** The series of (method, route), kept: label sets are bounded (route patterns, never raw URLs). */
  seriesOf(method: string, route: string): DurationSeries {
    const key = `${method} ${route}`;
    let series = this.series.get(key);
    if (!series) this.series.set(key, (series = new DurationSeries({ method, route }, this.bounds)));
    return series;
  }

  /** The same exposition as prom-client's Histogram: cumulative buckets with `le`, then +Inf, _sum, _count. */
  getForPromString(): Promise<{
    name: string;
    help: string;
    type: 'histogram';
    values: ExposedValue[];
    aggregator: 'sum';
  }> {
    const name = this.metricName;
    const values: ExposedValue[] = [];
    for (const series of this.series.values()) {
      const sharedLabels = series.labels;
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += series.counts[i] as number;
        values.push({
          labels: { le },
          sharedLabels,
          value: cumulative,
          metricName: `${name}_bucket`,
          exemplar: null,
        });
      });
      values.push(
        {
          labels: { le: '+Inf' },
          sharedLabels,
          value: series.count,
          metricName: `${name}_bucket`,
          exemplar: null,
        },
        { labels: {}, sharedLabels, value: series.sum, metricName: `${name}_sum` },
        { labels: {}, sharedLabels, value: series.count, metricName: `${name}_count` },
      );
    }
    return Promise.resolve({ name, help: this.metricHelp, type: 'histogram', values, aggregator: 'sum' });
  }
}
