// The `discern` executable. `--version` is answered before anything else is loaded; everything else loads
// the CLI lazily, and only `discern mcp` loads the MCP SDK.
import { VERSION } from '../../../generated/version.js';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '-V' || argv[0] === '--version')) {
  process.stdout.write(`discern ${VERSION}\n`);
} else {
  const { run } = await import('./run.js');
  process.exitCode = await run(argv);
}
