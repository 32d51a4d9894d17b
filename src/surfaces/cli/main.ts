// The `discern` executable. `--version` is answered before anything else is loaded; `coupling --json` in a
// project resolved before is answered by a small module of its own (docs/decisions/0025); everything else loads
// the CLI lazily, and only `discern mcp` loads the MCP SDK. No top-level await: the bundler may place modules that
// lazy chunks share in this entry's chunk, and a chunk importing from an entry still suspended in an await
// would never evaluate (docs/decisions/0016).
import { VERSION, VERSION_FLAGS } from '../../../generated/version.js';

const argv = process.argv.slice(2);

function runCli(): void {
  // The executable this process is, for the detached discern that makes spare installs after a worktree took one.
  import('../../engine/efforts/warm/spare-background.js')
    .then(({ setSpareExecutable }) => setSpareExecutable(process.argv[1]))
    .catch(() => undefined);
  import('./run.js')
    .then(async ({ run }) => {
      // Every write was awaited, so nothing is left to flush; exiting now skips teardown a CLI call does not need.
      process.exit(await run(argv));
    })
    .catch(cannotStart);
}

function cannotStart(error: unknown): void {
  // Only a broken installation gets here: run() answers everything else itself.
  process.stderr.write(`discern: could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(70);
}

const spareOrder = process.env['DISCERN_WARM_SPARE'];

if (spareOrder !== undefined && argv.length === 0) {
  // A detached discern started to make spare installs ([worktree] copy): that is all it does.
  import('../../engine/efforts/warm/spare-background.js')
    .then(({ makeOrderedSpares }) => makeOrderedSpares(spareOrder, process.env))
    .then((code) => process.exit(code), cannotStart);
} else if (argv.length === 1 && VERSION_FLAGS.includes(argv[0] ?? '')) {
  process.stdout.write(`discern ${VERSION}\n`);
} else if (argv[0] === 'coupling' && argv.includes('--json')) {
  import('./coupling-fast.js')
    .then(({ answerCoupling }) => answerCoupling(argv))
    // Whatever the warm path cannot answer (or fails at), the full CLI answers.
    .then((code) => (code === undefined ? runCli() : process.exit(code)), runCli);
} else {
  runCli();
}
