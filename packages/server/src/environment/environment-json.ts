/**
 * An environment's JSON answer, plain or Spring's v2 with origins (core's environmentForJson: Spring's members
 * only). A small one is serialised in one go; a large one a few thousand properties per step (time-slice.ts), so
 * that serialising it never holds the event loop for long: one source of 25,000 keys with origins took 50–120 ms
 * in one turn on the loaded 2-core VM. Either way the text is writeJson's for the whole environment (Jackson's
 * numbers: see core's json-codec.ts): the same members, in the same order.
 */
import { type Environment, type FlatProperties, type PropertySource, writeJson } from '@confbus/core';
import { environmentForJson, propertySourceForJson, setFlatProperty } from '@confbus/core/internal';
import { TimeSlice } from '../support/time-slice.js';

/** Properties serialised per step. */
const STEP_PROPERTIES = 1024;

/** In one go; `withOrigins`: Spring's v2 media type, each value with its origin. */
export function environmentJson(environment: Environment, withOrigins = false): Buffer {
  return Buffer.from(writeJson(environmentForJson(environment, withOrigins)));
}

/** The same text, built a few thousand properties per step. */
export async function environmentJsonInSlices(
  environment: Environment,
  withOrigins = false,
): Promise<Buffer> {
  const slice = new TimeSlice();
  const sources: string[] = [];
  for (const source of environment.propertySources) {
    const text = await sourceJson(source, withOrigins, slice);
    sources.push(membersJson(propertySourceForJson(source, false, {}), { source: text }));
  }
  return Buffer.from(
    membersJson(environmentForJson({ ...environment, propertySources: [] }, false) as object, {
      propertySources: `[${sources.join(',')}]`,
    }),
  );
}

/** A source's properties as a JSON object, plain or with origins, built a step at a time. */
async function sourceJson(source: PropertySource, withOrigins: boolean, slice: TimeSlice): Promise<string> {
  const keys = Object.keys(source.source);
  const members: string[] = [];
  for (let start = 0; start < keys.length; start += STEP_PROPERTIES) {
    await slice.pause();
    let part: FlatProperties = source.source;
    if (keys.length > STEP_PROPERTIES) {
      part = {};
      for (const key of keys.slice(start, start + STEP_PROPERTIES))
        setFlatProperty(part, key, source.source[key] as FlatProperties[string]);
    }
    const text = writeJson(propertySourceForJson(source, withOrigins, part).source);
    if (text.length > 2) members.push(text.slice(1, -1));
  }
  return `{${members.join(',')}}`;
}

/**
 * An object's members as writeJson writes them (undefined ones left out), with the texts in `written`
 * standing for the members of those names.
 */
function membersJson(object: object, written: Readonly<Record<string, string>>): string {
  const members: string[] = [];
  for (const [key, value] of Object.entries(object)) {
    if (value === undefined && !Object.hasOwn(written, key)) continue;
    const text = Object.hasOwn(written, key) ? written[key] : writeJson(value);
    members.push(`${writeJson(key)}:${text}`);
  }
  return `{${members.join(',')}}`;
}
