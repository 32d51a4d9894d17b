// What a re-recorded fixture keeps and what it makes neutral: a second run of the same test must give the same
// bytes, so each thing that varies between runs is replaced, consistently, and nothing else is.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHandle } from '../../src/engine/state/handles.js';
import { neutralText } from '../helpers/neutral-result.js';

const options = { roots: ['/tmp/discern-repo-Ab12', '/private/tmp/discern-repo-Ab12'], repo: '/work/discern' };
const COMMIT = '3f9c2a7b1e0d4c5b6a798877665544332211aabb';
const OTHER = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';

describe('neutral results', () => {
  const cases: [name: string, given: string, expected: string][] = [
    [
      'the scratch checkout, real path first',
      '/private/tmp/discern-repo-Ab12/x and /tmp/discern-repo-Ab12/y',
      '/repo/x and /repo/y',
    ],
    ["discern's own checkout", 'see /work/discern/docs/a.md', 'see /discern/docs/a.md'],
    ['other temporary paths', 'log at /tmp/discern-out-9zq/test.log', 'log at /scratch/test.log'],
    [
      'clock times, in each shape',
      '2026-11-30T22:45:24.899Z 2026-11-30T22:48:48+00:00 2026-11-30T22-45-24-899Z',
      '2026-01-01T00:00:00.000Z 2026-01-01T00:00:00+00:00 2026-01-01T00-00-00-000Z',
    ],
    [
      'durations',
      '{"duration_s": 3, "waited_ms": 1250.5, "timeout_s": 45}',
      '{"duration_s": 0, "waited_ms": 0, "timeout_s": 45}',
    ],
    [
      'a commit and its abbreviations, another commit apart',
      `${COMMIT} ${COMMIT.slice(0, 12)} ${OTHER.slice(0, 7)} ${OTHER}`,
      '000001aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 000001aaaaaa 000002a 000002aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    ],
    [
      'ids of discern records, digits alone too',
      'P-b759df200576c5d5 S-c9b94e6b043a S-c9b94e6b043a S-429585774755',
      'P-f00001aaaaaaaaaa S-f00002aaaaaa S-f00002aaaaaa S-f00003aaaaaa',
    ],
    [
      'sizes of state files',
      '{"bytes": 223} 2 events, 230 bytes; 12 events',
      '{"bytes": 0} 2 events, 0 bytes; 12 events',
    ],
    [
      'process ids',
      'another done is running (pid 30795 since x) {"pid": 812}',
      'another done is running (pid 4242 since x) {"pid": 4242}',
    ],
    [
      'an abbreviation of digits alone still follows its id',
      `1234567890${'ab'.repeat(15)} 1234567890`,
      '000001aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 000001aaaa',
    ],
    [
      'a clock-named file and its process',
      '/c/2026-11-30T22-45-24-899Z-31031.json /o/2026-11-30T22-45-24-899Z-prepare-31620/a.log',
      '/c/2026-01-01T00-00-00-000Z-4242.json /o/2026-01-01T00-00-00-000Z-prepare-4242/a.log',
    ],
    [
      'compact and base-36 clock times',
      '20261201T211718937Z.jsonl EA1.mx572wn6.x',
      '20260101T000000000Z.jsonl EA1.00000000.x',
    ],
    [
      'base64url digests',
      'EP1.x.N4WEKkYmvzRtZW9gCuE5fCBXXg1Bi7alSkGN0QvhumA and EP1.x.N4WEKkYmvzRtZW9gCuE5fCBXXg1Bi7alSkGN0QvhumA',
      `EP1.x.B640001${'x'.repeat(36)} and EP1.x.B640001${'x'.repeat(36)}`,
    ],
    ['words and numbers that look like hex stay', 'deadbeef 12345678 facade', 'deadbeef 12345678 facade'],
  ];
  for (const [name, given, expected] of cases) {
    it(name, () => assert.equal(neutralText(given, options), expected));
  }

  it('handles become valid handles, one per handle, in order of appearance', () => {
    const out = neutralText('R1-XTBB-03T1-70 then C1-7KQ2-M9XD-4F then R1-XTBB-03T1-70', options);
    const [first, second, third] = out.split(' then ');
    assert.ok(first && second && third);
    assert.equal(first, third);
    assert.notEqual(first, second);
    assert.equal(parseHandle(first, 'R1').ok, true);
    assert.equal(parseHandle(second, 'C1').ok, true);
  });

  it('is idempotent: a neutral text stays as it is', () => {
    const once = neutralText(`${COMMIT} R1-XTBB-03T1-70 2026-11-30T22:45:24.899Z /tmp/discern-repo-Ab12`, options);
    assert.equal(neutralText(once, options), once);
  });
});
