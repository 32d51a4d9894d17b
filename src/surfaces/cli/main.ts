// The `discern` executable. `--version` is answered before anything else is loaded; everything else loads
// the CLI lazily, and only `discern mcp` loads the MCP SDK.
import { VERSION, VERSION_FLAGS } from '../../../generated/version.js';

const argv = process.argv.slice(2);
if (argv.length === 1 && VERSION_FLAGS.includes(argv[0] ?? '')) {
  process.stdout.write(`discern ${VERSION}\n`);
} else {
  const { run } = await import('./run.js');
  // Every write was awaited, so nothing is left to flush; exiting now skips teardown a CLI call does not need.
  process.exit(await run(argv));
}
