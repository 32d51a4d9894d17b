// Defaults of discern.toml keys that code applies (they are also stated as `default` in spec/config.schema.json).
export const DEFAULT_BRANCH_PREFIX = 'agent/';
export const DEFAULT_MAP_DIR = 'discern/map/';
export const DEFAULT_SCRIPTS_DIR = 'discern/scripts';
export const DEFAULT_SKILLS_DIR = 'discern/skills';
export const DEFAULT_TODO = 'discern/TODO.md';
export const DEFAULT_ENV_FILES: readonly string[] = ['.env', '.env.local'];
