// `npm run gen:engine-messages`: writes engine/messages.hk.ts, the hk templates of the engine's finding messages,
// from the cn ones through the engine's own OpenCC conversion (cn → hk), as the engine converts hk messages.
import { writeFileSync } from 'node:fs';
import { hkMessagesSource, HK_MESSAGES_FILE } from './engine-messages-source';

writeFileSync(HK_MESSAGES_FILE, await hkMessagesSource());
console.log(`${HK_MESSAGES_FILE} written`);
