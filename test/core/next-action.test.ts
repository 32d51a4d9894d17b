// Every registered error slug has a next action that renders with the values its template names.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ERROR_REGISTRY, ERROR_FAMILIES } from '../../generated/errors.js';
import { nextAction } from '../../src/core/next-action.js';
import type { DiscernErrorSlug } from '../../generated/types.js';

describe('next-action registry', () => {
  for (const [slug, registration] of Object.entries(ERROR_REGISTRY)) {
    it(`${slug} renders a complete next action`, () => {
      assert.ok(registration.family in ERROR_FAMILIES, `${slug} names a registered family`);
      const names = [...registration.nextAction.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] ?? '');
      const params = Object.fromEntries(names.map((n) => [n, `<${n}>`]));
      const text = nextAction(slug as DiscernErrorSlug, params as never);
      assert.doesNotMatch(text, /\{[a-z_]+\}/, 'no placeholder left');
      assert.ok(text.length >= 10);
    });
  }
});
