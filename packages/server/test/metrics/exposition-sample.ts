/** Reading one sample of a Prometheus text exposition in a test. */

/** The value of `name{labels}` (labels as exposed, in order), or 0 when the exposition has no such sample. */
export function sample(exposition: string, name: string, labels: string): number {
  const line = exposition.split('\n').find((l) => l.startsWith(`${name}{${labels}} `));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}
