// A child process for the concurrency test: writes one Proof note on the commit it is given, then prints the
// writer's status. Run as `node --import tsx write-note-child.ts <common-dir> <checkout> <commit>`.
import { proofNoteBody, writeProofNote } from '../../../src/engine/notes/proof-note.js';

const [commonDir = '', root = '', commit = ''] = process.argv.slice(2);
const body = proofNoteBody({
  subject: { commit },
  proof: {
    branch: 'agent/x',
    trunk: 'main',
    head: commit,
    files_total: 1,
    insertions: 1,
    deletions: 0,
    mode: 'strict',
  },
  presentation: { line: `discern Proof: main @ ${commit.slice(0, 12)}`, markdown: '# Proof\n' },
});
const result = await writeProofNote(commonDir, { cwd: root, env: process.env }, commit, body);
process.stdout.write(`${result.status}\n`);
