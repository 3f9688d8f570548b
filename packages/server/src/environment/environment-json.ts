/**
 * An environment's JSON answer, plain or Spring's v2 with origins (core's environmentForJson: Spring's members
 * only). A small one is serialised in one go; a large one a few thousand properties per step (time-slice.ts), so
 * that serialising it never holds the event loop for long: one source of 25,000 keys with origins took 50–120 ms
 * in one turn on the loaded 2-core VM. Either way the text is writeJson's for the whole environment (Jackson's
 * numbers: see core's json-codec.ts): the same members, in the same order.
 */
import { type Environment, type FlatProperties, type PropertySource, writeJson } from '@confbus/core';
import { environmentForJson, propertySourceForJson } from '@confbus/core/internal';
import { TimeSlice } from '../support/time-slice.js';

/** Properties serialised per step. */
const STEP_PROPERTIES = 1024;

/** In one go; `withOrigins`: Spring's v2 media type, each value with its origin. */
export function environmentJson(environment: Environment, withOrigins = false): Buffer {
  return Buffer.from(writeJson(environmentForJson(environment, withOrigins)));
}

/**
 * The same text, built a few thousand properties per step. Each step's text is encoded at once and the parts are
 * copied into one buffer at the end: joining and encoding megabytes of text in one step held the loop too.
 */
export async function environmentJsonInSlices(
  environment: Environment,
  withOrigins = false,
): Promise<Buffer> {
  const slice = new TimeSlice();
  const [environmentStart, environmentEnd] = membersAround(
    environmentForJson({ ...environment, propertySources: [] }, false) as object,
    'propertySources',
  );
  const parts: Buffer[] = [Buffer.from(`${environmentStart}[`)];
  for (const [index, source] of environment.propertySources.entries()) {
    const [sourceStart, sourceEnd] = membersAround(propertySourceForJson(source, false, new Map()), 'source');
    parts.push(Buffer.from(`${index > 0 ? ',' : ''}${sourceStart}{`));
    parts.push(...(await sourceMembers(source, withOrigins, slice)));
    parts.push(Buffer.from(`}${sourceEnd}`));
  }
  parts.push(Buffer.from(`]${environmentEnd}`));
  return slice.run(() => Buffer.concat(parts));
}

/** A source's properties as JSON members (plain or with origins), encoded a step at a time. */
async function sourceMembers(
  source: PropertySource,
  withOrigins: boolean,
  slice: TimeSlice,
): Promise<Buffer[]> {
  // Listing the entries of a large source walks all of it: a step of its own.
  const entries = await slice.run(() => [...source.source]);
  const parts: Buffer[] = [];
  for (let start = 0; start < entries.length; start += STEP_PROPERTIES) {
    const part = await slice.run(() => {
      const properties: FlatProperties =
        entries.length > STEP_PROPERTIES
          ? new Map(entries.slice(start, start + STEP_PROPERTIES))
          : source.source;
      const text = writeJson(propertySourceForJson(source, withOrigins, properties).source);
      return text.length > 2 ? Buffer.from(`${parts.length > 0 ? ',' : ''}${text.slice(1, -1)}`) : undefined;
    });
    if (part !== undefined) parts.push(part);
  }
  return parts;
}

/**
 * An object's members as writeJson writes them (undefined ones left out), as the text before and after the
 * value of the member `name` (which the caller writes in between).
 */
function membersAround(object: object, name: string): [string, string] {
  const before: string[] = [];
  const after: string[] = [];
  let seen = false;
  for (const [key, value] of Object.entries(object)) {
    if (key === name) {
      seen = true;
      continue;
    }
    if (value === undefined) continue;
    (seen ? after : before).push(`${writeJson(key)}:${writeJson(value)}`);
  }
  return [
    `{${before.map((member) => `${member},`).join('')}${writeJson(name)}:`,
    `${after.map((member) => `,${member}`).join('')}}`,
  ];
}
