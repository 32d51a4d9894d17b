// A project with escape hatches built in, for the security stress tests: a directory outside the project holding
// a secret, a sentinel and an executable, and links inside the project (a page link, a directory link at the
// root and inside the map, a script link) that lead to it. Probes name the secret every way a path can be
// spelled; a confined answer never carries the secret and never touches the outside directory.
import { chmodSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';
import { treeSnapshot } from '../helpers/tree.js';

export const SECRET = 'OUTSIDE-SECRET-7f3a91c2';
/** /etc/passwd's first line on every Linux: its presence in an answer means the file was read out. */
export const PASSWD = /root:[^:\n]*:0:0:/;

/** The project's discern.toml: one trivial job, so every verb can run. */
export { HOSTILE_BASE_CONFIG } from '../helpers/hostile-project.js';

export interface Hostile {
  repo: ScratchRepo;
  outside: string;
  /** The marker an outside executable would create, were it ever run. */
  marker: string;
  snapshot: () => Map<string, string>;
  probes: string[];
}

export function hostileProject(config: string): Hostile {
  const outside = tempDir('discern-outside-');
  const page = `---\ntitle: Secret\n---\n# Secret\n\n${SECRET}\n`;
  writeFileSync(join(outside, 'secret.md'), page);
  writeFileSync(join(outside, 'secret'), `${SECRET}\n`);
  writeFileSync(join(outside, 'secret.jsonl'), `{"secret":"${SECRET}"}\n`);
  writeFileSync(join(outside, 'sentinel.txt'), 'unchanged\n');
  const marker = join(outside, 'EXECUTED');
  writeFileSync(join(outside, 'evil.sh'), `#!/bin/sh\necho ${SECRET}\ntouch '${marker}'\n`);
  chmodSync(join(outside, 'evil.sh'), 0o755);
  mkdirs(outside);

  const repo = scratchRepo(
    {
      'discern.toml': config,
      'discern/map/10-guide/start.md': '---\ntitle: Start\n---\n# Start here\n\nThe project in one page.\n',
      'discern/scripts/hello': '#!/bin/sh\necho hello\n',
      'src/a.ts': 'export const a = 1;\n',
    },
    { commit: false },
  );
  chmodSync(join(repo.root, 'discern/scripts/hello'), 0o755);
  symlinkSync(join(outside, 'secret.md'), join(repo.root, 'discern/map/10-guide/leak.md'));
  symlinkSync(outside, join(repo.root, 'discern/map/linkdir'));
  symlinkSync(outside, join(repo.root, 'linkdir'));
  symlinkSync(join(outside, 'evil.sh'), join(repo.root, 'discern/scripts/leak'));
  repo.commit('initial, with links that lead outside');
  return { repo, outside, marker, snapshot: () => treeSnapshot(outside), probes: probes(outside) };
}

function mkdirs(outside: string): void {
  // An outside "project" too: a path input that names it must not be mistaken for this project.
  writeFileSync(join(outside, 'discern.toml'), '[project]\nname = "Outside"\n');
}

/** Every spelling of "the secret file outside the project" a path input might be handed. */
function probes(outside: string): string[] {
  const abs = join(outside, 'secret.md');
  const fromRoot = abs.slice(1);
  const up = '../'.repeat(14);
  const bare = fromRoot.replace(/\.md$/, '');
  return [
    `${up}${fromRoot}`,
    `${up}${bare}`,
    abs,
    join(outside, 'secret'),
    '/etc/passwd',
    `${up}etc/passwd`,
    `${'..%2f'.repeat(14)}${fromRoot.replaceAll('/', '%2f')}`,
    `${'%2e%2e%2f'.repeat(14)}${bare.replaceAll('/', '%2F')}`,
    `${'%252e%252e%252f'.repeat(14)}${bare}`,
    `${'..\\'.repeat(14)}${fromRoot.replaceAll('/', '\\')}`,
    `10-guide/../../../${up}${bare}`,
    `foo/../../${up}${bare}`,
    'linkdir/secret',
    'linkdir/secret.md',
    'discern/map/linkdir/secret.md',
    '10-guide/leak',
    '10-guide/leak.md',
    'leak',
    'secret',
    `secret%00.md`,
    `10-guide/start%00${up}${bare}`,
    `file://${abs}`,
  ];
}

/** True when `text` shows content from outside the project. */
export function leaks(text: string): boolean {
  return text.includes(SECRET) || PASSWD.test(text);
}
