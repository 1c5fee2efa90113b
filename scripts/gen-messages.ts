// `npm run gen:messages`: writes src/ui/server-messages.ts (the Lingui source of the server's messages) from
// openapi/messages.ts; then `npm run i18n:extract` brings the server catalogues up to date.
import { writeFileSync } from 'node:fs';
import { SERVER_MESSAGES_FILE, serverMessagesSource } from './messages-source';

writeFileSync(SERVER_MESSAGES_FILE, await serverMessagesSource());
console.log(`${SERVER_MESSAGES_FILE} written`);
