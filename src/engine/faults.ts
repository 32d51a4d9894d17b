// Test-only fault injection (docs/decisions/0007-fault-injection.md): DISCERN_FAULT names points, separated by
// commas, where discern misbehaves on purpose so its crash and validation paths can be tested end to end.
// Points: `verb:<id>` throws before the handler runs; `result:<id>` makes the MCP server's result break its
// own schema before the server-side check; `config:write` and `tidy:write` make the write of discern.toml (or
// a tidied file) fail with EACCES after every check passed; `desk:key` makes the desk throw from its key handler,
// outside any awaited call, as an uncaught exception would.
// Kill points (docs/decisions/0037-kill-and-disk-faults.md) SIGKILL discern itself right after a named step, so
// the next call's recovery can be tested: `accept:<step>` and `emergency:<step>` (landing), `done:<step>`
// (locked, journal-opened, preconditions, stage-started:<stage>, job-started:<label>, proof-recorded,
// lock-released, journal-finished), `start:<step>` (locked, worktree-added, task-recorded, setup-done) and
// `update:<step>` (locked, merged, regenerated).

export function faultRequested(env: Readonly<Record<string, string | undefined>>, point: string): boolean {
  return (env['DISCERN_FAULT'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .includes(point);
}

/** SIGKILLs this process at a named kill point: no handler, no finally block, no flush runs after it. */
export function killAt(env: Readonly<Record<string, string | undefined>>, point: string): void {
  if (faultRequested(env, point)) process.kill(process.pid, 'SIGKILL');
}
