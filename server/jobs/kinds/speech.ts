import { nowIso } from '../../db';
import {
  clearSpeechSource,
  findSpeechSource,
  findSpeechTask,
  replaceSpeechSegments,
  updateSpeechTask,
} from '../../db/repos/speech-tasks';
import { runSpeech } from '../../formats/media/speech';
import { countChars } from '../../domain/rights/ledger';
import { recordCheck } from '../../domain/teams/metrics';
import { checkerGroup, endedColumns, JobFailure, type JobHandler } from '../runner';

/**
 * Speech tasks (audio and video checks, formats/media/speech.ts): the upload (right 1024 or 2048 charged by the
 * minute at upload) stays in speech_files until the task ends, so a task taken up again starts over from it. The
 * page polls the row for status and progress: nothing goes on the socket.
 */
export const speechJobs: JobHandler = {
  kind: 'speech',

  async run({ app, job, signal, progress }) {
    const { db } = app;
    const id = Number(job.ref);
    const [row, files] = await Promise.all([findSpeechTask(db, id), findSpeechSource(db, id)]);
    if (!row || signal.aborted) return null;
    if (!files) throw new JobFailure('document.file_lost');
    const uid = Number(job.uid);
    // ffmpeg is killed and a speech recognition request dropped when the job stops
    const controller = new AbortController();
    signal.onAbort = () => controller.abort();
    const write: Parameters<typeof runSpeech>[0]['write'] = async (values) => {
      if (values.progress !== undefined && !(await progress(Number(values.progress)))) return false;
      if (controller.signal.aborted) return false;
      await updateSpeechTask(db, id, { ...values, updated_at: nowIso() });
      return true;
    };
    if (!(await write({ status: 'running', progress: 0 }))) return null;
    const done = await runSpeech(
      { app, id, uid, signal: controller.signal, group: checkerGroup(job), write },
      row,
      files,
    );
    if (!done || signal.aborted) return null;
    const { segments } = done;
    const issues = segments.flatMap((s) => s.issues);
    return {
      async store(trx) {
        await replaceSpeechSegments(
          trx,
          id,
          segments.map((s, idx) => ({ task_id: id, idx, ...s, issues: JSON.stringify(s.issues) })),
        );
        await updateSpeechTask(trx, id, {
          status: 'done',
          progress: 100,
          segment_count: segments.length,
          issue_count: issues.length,
          updated_at: nowIso(),
        });
        // the mp3 is what is kept: the upload is not needed any more
        await clearSpeechSource(trx, id);
      },
      async announce() {
        const chars = segments.reduce((n, s) => n + countChars(s.text), 0);
        await recordCheck(db, { uid, kind: 'speech', chars, issues }).catch((err: unknown) =>
          app.log.error({ err, speech: id }, 'speech check not recorded'),
        );
      },
    };
  },

  async endRow(db, job, status, reason) {
    await updateSpeechTask(db, Number(job.ref), { status, ...endedColumns(reason), updated_at: nowIso() });
    await clearSpeechSource(db, Number(job.ref));
  },

  // the page polls the task: there is nothing to send
  async tellEnded() {},
};
