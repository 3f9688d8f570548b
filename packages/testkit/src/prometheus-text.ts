/** Reading Prometheus text exposition (what `/actuator/prometheus` answers) in tests. */

/** The value of one series, written as it appears (`name{label="v"}`), or undefined when absent. */
export function metricSample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Every metric family the text declares (`# TYPE <name> <type>`), with or without samples yet. */
export function metricFamilies(text: string): Map<string, string> {
  const families = new Map<string, string>();
  for (const match of text.matchAll(/^# TYPE (\S+) (\S+)$/gm))
    families.set(match[1] as string, match[2] as string);
  return families;
}
