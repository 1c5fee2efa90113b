// Only types and the small reader come from the table's module: the table itself stays out of the SPA's first load.
import { readParams, type MessageParams } from '../../openapi/messages';

/** A server message as it came: the text in the source language, and its code and values when the server sent them. */
export interface CodedMessage {
  /** a code of openapi/messages.ts, as the server sent it (the catalogue decides whether it is known) */
  code: string;
  params: MessageParams;
}

// The texts of server messages seen lately, by text: errors travel through machines and views as their text, and
// whoever shows one looks its code up here to show it in the reader's language. Bounded: the oldest go first.
const seen = new Map<string, CodedMessage>();
const MAX_SEEN = 200;
const CODE = /^[a-z_]+(\.[a-z_]+)+$/;

/** Remembers a server message's code for its text; returns the text. Unknown codes are ignored. */
export function rememberServerMessage(text: string, code: unknown, params: unknown): string {
  if (!text || typeof code !== 'string' || !CODE.test(code)) return text;
  seen.delete(text);
  seen.set(text, { code, params: readParams(params) });
  if (seen.size > MAX_SEEN) seen.delete(seen.keys().next().value!);
  return text;
}

/** The code and values of a server message text seen lately, if any. */
export function codedServerMessage(text: string): CodedMessage | undefined {
  return seen.get(text);
}
