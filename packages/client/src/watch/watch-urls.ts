/**
 * The watch URLs of a config server, made from its environment URL (fetch/environment-source.ts builds that,
 * with the prefix, the `(_)`-encoded label and the credentials already sorted out): `/{name}/{profiles}[/{label}]`
 * becomes `/-/watch/{name}/{profiles}[/{label}]` under the same base path, and acks go to `/-/watch/acks` there
 * (`/-/`: no application is named `-`, so the watch stream never takes an application's URL).
 */
export interface WatchUrls {
  readonly stream: URL;
  readonly acks: URL;
}

export function watchUrls(environmentUrl: URL, label: string | undefined): WatchUrls {
  const segments = environmentUrl.pathname.split('/');
  const tail = label === undefined ? 2 : 3;
  const base = segments.slice(0, segments.length - tail).join('/');
  const stream = new URL(environmentUrl);
  stream.pathname = `${base}/-/watch/${segments.slice(-tail).join('/')}`;
  const acks = new URL(environmentUrl);
  acks.pathname = `${base}/-/watch/acks`;
  return { stream, acks };
}
