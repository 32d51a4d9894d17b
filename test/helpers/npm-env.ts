// npm's environment for the packaging tests: without what an enclosing `npm test` exported (its lifecycle and
// the project's prefix), so an install acts on the directory it is given alone; the cache and registry settings
// stay, and so does the CA bundle test/run.ts set aside (npm may need it to reach the registry).
import { cleanEnv } from './scratch-repo.js';

export function npmEnv(extra: Record<string, string> = {}): Record<string, string> {
  const keep = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig']);
  const env = Object.fromEntries(
    Object.entries(cleanEnv()).filter(([k]) => !k.toLowerCase().startsWith('npm_') || keep.has(k.toLowerCase())),
  );
  const caCerts = process.env['DISCERN_TEST_NODE_EXTRA_CA_CERTS'];
  if (caCerts !== undefined) env['NODE_EXTRA_CA_CERTS'] = caCerts;
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...extra };
}
