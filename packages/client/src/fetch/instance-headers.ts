/**
 * The instance's identity sent with every fetch and watch subscription (core's INSTANCE_ID_HEADER and
 * INSTANCE_TAGS_HEADER): a server running a staged rollout answers by it (docs/rollouts.md). The id must stay the
 * same across restarts, so it defaults to host name and port, not to the bus id (whose tail is random per start).
 */
import { hostname } from 'node:os';
import {
  INSTANCE_ID_HEADER,
  INSTANCE_TAGS_HEADER,
  formatInstanceTags,
  type SettingSpec,
  type Settings,
} from '@confbus/core';

const TAGS = 'confbus.client.tags';

export const instanceSettingSpecs: readonly SettingSpec[] = [
  {
    key: 'confbus.client.instance-id',
    type: 'string',
    description:
      "This instance's stable id, sent with every fetch (X-Confbus-Instance-Id) so a staged rollout keeps it in its wave across restarts (default: host name:server.port)",
  },
  {
    key: TAGS,
    type: 'string',
    isPrefix: true,
    description:
      'tags.<name>=<value>: sent with every fetch (X-Confbus-Instance-Tags), for rollout plans that pick instances by tag (zone, version)',
  },
];

/** The identity headers, computed once: the settings never change. */
export function readInstanceHeaders(settings: Settings): Readonly<Record<string, string>> {
  const port = settings.has('server.port') ? String(settings.number('server.port')) : '8080';
  const id = settings.optionalString('confbus.client.instance-id')?.trim() || `${hostname()}:${port}`;
  const tags: Record<string, string> = {};
  for (const key of settings.keysUnder(`${TAGS}.`)) tags[key.slice(TAGS.length + 1)] = settings.string(key);
  const headers: Record<string, string> = { [INSTANCE_ID_HEADER]: id };
  if (Object.keys(tags).length > 0) headers[INSTANCE_TAGS_HEADER] = formatInstanceTags(tags);
  return headers;
}
