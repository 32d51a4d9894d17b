// The Proof note writer on a real repository: the DSSE body round-trips and matches the published schema, a
// repeat is already_present, and 16 writers in 16 processes at once all land their notes (parallel
// `git notes add` alone loses most of them).
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  parseProofNote,
  proofNoteBody,
  readProofNote,
  writeProofNote,
  type ProofNotePayload,
} from '../../../src/engine/notes/proof-note.js';
import { cleanEnv, scratchRepo, type ScratchRepo } from '../../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

const schema = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../schema/discern-proof-note.schema.json', import.meta.url)), 'utf8'),
) as object;
const ajv = new Ajv2020({ strict: false, allErrors: true });
const validateEnvelope = ajv.compile(schema);
const validatePayload = ajv.compile({ $ref: `${(schema as { $id: string }).$id}#/$defs/DiscernProofNotePayload` });

function payload(commit: string): ProofNotePayload {
  return {
    subject: { commit },
    proof: {
      branch: 'agent/fix',
      trunk: 'main',
      head: commit,
      files_total: 2,
      insertions: 5,
      deletions: 1,
      mode: 'strict',
    },
    presentation: {
      line: `discern Proof: main @ ${commit.slice(0, 12)} — gate green`,
      markdown: '# Proof\n\nGreen.\n',
    },
    acceptance: { consent: { source: 'conversation' } },
  };
}

describe('Proof note', () => {
  it('is one JSON line, a DSSE envelope valid against the published schema, and reads back exactly', async () => {
    const r = scratchRepo();
    repos.push(r);
    const commit = r.git('rev-parse', 'HEAD').trim();
    const body = proofNoteBody(payload(commit));
    assert.equal(body.split('\n').length, 2);
    assert.ok(body.endsWith('\n'));
    const run = { cwd: r.root, env: cleanEnv() };
    const first = await writeProofNote(`${r.root}/.git`, run, commit, body);
    assert.equal(first.status, 'recorded');
    const again = await writeProofNote(`${r.root}/.git`, run, commit, body);
    assert.equal(again.status, 'already_present');
    const read = await readProofNote(run, commit);
    assert.ok(read);
    assert.ok(validateEnvelope(read.envelope), JSON.stringify(validateEnvelope.errors));
    assert.ok(validatePayload(read.payload), JSON.stringify(validatePayload.errors));
    assert.deepEqual(read.payload, payload(commit));
    assert.equal(r.git('notes', '--ref=refs/notes/discern', 'show', commit), body);
  });

  it('rejects what is not a Proof note', () => {
    assert.equal(parseProofNote('not json'), undefined);
    assert.equal(parseProofNote('{"payloadType":"x","payload":"","signatures":[]}'), undefined);
  });

  it('16 writers in 16 processes at once: every note lands', async () => {
    const r = scratchRepo();
    repos.push(r);
    const commits: string[] = [];
    for (let i = 0; i < 16; i++) {
      r.write(`f${i}.txt`, `${i}\n`);
      r.commit(`c${i}`);
      commits.push(r.git('rev-parse', 'HEAD').trim());
    }
    const child = fileURLToPath(new URL('./write-note-child.ts', import.meta.url));
    const statuses = await Promise.all(
      commits.map(
        (commit) =>
          new Promise<string>((resolve, reject) => {
            // From the project's directory, where --import tsx resolves.
            const p = spawn(process.execPath, ['--import', 'tsx', child, `${r.root}/.git`, r.root, commit], {
              cwd: process.cwd(),
              env: cleanEnv(),
              stdio: ['ignore', 'pipe', 'inherit'],
            });
            let out = '';
            p.stdout.on('data', (d: Buffer) => (out += d.toString()));
            p.once('error', reject);
            p.once('exit', () => resolve(out.trim()));
          }),
      ),
    );
    assert.deepEqual(
      statuses,
      commits.map(() => 'recorded'),
    );
    const listed = r.git('notes', '--ref=refs/notes/discern', 'list').trim().split('\n');
    assert.equal(listed.length, 16);
    for (const commit of commits)
      assert.ok((await readProofNote({ cwd: r.root, env: cleanEnv() }, commit))?.payload.subject.commit === commit);
  });
});
