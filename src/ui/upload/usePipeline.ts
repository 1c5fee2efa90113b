// A screen's own upload pipeline actor (src/machines/uploadPipeline.ts) and what its views need from it.
import { useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { liveUploadPipeline, type UploadBinding } from '../../machines/live';
import { phaseOf, type UploadPipelineRef } from '../../machines/uploadPipeline';
import type { UploadView } from './UploadStatus';
import { inspectOptions } from '../../machines/inspect';

export interface PipelineView<R> {
  ref: UploadPipelineRef;
  /** the status line: bytes sent, the server working (all bytes sent, answer pending), failed ... */
  view: UploadView;
  running: boolean;
  file: File | null;
  /** the last successful answer */
  result: R | null;
  start: (file: File, fields?: Record<string, string>) => void;
  cancel: () => void;
  retry: () => void;
}

/** `binding` is read once, when the screen mounts. */
export function usePipeline<R>(binding: UploadBinding): PipelineView<R> {
  const machine = useMemo(() => liveUploadPipeline(binding), []);
  const ref = useActorRef(machine, { input: {}, ...inspectOptions() });
  const phase = useSelector(ref, phaseOf);
  const loaded = useSelector(ref, (s) => s.context.loaded);
  const total = useSelector(ref, (s) => s.context.total);
  const message = useSelector(ref, (s) => s.context.error?.message ?? '');
  const file = useSelector(ref, (s) => s.context.file);
  const result = useSelector(ref, (s) => (s.matches('done') ? (s.context.result as R) : null));
  const view = useMemo<UploadView>(() => {
    if (phase === 'uploading') {
      // every byte is sent: the server is reading and checking the file
      if (total > 0 && loaded >= total) return { phase: 'processing' };
      return { phase: 'uploading', percent: total > 0 ? Math.floor((loaded / total) * 100) : 0 };
    }
    if (phase === 'queued' || phase === 'processing') return { phase: 'processing' };
    if (phase === 'failed') return { phase: 'failed', message };
    if (phase === 'cancelled') return { phase: 'cancelled' };
    return { phase };
  }, [phase, loaded, total, message]);
  return {
    ref,
    view,
    running: phase === 'uploading' || phase === 'queued' || phase === 'processing',
    file,
    result,
    start: (f, fields) => ref.send({ type: 'file selected', file: f, ...(fields ? { fields } : {}) }),
    cancel: () => ref.send({ type: 'cancel requested' }),
    retry: () => ref.send({ type: 'retry' }),
  };
}
