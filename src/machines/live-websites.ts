// The link screen's bindings, apart from live.ts so that they load with the screen, not with the app.
import { fromPromise } from 'xstate';
import { forwardServerMessages, type SocketRef } from './findings/socket';
import * as websites from './websiteCalls';
import { websitesMachine, WEBSITE_PAGE_SIZE } from './websites';

/** Link proofreading bound to the website calls; the view saves the report file. */
export function liveWebsites(options: { socket?: () => SocketRef | undefined; save(blob: Blob, name: string): void }) {
  return websitesMachine.provide({
    actors: {
      ...(options.socket ? { 'socket messages': forwardServerMessages(options.socket) } : {}),
      'load list': fromPromise(({ input }) => websites.websiteList(input.num, WEBSITE_PAGE_SIZE)),
      add: fromPromise(({ input }) => websites.addWebsite(input)),
      'add or find': fromPromise(({ input }) => websites.addOrFindWebsite({ url: input.url, depth: 0, page_limit: 1 })),
      update: fromPromise(({ input }) => websites.updateWebsite(input)),
      delete: fromPromise(({ input }) => websites.deleteWebsite(input.id)),
      'start check': fromPromise(({ input }) => websites.checkWebsite(input.id)),
      report: fromPromise(async ({ input }) => ({
        blob: await websites.websiteReport(input.site.id),
        name: `${input.site.name}-校对报告.csv`,
      })),
    },
    actions: {
      'save report': (_, params) => options.save(params.blob, params.name),
    },
  });
}
