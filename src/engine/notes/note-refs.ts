// Where discern's notes live and what their payloads are: names only, so a reader (verify, status) does not load
// the writers' signing machinery.
export const NOTES_REF = 'refs/notes/discern';
export const PAYLOAD_TYPE =
  'https://discern.sh/schema/v1/discern-proof-note.schema.json#/$defs/DiscernProofNotePayload';
