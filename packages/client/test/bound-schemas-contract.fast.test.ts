/**
 * The contract a client publishes with its presence: its bound schemas (those that can say what they accept as
 * JSON Schema) placed at their prefixes; told again when a new binding is added.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { BoundSchemas } from '../src/snapshot/bound-schemas.js';

describe('BoundSchemas.contract', () => {
  it('is the bound schemas at their prefixes, and none when nothing bound can be converted', () => {
    const schemas = new BoundSchemas();
    assert.equal(schemas.contract(), undefined);
    schemas.add('plain', { parse: (value: unknown) => value });
    assert.equal(schemas.contract(), undefined, 'a parse() schema says nothing as JSON Schema');
    let told = 0;
    schemas.onAdded(() => told++);
    schemas.add('shop.pool', z.object({ size: z.number().int().min(1) }));
    assert.equal(told, 1);
    const contract = schemas.contract() as { properties: { shop: { properties: { pool: unknown } } } };
    assert.deepEqual(
      (contract.properties.shop.properties.pool as { properties: { size: { minimum: number } } }).properties
        .size.minimum,
      1,
    );
  });
});
