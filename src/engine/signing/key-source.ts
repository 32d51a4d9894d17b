// Which key signed a note (spec/vocabularies.yaml signing_key_source): the owner's git SSH signing key, or the key
// discern keeps for this user on this machine.
export type KeySource = 'owner' | 'discern';
