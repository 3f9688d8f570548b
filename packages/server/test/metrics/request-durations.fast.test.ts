// The request-duration histogram counts per series itself and is exposed only at scrape time: its text and
// JSON must be what prom-client's own Histogram gives for the same observations.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Histogram, Registry } from 'prom-client';
import { RequestDurations } from '../../src/metrics/request-durations.js';

describe('RequestDurations', () => {
  it("exposes the same text and JSON as prom-client's Histogram for the same observations", async () => {
    const options = { name: 'd_seconds', help: 'Durations', buckets: [0.001, 0.005, 0.01, 0.5, 5] };
    const ours = new Registry();
    const theirs = new Registry();
    const durations = new RequestDurations({ ...options, registers: [ours] });
    const reference = new Histogram({ ...options, labelNames: ['method', 'route'], registers: [theirs] });
    const observations: Array<[string, string, number]> = [
      ['GET', '/:name/:profiles', 0.0004],
      ['GET', '/:name/:profiles', 0.001], // on a bound: counted in that bucket
      ['GET', '/:name/:profiles', 0.2],
      ['POST', '/monitor', 0.003],
      ['GET', '/:name/:profiles', 7], // over every bound: +Inf only
    ];
    for (const [method, route, seconds] of observations) {
      durations.seriesOf(method, route).observe(seconds);
      reference.observe({ method, route }, seconds);
    }
    assert.equal(await ours.metrics(), await theirs.metrics());
    assert.deepEqual(
      JSON.parse(JSON.stringify(await ours.getMetricsAsJSON())),
      JSON.parse(JSON.stringify(await theirs.getMetricsAsJSON())),
    );
  });
});
