// The PDF screens' bindings, apart from live.ts so that they load with the screens, not with the app.
import { fromPromise } from 'xstate';
import { forwardServerMessages, type SocketRef } from './findings/socket';
import type { UploadBinding } from './live';
import * as pdf from './pdfCalls';
import { pdfChecksMachine, PDF_PAGE_SIZE } from './pdfChecks';
import { pdfDetailMachine } from './pdfDetail';

/** PDF uploads (POST /misscut/v2/pdf_check/upload): the answer is the queued check, followed by the PDF list. */
export function pdfUploadBinding(options: { XMLHttpRequest?: typeof XMLHttpRequest } = {}): UploadBinding {
  return {
    upload: async (file, call) => ({
      job: null,
      result: await pdf.uploadPdf(file, file.name, { ...call, ...options }),
    }),
  };
}

/** The PDF list bound to the PDF calls. */
export function livePdfChecks(options: { socket?: () => SocketRef | undefined } = {}) {
  return pdfChecksMachine.provide({
    actors: {
      ...(options.socket ? { 'socket messages': forwardServerMessages(options.socket) } : {}),
      'load list': fromPromise(({ input }) => pdf.pdfList(input.num, PDF_PAGE_SIZE)),
      cancel: fromPromise(({ input }) => pdf.cancelPdf(input.id)),
      delete: fromPromise(({ input }) => pdf.deletePdf(input.id)),
    },
  });
}

/** A PDF check's pages bound to the result and export calls; the view saves exported files. */
export function livePdfDetail(options: {
  socket?: () => SocketRef | undefined;
  save?(blob: Blob, name: string): void;
}) {
  return pdfDetailMachine.provide({
    actors: {
      ...(options.socket ? { 'socket messages': forwardServerMessages(options.socket) } : {}),
      load: fromPromise(({ input }) => pdf.pdfResult(input.id)),
      export: fromPromise(async ({ input }) => {
        const base = input.name.replace(/\.pdf$/i, '');
        return {
          blob: await pdf.exportPdf(input.id, input.format),
          name: input.format === 'pdf' ? `${base}（校对批注）.pdf` : `${base}（校对报告）.xlsx`,
        };
      }),
    },
    actions: {
      'save file': (_, params) => options.save?.(params.blob, params.name),
    },
  });
}
