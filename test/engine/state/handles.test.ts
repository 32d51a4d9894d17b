// Progress (R1) and continuation (C1) handles: shape, forgiving parsing, and a check that provably catches
// every single-symbol substitution and every adjacent transposition — shown both over the whole error space
// (the residue change does not depend on the payload) and on many random handles through parseHandle.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  CROCKFORD_ALPHABET,
  handleFromPayload,
  newHandle,
  parseHandle,
  type HandleKind,
} from '../../../src/engine/state/handles.js';

const PATTERN = {
  R1: /^R1-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}$/,
  C1: /^C1-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}$/,
};
const KINDS: HandleKind[] = ['R1', 'C1'];

/** The 10 body symbols (payload + check) of a canonical handle. */
function body(handle: string): string {
  return handle.slice(3).replace(/-/g, '');
}

function format(kind: string, symbols: string): string {
  return `${kind}-${symbols.slice(0, 4)}-${symbols.slice(4, 8)}-${symbols.slice(8)}`;
}

describe('handles', () => {
  it('makes fresh handles in the spec pattern that parse back to themselves', () => {
    const seen = new Set<string>();
    for (const kind of KINDS) {
      for (let i = 0; i < 500; i++) {
        const handle = newHandle(kind);
        assert.match(handle, PATTERN[kind]);
        assert.deepEqual(parseHandle(handle, kind), { ok: true, handle });
        seen.add(handle);
      }
    }
    assert.equal(seen.size, 1000, 'no repeats in 1000 draws of 40 random bits');
  });

  it('has valid published examples (the old spec examples fail their check)', () => {
    assert.equal(handleFromPayload('R1', '7KQ2M9XD'), 'R1-7KQ2-M9XD-P8');
    assert.equal(handleFromPayload('C1', '7KQ2M9XD'), 'C1-7KQ2-M9XD-2W');
    assert.equal(parseHandle('R1-7KQ2-M9XD-P8', 'R1').ok, true);
    assert.equal(parseHandle('C1-7KQ2-M9XD-2W', 'C1').ok, true);
    assert.equal((parseHandle('R1-7KQ2-M9XD-4F', 'R1') as { reason: string }).reason, 'checksum');
    assert.equal((parseHandle('C1-7KQ2-M9XD-4F', 'C1') as { reason: string }).reason, 'checksum');
  });

  it('over the whole error space: every substitution and adjacent swap changes the residue mod 1021', () => {
    // N (the 12-symbol handle read in base 32) changes by d·32^k for a substitution at weight 32^k, and by
    // d·31·32^k for swapping the symbols at weights 32^(k+1) and 32^k, where d = b − a ranges over ±1..±31.
    // These changes do not depend on the other symbols, so checking every (d, k) covers every handle.
    const pow = (k: number): number => {
      let r = 1;
      for (let i = 0; i < k; i++) r = (r * 32) % 1021;
      return r;
    };
    for (let k = 0; k < 12; k++) {
      for (let d = -31; d <= 31; d++) {
        if (d === 0) continue;
        assert.notEqual((((d * pow(k)) % 1021) + 1021) % 1021, 0, `substitution d=${d} at weight 32^${k}`);
        if (k < 11)
          assert.notEqual((((d * 31 * pow(k)) % 1021) + 1021) % 1021, 0, `swap d=${d} at weights 32^${k + 1},32^${k}`);
      }
    }
  });

  it('rejects every single substitution and every adjacent swap of random handles, at every position', () => {
    let checked = 0;
    for (let n = 0; n < 200; n++) {
      const kind = KINDS[n % 2] as HandleKind;
      const symbols = body(newHandle(kind));
      for (let i = 0; i < 10; i++) {
        for (const replacement of CROCKFORD_ALPHABET) {
          if (replacement === symbols[i]) continue;
          const mutated = symbols.slice(0, i) + replacement + symbols.slice(i + 1);
          const parsed = parseHandle(format(kind, mutated), kind);
          assert.equal(parsed.ok, false, `${format(kind, symbols)} → ${format(kind, mutated)}`);
          assert.equal((parsed as { reason: string }).reason, 'checksum');
          checked += 1;
        }
      }
      for (let i = 0; i < 9; i++) {
        if (symbols[i] === symbols[i + 1]) continue;
        const swapped = symbols.slice(0, i) + symbols[i + 1] + symbols[i] + symbols.slice(i + 2);
        const parsed = parseHandle(format(kind, swapped), kind);
        assert.equal(parsed.ok, false, `${format(kind, symbols)} → ${format(kind, swapped)}`);
        assert.equal((parsed as { reason: string }).reason, 'checksum');
        checked += 1;
      }
    }
    assert.ok(checked > 200 * 310, `${checked} corruptions rejected`);
  });

  it('binds the kind: an R1 body never validates as C1 and vice versa', () => {
    for (let n = 0; n < 2000; n++) {
      const handle = newHandle('R1');
      const relabelled = `C1${handle.slice(2)}`;
      assert.equal((parseHandle(relabelled, 'C1') as { reason: string }).reason, 'checksum', relabelled);
      const c = newHandle('C1');
      assert.equal((parseHandle(`R1${c.slice(2)}`, 'R1') as { reason: string }).reason, 'checksum');
    }
    const wrongKind = parseHandle(newHandle('C1'), 'R1');
    assert.equal(wrongKind.ok, false);
    assert.equal((wrongKind as { reason: string }).reason, 'kind');
    assert.match((wrongKind as { message: string }).message, /continuation handle/);
  });

  it('parses case-insensitively, with Crockford aliases, without dashes or with typographic ones', () => {
    // A payload with 1s and 0s so the aliases have something to stand for.
    const handle = handleFromPayload('R1', '10K1Q0Z1');
    const want = { ok: true, handle };
    assert.deepEqual(parseHandle(handle.toLowerCase(), 'R1'), want);
    assert.deepEqual(parseHandle(handle.replace(/-/g, ''), 'R1'), want);
    assert.deepEqual(parseHandle(`  ${handle}\n`, 'R1'), want);
    assert.deepEqual(parseHandle(handle.replace(/-/g, '\u2011'), 'R1'), want);
    assert.deepEqual(parseHandle(handle.replace(/-/g, '\u2013'), 'R1'), want);
    assert.deepEqual(parseHandle(handle.replace(/1/g, 'l').replace(/0/g, 'O'), 'R1'), want, 'l and O');
    assert.deepEqual(parseHandle(handle.replace(/1/g, 'I').replace(/0/g, 'o'), 'R1'), want, 'I and o');
    assert.deepEqual(parseHandle(`${handle.slice(0, 5)}-${handle.slice(5)}`, 'R1'), want, 'dashes anywhere');
  });

  it('calls anything else malformed', () => {
    const handle = newHandle('R1');
    for (const text of [
      '',
      'R1',
      'R1-',
      handle.slice(0, -1),
      `${handle}0`,
      handle.replace('-', ' '),
      `X1${handle.slice(2)}`,
      `R2${handle.slice(2)}`,
      handle.replace(/[0-9A-Z]$/, 'U'),
      'R1-ßßßß-ßßßß-ßß',
      handle.replace('-', '_'),
    ]) {
      const parsed = parseHandle(text, 'R1');
      assert.equal(parsed.ok, false, text);
      assert.equal((parsed as { reason: string }).reason, 'malformed', text);
      assert.match((parsed as { message: string }).message, /R1-XXXX-XXXX-XX/);
    }
    assert.throws(() => handleFromPayload('R1', 'SHORT'), RangeError);
    assert.throws(() => handleFromPayload('R1', 'UUUUUUUU'), RangeError);
  });
});
