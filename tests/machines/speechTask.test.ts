// The audio and video screen's machine with its live bindings (the real speech calls through the API client; only
// the transport is fake, the clock simulated): sources first, the upload with its subtitle, polling until the task
// ends, the corrected subtitles saved; a failed task says why and can be tried again.
import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { configureApi } from '../../src/api/client';
import { liveSpeechTask } from '../../src/machines/live-speech';
import { SPEECH_POLL_MS } from '../../src/machines/speechTask';
import type { SpeechTask } from '../../src/machines/speechCalls';
import { fakeFetch, freshStores } from '../api/helpers';
import { settle as settleFor } from './model';

const ok = (result: unknown) => ({ body: { code: 200, msg: 'success', result } });
const settle = () => settleFor(8);
const task = (over: Partial<SpeechTask> = {}): SpeechTask => ({
  task_id: 3,
  name: '讲话.mp3',
  kind: 'audio',
  status: 'queued',
  progress: 0,
  ...over,
});

function start() {
  freshStores();
  const routes: Record<string, { status?: number; body?: unknown }> = {};
  const transport = fakeFetch(routes);
  configureApi({ baseURL: 'http://api.test', fetch: transport.fetch });
  routes['GET /misscut/v1/audio/sources'] = ok({
    media: true,
    asr: false,
    subtitle_formats: ['srt'],
    max_minutes: 120,
  });
  const saved: string[] = [];
  const clock = new SimulatedClock();
  const actor = createActor(liveSpeechTask({ save: (_b, name) => saved.push(name) }), { clock });
  actor.start();
  const calls = (path: string) => transport.requests.filter((r) => new URL(r.url).pathname === path);
  return { actor, routes, saved, clock, calls };
}

describe('speech task machine', () => {
  it('uploads media and subtitle, polls to done, and saves the corrected subtitles', async () => {
    const { actor, routes, saved, clock, calls } = start();
    await settle();
    expect(actor.getSnapshot().context.sources).toMatchObject({ asr: false });
    actor.send({ type: 'start' });
    expect(actor.getSnapshot().value).toBe('idle');
    routes['POST /misscut/v1/audio/convert_file_to_mp3'] = ok(task());
    actor.send({ type: 'media chosen', file: new File(['mp3'], '讲话.mp3') });
    actor.send({ type: 'subtitle chosen', file: new File(['1\n'], '讲话.srt') });
    actor.send({ type: 'start' });
    await settle();
    const form = await calls('/misscut/v1/audio/convert_file_to_mp3')[0].clone().formData();
    expect((form.get('file') as File).name).toBe('讲话.mp3');
    expect((form.get('subtitle') as File).name).toBe('讲话.srt');
    expect(actor.getSnapshot().matches('processing')).toBe(true);
    routes['POST /misscut/v1/get_speech_detail'] = ok(task({ status: 'running', progress: 40 }));
    clock.increment(SPEECH_POLL_MS);
    await settle();
    expect(actor.getSnapshot().context.task?.progress).toBe(40);
    routes['POST /misscut/v1/get_speech_detail'] = ok(task({ status: 'done', progress: 100, segments: [] }));
    clock.increment(SPEECH_POLL_MS);
    await settle();
    expect(actor.getSnapshot().matches('done')).toBe(true);
    const polls = calls('/misscut/v1/get_speech_detail').length;
    clock.increment(SPEECH_POLL_MS * 3);
    await settle();
    expect(calls('/misscut/v1/get_speech_detail')).toHaveLength(polls);
    routes['GET /misscut/v1/audio/subtitles'] = { body: '1\n' };
    actor.send({ type: 'export', format: 'vtt' });
    await settle();
    expect(saved).toEqual(['讲话（校对后）.vtt']);
    actor.send({ type: 'reset' });
    expect(actor.getSnapshot().context).toMatchObject({ media: null, task: null });
    actor.stop();
  });

  it('a task that fails says why, and the same file can be tried again', async () => {
    const { actor, routes, clock } = start();
    await settle();
    routes['POST /misscut/v1/audio/convert_file_to_mp3'] = ok(task());
    actor.send({ type: 'media chosen', file: new File(['mp3'], '讲话.mp3') });
    actor.send({ type: 'start' });
    await settle();
    routes['POST /misscut/v1/get_speech_detail'] = ok(
      task({ status: 'failed', error: '本服务器未配置语音识别', error_code: 'speech.no_asr' }),
    );
    clock.increment(SPEECH_POLL_MS);
    await settle();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.task?.error).toBe('本服务器未配置语音识别');
    routes['POST /misscut/v1/audio/convert_file_to_mp3'] = {
      status: 402,
      body: { code: 402, msg: '音频校对时长不足', msg_code: 'speech.audio_exhausted', result: null },
    };
    actor.send({ type: 'retry' });
    await settle();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe('音频校对时长不足');
    actor.stop();
  });
});
