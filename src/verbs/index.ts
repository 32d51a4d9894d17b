// Assembles the handlers: one lazy loader per verb, typed by the generated Handlers interface, so a missing or
// mistyped verb is a compile error while a call loads only its own verb's code.
import type { Handlers } from '../../generated/handlers.js';

export type HandlerLoaders = { [K in keyof Handlers]: () => Promise<Handlers[K]> };

export const HANDLERS: HandlerLoaders = {
  docs: async () => (await import('./docs.js')).docs,
  doctor: async () => (await import('./doctor.js')).doctor,
  help: async () => (await import('./help.js')).help,
};
