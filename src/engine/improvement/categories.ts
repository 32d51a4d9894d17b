// The audit's categories in their fixed order (the order breaks ties in ranking). Weights: the gate decides
// whether work is proven at all (3); setup, instructions, standards and checkpoints shape every change (2); the
// map, worktrees and skills make work easier but do not decide it (1). docs/30-verbs/improvement.md lists them.
import { CHECKPOINTS } from './rules/checkpoints.js';
import { GATE } from './rules/gate.js';
import { INSTRUCTIONS } from './rules/instructions.js';
import { MAP } from './rules/map.js';
import { SETUP } from './rules/setup.js';
import { SKILLS } from './rules/skills.js';
import { STANDARDS } from './rules/standards.js';
import { WORKTREES } from './rules/worktrees.js';
import type { Category } from './types.js';

export const CATEGORIES: readonly Category[] = [
  GATE,
  SETUP,
  INSTRUCTIONS,
  MAP,
  WORKTREES,
  STANDARDS,
  CHECKPOINTS,
  SKILLS,
];

export const CATEGORY_NAMES: readonly string[] = CATEGORIES.map((c) => c.name);
